// The LCP solver from Python: find z >= 0 with w = W z + q >= 0 and z . w = 0 (Lemke's method with
// its fallbacks, numerics/lcp.hpp), or every solution at a complementary basis of a small problem.
#include <pybind11/stl.h>

#include "numerics/lcp.hpp"
#include "python/bindings.hpp"

namespace impactsim::python {
namespace {

Eigen::MatrixXd square(const py::handle& W, const py::handle& q, Eigen::VectorXd& w) {
  Eigen::MatrixXd m = to_matrix(W, "W");
  if (m.rows() != m.cols()) throw py::value_error("W: must be square, got " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()));
  w = to_vector(q, "q", m.rows());
  return m;
}

const char* method_name(LcpSolution::Method m) {
  switch (m) {
    case LcpSolution::Method::lemke: return "lemke";
    case LcpSolution::Method::enumeration: return "enumeration";
    case LcpSolution::Method::proximal: return "proximal";
    case LcpSolution::Method::support: return "support";
  }
  return "";
}

py::dict solve(const py::handle& W_in, const py::handle& q_in, double pivot_tolerance, double accept_tolerance,
               int max_pivots) {
  Eigen::VectorXd q;
  const Eigen::MatrixXd W = square(W_in, q_in, q);
  const LcpOptions options{pivot_tolerance, accept_tolerance, max_pivots};
  LcpSolution s;
  without_gil([&] { s = solve_lemke(W, q, options); });
  py::dict d;
  d["z"] = to_array(s.z);
  d["w"] = to_array(s.slack);
  d["ok"] = s.ok();
  d["status"] = describe(s.status);
  d["method"] = method_name(s.method);
  d["pivots"] = s.pivots;
  d["residual"] = s.residual;
  return d;
}

py::list all_solutions(const py::handle& W_in, const py::handle& q_in, double tolerance) {
  Eigen::VectorXd q;
  const Eigen::MatrixXd W = square(W_in, q_in, q);
  if (W.rows() > kMaxEnumeration)
    throw py::value_error("W: " + std::to_string(W.rows()) + " rows; every solution is enumerated up to " +
                          std::to_string(kMaxEnumeration));
  std::vector<Eigen::VectorXd> all;
  without_gil([&] { all = enumerate_lcp_solutions(W, q, tolerance); });
  py::list out;
  for (const Eigen::VectorXd& z : all) out.append(to_array(z));
  return out;
}

}  // namespace

void bind_lcp(py::module_& m) {
  m.def("lcp_solve", solve, py::arg("W"), py::arg("q"), py::arg("pivot_tolerance"), py::arg("accept_tolerance"),
        py::arg("max_pivots"));
  m.def("lcp_all_solutions", all_solutions, py::arg("W"), py::arg("q"), py::arg("tolerance"));
}

}  // namespace impactsim::python
