// Linear algebra of weft.Array for Python: the matrix product by the BLAS libraries and
// weft::linalg's LAPACK routines; python/weft/linalg.py gives them the Array API's and
// NumPy's signatures and builds the rest (norms, pinv, matrix_rank, ...) on them.
#include <nanobind/stl/tuple.h>

#include <string>
#include <tuple>

#include "arrays.hpp"
#include "weft/linalg.hpp"

namespace weftpy {

void register_array_linalg(nb::module_& m) {
  m.def("_matmul", [](nb::handle a, nb::handle b) {
    return make_array(weft::matmul(need_array(a, "matmul"), need_array(b, "matmul")));
  });
  m.def("_matmul_library", [](const weft::Device& d) { return weft::matmul_library(d); });
  m.def("_solve", [](nb::handle a, nb::handle b) {
    return make_array(weft::linalg::solve(need_array(a, "solve"), need_array(b, "solve")));
  });
  m.def("_inv", [](nb::handle a) { return make_array(weft::linalg::inv(need_array(a, "inv"))); });
  m.def("_det", [](nb::handle a) { return make_array(weft::linalg::det(need_array(a, "det"))); });
  m.def("_slogdet", [](nb::handle a) {
    weft::linalg::SlogdetResult r = weft::linalg::slogdet(need_array(a, "slogdet"));
    return std::make_tuple(make_array(r.sign), make_array(r.logabsdet));
  });
  m.def("_cholesky", [](nb::handle a, bool upper) {
    return make_array(weft::linalg::cholesky(need_array(a, "cholesky"), upper));
  }, nb::arg("a"), nb::arg("upper") = false);
  m.def("_qr", [](nb::handle a, const std::string& mode) {
    weft::linalg::QRResult r = weft::linalg::qr(need_array(a, "qr"), mode);
    return std::make_tuple(r.Q ? MaybeArray(make_array(r.Q)) : MaybeArray(), make_array(r.R));
  }, nb::arg("a"), nb::arg("mode") = "reduced");
  m.def("_svd", [](nb::handle a, bool full_matrices) {
    weft::linalg::SVDResult r = weft::linalg::svd(need_array(a, "svd"), full_matrices);
    return std::make_tuple(make_array(r.U), make_array(r.S), make_array(r.Vh));
  }, nb::arg("a"), nb::arg("full_matrices") = true);
  m.def("_svdvals", [](nb::handle a) { return make_array(weft::linalg::svdvals(need_array(a, "svdvals"))); });
  m.def("_eigh", [](nb::handle a, bool upper) {
    weft::linalg::EighResult r = weft::linalg::eigh(need_array(a, "eigh"), upper);
    return std::make_tuple(make_array(r.eigenvalues), make_array(r.eigenvectors));
  }, nb::arg("a"), nb::arg("upper") = false);
  m.def("_eigvalsh", [](nb::handle a, bool upper) {
    return make_array(weft::linalg::eigvalsh(need_array(a, "eigvalsh"), upper));
  }, nb::arg("a"), nb::arg("upper") = false);
}

}  // namespace weftpy
