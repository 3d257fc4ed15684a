// The numerical libraries linear algebra uses, each opened with dlopen on first use and
// optional at run time: a missing one is reported by an Unsupported error that names it (the
// matrix product falls back to weft's own fused kernel instead, see matmul.cpp).
//
// Search order (the first soname that opens and has the symbols wins):
//   host BLAS (CBLAS):  libopenblas.so.0, libopenblas.so, libblas.so.3 (the system's BLAS
//                       alternative, e.g. reference BLAS or BLIS), libblas.so
//   host LAPACK:        libopenblas.so.0, libopenblas.so (OpenBLAS carries LAPACK), then
//                       liblapack.so.3, liblapack.so (Fortran symbols, 32-bit integers)
//   OpenCL:             libclblast.so.1, libclblast.so (CLBlast)
//   CUDA:               libcublas.so.13, libcublas.so.12, libcublas.so.11, libcublas.so (cuBLAS)
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace weft::detail::la {

// CBLAS enums (cblas.h) and CLBlast's (clblast_c.h), as their ABIs fix them.
constexpr int cblas_row_major = 101;
constexpr int cblas_no_trans = 111;
constexpr int cblas_trans = 112;

using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                         float*, int);
using DgemmFn = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int,
                         double, double*, int);

struct HostBlas {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  std::string soname;
};

// The real type of a LAPACK element type (std::complex<float>: float) and whether it is complex.
template <class T>
struct RealOf {
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename RealOf<T>::type;
template <class T>
inline constexpr bool is_complex_v = !std::is_same_v<T, real_t<T>>;

// LAPACK's Fortran interface: every argument by pointer, column-major, 32-bit integers.
// std::complex<R> has Fortran's COMPLEX layout (real, imaginary). For complex T the routines
// are the c/z ones, orthogonal ones the unitary ones (orgqr: ungqr, syevd: heevd), and the
// singular-value and eigenvalue routines take an extra real workspace (rwork).
template <class T>
struct LapackFns {
  using R = real_t<T>;
  using gesv_t = void (*)(const int*, const int*, T*, const int*, int*, T*, const int*, int*);
  using getrf_t = void (*)(const int*, const int*, T*, const int*, int*, int*);
  using potrf_t = void (*)(const char*, const int*, T*, const int*, int*, std::size_t);
  using geqrf_t = void (*)(const int*, const int*, T*, const int*, T*, T*, const int*, int*);
  using orgqr_t = void (*)(const int*, const int*, const int*, T*, const int*, const T*, T*, const int*, int*);
  // gesdd(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, [rwork,] iwork, info)
  using gesdd_t = std::conditional_t<
      is_complex_v<T>,
      void (*)(const char*, const int*, const int*, T*, const int*, R*, T*, const int*, T*, const int*, T*,
               const int*, R*, int*, int*, std::size_t),
      void (*)(const char*, const int*, const int*, T*, const int*, R*, T*, const int*, T*, const int*, T*,
               const int*, int*, int*, std::size_t)>;
  // syevd(jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork, info); heevd has rwork,
  // lrwork after lwork.
  using syevd_t = std::conditional_t<
      is_complex_v<T>,
      void (*)(const char*, const char*, const int*, T*, const int*, R*, T*, const int*, R*, const int*, int*,
               const int*, int*, std::size_t, std::size_t),
      void (*)(const char*, const char*, const int*, T*, const int*, R*, T*, const int*, int*, const int*, int*,
               std::size_t, std::size_t)>;
  gesv_t gesv = nullptr;
  getrf_t getrf = nullptr;
  potrf_t potrf = nullptr;
  geqrf_t geqrf = nullptr;
  orgqr_t orgqr = nullptr;
  gesdd_t gesdd = nullptr;
  syevd_t syevd = nullptr;
};

struct HostLapack {
  LapackFns<float> s;
  LapackFns<double> d;
  LapackFns<std::complex<float>> c;
  LapackFns<std::complex<double>> z;
  std::string soname;
  // The library's first missing complex routine ("" when it has them all): complex matrices
  // then throw Unsupported naming it, real ones still work.
  std::string complex_missing;
};

// CLBlast's C API: CLBlastSgemm(layout, a_transpose, b_transpose, m, n, k, alpha, a, a_offset,
// a_ld, b, b_offset, b_ld, beta, c, c_offset, c_ld, queue*, event*) -> status (0: success).
using ClMem = void*;  // cl_mem, cl_command_queue, cl_event: opaque pointers in the ABI
using ClQueue = void*;
using ClEvent = void*;
using ClblastSgemmFn = int (*)(int, int, int, std::size_t, std::size_t, std::size_t, float, ClMem, std::size_t,
                               std::size_t, ClMem, std::size_t, std::size_t, float, ClMem, std::size_t,
                               std::size_t, ClQueue*, ClEvent*);
using ClblastDgemmFn = int (*)(int, int, int, std::size_t, std::size_t, std::size_t, double, ClMem, std::size_t,
                               std::size_t, ClMem, std::size_t, std::size_t, double, ClMem, std::size_t,
                               std::size_t, ClQueue*, ClEvent*);
constexpr int clblast_row_major = 101;
constexpr int clblast_no_trans = 111;
constexpr int clblast_trans = 112;

struct ClBlast {
  ClblastSgemmFn sgemm = nullptr;
  ClblastDgemmFn dgemm = nullptr;
  std::string soname;
};

// cuBLAS (v2 API). Column-major; handles are per device (context).
using CublasHandle = struct cublasContext*;
using CuStream = void*;  // a CUstream
constexpr int cublas_op_n = 0;
constexpr int cublas_op_t = 1;
struct CuBlas {
  int (*create)(CublasHandle*) = nullptr;
  int (*destroy)(CublasHandle) = nullptr;
  int (*set_stream)(CublasHandle, CuStream) = nullptr;
  int (*sgemm)(CublasHandle, int, int, int, int, int, const float*, const float*, int, const float*, int,
               const float*, float*, int) = nullptr;
  int (*dgemm)(CublasHandle, int, int, int, int, int, const double*, const double*, int, const double*, int,
               const double*, double*, int) = nullptr;
  int (*sgemm_strided_batched)(CublasHandle, int, int, int, int, int, const float*, const float*, int,
                               long long, const float*, int, long long, const float*, float*, int, long long,
                               int) = nullptr;
  int (*dgemm_strided_batched)(CublasHandle, int, int, int, int, int, const double*, const double*, int,
                               long long, const double*, int, long long, const double*, double*, int, long long,
                               int) = nullptr;
  std::string soname;
};

/// The libraries, loaded once. Each throws Unsupported naming the sonames it looked for
/// (and what to install) when none opens.
const HostBlas& host_blas();
const HostLapack& host_lapack();
const ClBlast& clblast();
const CuBlas& cublas();

/// LAPACK's routines for T (float, double, std::complex<float>, std::complex<double>); throws
/// Unsupported when no LAPACK library opens or, for complex T, when it lacks a c/z routine.
template <class T>
const LapackFns<T>& lapack_fns();

/// Whether the library can be used (loads it; never throws).
bool have_host_blas() noexcept;
bool have_clblast() noexcept;
bool have_cublas() noexcept;

}  // namespace weft::detail::la
