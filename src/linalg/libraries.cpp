// Opening the linear-algebra libraries with dlopen (libraries.hpp gives the search orders).
#include "linalg/libraries.hpp"

#include <dlfcn.h>

#include <initializer_list>
#include <string>

#include "weft/error.hpp"

namespace weft::detail::la {

namespace {

template <class Table>
struct Loaded {
  Table api;
  std::string problem;  // empty: usable
};

template <class F>
void bind(void* lib, F& fn, const char* symbol, std::string& missing) {
  fn = reinterpret_cast<F>(::dlsym(lib, symbol));
  if (!fn && missing.empty()) missing = symbol;
}

/// Tries each soname in order; fill(lib, missing) binds the symbols and names the first one
/// absent. Returns the handle of the first library with all of them (kept open for good).
template <class Fill>
void* open_first(std::initializer_list<const char*> sonames, std::string& chosen, std::string& problem, Fill fill) {
  std::string tried;
  for (const char* name : sonames) {
    void* lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!tried.empty()) tried += ", ";
    tried += name;
    if (!lib) continue;
    std::string missing;
    fill(lib, missing);
    if (missing.empty()) {
      chosen = name;
      return lib;
    }
    tried += " (lacks " + missing + ")";
    ::dlclose(lib);
  }
  problem = tried;
  return nullptr;
}

Loaded<HostBlas> load_blas() {
  Loaded<HostBlas> out;
  open_first({"libopenblas.so.0", "libopenblas.so", "libblas.so.3", "libblas.so"}, out.api.soname, out.problem,
             [&](void* lib, std::string& missing) {
               bind(lib, out.api.sgemm, "cblas_sgemm", missing);
               bind(lib, out.api.dgemm, "cblas_dgemm", missing);
             });
  if (!out.problem.empty()) {
    out.problem = "no CBLAS library found for the host backend's matrix products (tried " + out.problem +
                  "); install OpenBLAS (Debian/Ubuntu: apt install libopenblas0-pthread)";
  }
  return out;
}

template <class T>
void bind_lapack(void* lib, LapackFns<T>& f, char p, std::string& missing) {
  const std::string s(1, p);
  const bool cx = is_complex_v<T>;
  bind(lib, f.gesv, (s + "gesv_").c_str(), missing);
  bind(lib, f.getrf, (s + "getrf_").c_str(), missing);
  bind(lib, f.potrf, (s + "potrf_").c_str(), missing);
  bind(lib, f.geqrf, (s + "geqrf_").c_str(), missing);
  bind(lib, f.orgqr, (s + (cx ? "ungqr_" : "orgqr_")).c_str(), missing);
  bind(lib, f.gesdd, (s + "gesdd_").c_str(), missing);
  bind(lib, f.syevd, (s + (cx ? "heevd_" : "syevd_")).c_str(), missing);
}

Loaded<HostLapack> load_lapack() {
  Loaded<HostLapack> out;
  void* handle = open_first({"libopenblas.so.0", "libopenblas.so", "liblapack.so.3", "liblapack.so"}, out.api.soname, out.problem,
             [&](void* lib, std::string& missing) {
               bind_lapack(lib, out.api.s, 's', missing);
               bind_lapack(lib, out.api.d, 'd', missing);
             });
  if (handle) {  // the complex routines: optional, reported when a complex matrix needs them
    bind_lapack(handle, out.api.c, 'c', out.api.complex_missing);
    bind_lapack(handle, out.api.z, 'z', out.api.complex_missing);
  }
  if (!out.problem.empty()) {
    out.problem = "no LAPACK library found for weft.linalg (tried " + out.problem +
                  "); install OpenBLAS or LAPACK (Debian/Ubuntu: apt install libopenblas0-pthread or liblapack3)";
  }
  return out;
}

Loaded<ClBlast> load_clblast() {
  Loaded<ClBlast> out;
  open_first({"libclblast.so.1", "libclblast.so"}, out.api.soname, out.problem, [&](void* lib, std::string& missing) {
    bind(lib, out.api.sgemm, "CLBlastSgemm", missing);
    bind(lib, out.api.dgemm, "CLBlastDgemm", missing);
  });
  if (!out.problem.empty()) {
    out.problem = "CLBlast not found for OpenCL matrix products (tried " + out.problem +
                  "); install it (Debian/Ubuntu: apt install libclblast1)";
  }
  return out;
}

Loaded<CuBlas> load_cublas() {
  Loaded<CuBlas> out;
  open_first({"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"}, out.api.soname, out.problem,
             [&](void* lib, std::string& missing) {
               bind(lib, out.api.create, "cublasCreate_v2", missing);
               bind(lib, out.api.destroy, "cublasDestroy_v2", missing);
               bind(lib, out.api.set_stream, "cublasSetStream_v2", missing);
               bind(lib, out.api.sgemm, "cublasSgemm_v2", missing);
               bind(lib, out.api.dgemm, "cublasDgemm_v2", missing);
               bind(lib, out.api.sgemm_strided_batched, "cublasSgemmStridedBatched", missing);
               bind(lib, out.api.dgemm_strided_batched, "cublasDgemmStridedBatched", missing);
             });
  if (!out.problem.empty()) {
    out.problem = "cuBLAS not found for CUDA matrix products (tried " + out.problem +
                  "); install the CUDA toolkit's cuBLAS or add its lib64 to the loader path";
  }
  return out;
}

template <class Table>
const Table& checked(const Loaded<Table>& l) {
  if (!l.problem.empty()) throw Unsupported(l.problem);
  return l.api;
}

const Loaded<HostBlas>& blas_state() {
  static const Loaded<HostBlas> l = load_blas();
  return l;
}
const Loaded<ClBlast>& clblast_state() {
  static const Loaded<ClBlast> l = load_clblast();
  return l;
}
const Loaded<CuBlas>& cublas_state() {
  static const Loaded<CuBlas> l = load_cublas();
  return l;
}

}  // namespace

const HostBlas& host_blas() { return checked(blas_state()); }
const ClBlast& clblast() { return checked(clblast_state()); }
const CuBlas& cublas() { return checked(cublas_state()); }

const HostLapack& host_lapack() {
  static const Loaded<HostLapack> l = load_lapack();
  return checked(l);
}

template <>
const LapackFns<float>& lapack_fns<float>() {
  return host_lapack().s;
}
template <>
const LapackFns<double>& lapack_fns<double>() {
  return host_lapack().d;
}

namespace {
const HostLapack& complex_lapack() {
  const HostLapack& l = host_lapack();
  if (!l.complex_missing.empty()) {
    throw Unsupported("weft.linalg of complex matrices needs LAPACK's complex routines; " + l.soname + " lacks " +
                      l.complex_missing + " (install OpenBLAS or a full LAPACK: apt install libopenblas0-pthread)");
  }
  return l;
}
}  // namespace

template <>
const LapackFns<std::complex<float>>& lapack_fns<std::complex<float>>() {
  return complex_lapack().c;
}
template <>
const LapackFns<std::complex<double>>& lapack_fns<std::complex<double>>() {
  return complex_lapack().z;
}

bool have_host_blas() noexcept { return blas_state().problem.empty(); }
bool have_clblast() noexcept { return clblast_state().problem.empty(); }
bool have_cublas() noexcept { return cublas_state().problem.empty(); }

}  // namespace weft::detail::la
