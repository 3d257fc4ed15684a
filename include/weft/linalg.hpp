// Linear algebra on arrays, with the libraries made for it (each opened at run time with
// dlopen, none needed to build or to load weft):
//
//   weft::Array a = ..., b = ...;                   // float32 or float64, on any device
//   weft::Array c = weft::matmul(a, b);             // NumPy's matmul (the @ operator)
//   weft::Array x = weft::linalg::solve(a, b);      // a x = b
//   auto [q, r] = weft::linalg::qr(a);
//
// matmul: stacks of matrices (more than two dimensions, the leading ones broadcast), 1-D
// operands as rows or columns, NumPy's dtype promotion. Floating-point products call
//   host:   CBLAS sgemm/dgemm (OpenBLAS: libopenblas.so.0 first, then the system's libblas.so.3)
//   OpenCL: CLBlast (libclblast.so.1)
//   CUDA:   cuBLAS (libcublas.so.13/12/11), strided-batched calls for regular stacks
// reading contiguous and transposed matrices (the last two strides) in place and copying any
// other layout first. Where the library is absent, and for integer, bool and float16
// operands, the product is weft's exact fused reduction (one kernel, no temporary).
//
// weft::linalg's decompositions (solve, inv, det, slogdet, cholesky, qr, svd, svdvals, eigh,
// eigvalsh) call LAPACK on the host (libopenblas.so.0 first, then liblapack.so.3). Arrays on
// an OpenCL or CUDA device are copied to the host, decomposed there, and the results copied
// back to the array's device. Without a LAPACK library they throw Unsupported naming the
// libraries tried. They accept stacks (..., M, N) of float32, float64, complex64 and complex128
// (LAPACK's s, d, c and z routines); integer and bool inputs compute in float64 as NumPy's;
// float16 is refused (DTypeError). For complex matrices cholesky and eigh take Hermitian ones
// (a = L L^H), singular values, eigenvalues and log |det| are real arrays of the real type
// (complex64: float32), and slogdet's sign is a unit complex number (det / |det|). A singular
// matrix (solve, inv), a matrix that is not positive definite (cholesky), a non-square matrix
// where one must be square, or a decomposition that did not converge throws LinAlgError (an
// InvalidArgument), as NumPy's.
#pragma once

#include "weft/export.hpp"

#include <string>

#include "weft/array.hpp"
#include "weft/error.hpp"

namespace weft {

/// A linear-algebra routine's failure on the values given (NumPy's LinAlgError): a singular
/// matrix, one not positive definite, a non-square one where one must be square.
class WEFT_API LinAlgError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

/// NumPy's matmul (a @ b); see the header's comment for what computes it.
WEFT_API Array matmul(const Array& a, const Array& b);

/// The library float32/float64 products on device run on, with the soname it was opened as
/// ("OpenBLAS libopenblas.so.0", "CLBlast libclblast.so.1", "cuBLAS libcublas.so.12"), or ""
/// when it is absent and weft's fused kernel computes them. Opens the library to find out.
WEFT_API std::string matmul_library(const Device& device);

namespace linalg {

/// The solution x of a x = b: a is (..., M, M); b is (..., M, K) or, when 1-D (M,), a
/// vector (NumPy 2's rule). LinAlgError("Singular matrix") when a is singular.
WEFT_API Array solve(const Array& a, const Array& b);
/// The inverse of each (..., M, M) matrix; LinAlgError when one is singular.
WEFT_API Array inv(const Array& a);
/// The determinant of each (..., M, M) matrix (0 for a singular one).
WEFT_API Array det(const Array& a);

struct SlogdetResult {
  Array sign;       // -1, 0 or 1 (complex: det / |det|, or 0)
  Array logabsdet;  // log |det| (-inf for a singular matrix), real
};
/// sign and log |det| of each (..., M, M) matrix, without det's overflow.
WEFT_API SlogdetResult slogdet(const Array& a);

/// The Cholesky factor of each symmetric (complex: Hermitian) positive-definite (..., M, M)
/// matrix: lower triangular L with a = L L^H (upper: U with a = U^H U). Reads only that
/// triangle of a. LinAlgError("Matrix is not positive definite") otherwise.
WEFT_API Array cholesky(const Array& a, bool upper = false);

struct QRResult {
  Array Q;
  Array R;
};
/// a = Q R of each (..., M, N) matrix. mode "reduced" (Q: (..., M, K), R: (..., K, N) with
/// K = min(M, N)), "complete" (Q: (..., M, M), R: (..., M, N)) or "r" (R only; Q empty).
WEFT_API QRResult qr(const Array& a, const std::string& mode = "reduced");

struct SVDResult {
  Array U;
  Array S;
  Array Vh;
};
/// a = U diag(S) Vh of each (..., M, N) matrix, S descending. full_matrices: U (..., M, M)
/// and Vh (..., N, N); otherwise (..., M, K) and (..., K, N), K = min(M, N).
WEFT_API SVDResult svd(const Array& a, bool full_matrices = true);
/// The singular values alone (..., K), descending.
WEFT_API Array svdvals(const Array& a);

struct EighResult {
  Array eigenvalues;   // (..., M), ascending
  Array eigenvectors;  // (..., M, M), columns
};
/// Eigenvalues and eigenvectors of each symmetric (..., M, M) matrix, reading its lower
/// triangle (upper: its upper one).
WEFT_API EighResult eigh(const Array& a, bool upper = false);
/// The eigenvalues alone (..., M), ascending.
WEFT_API Array eigvalsh(const Array& a, bool upper = false);

}  // namespace linalg
}  // namespace weft
