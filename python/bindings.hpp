#pragma once
// The pieces of the Python module impactsim._impactsim (python/module.cpp), one file per part of
// the package: scenes, runs, samples and laws, batches, the LCP solver. What they share: numpy
// arrays checked at the boundary, the GIL released around long calls with Ctrl-C caught there, and
// the package's own exception classes (impactsim/__init__.py defines them).
//
// Arrays cross the boundary as float64 copies: numpy in, Eigen inside, numpy out. Shapes follow
// the library's conventions (impact/impact_law.hpp): M is nv x nv, J_n is m x nv, J_t is
// (m * tangent_dim) x nv, contact i's tangent rows i * tangent_dim ...; v in m/s and rad/s,
// impulses in N s, energies in J.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace impactsim::python {

namespace py = pybind11;

void bind_scene(py::module_& m);
void bind_run(py::module_& m);
void bind_laws(py::module_& m);
void bind_batch(py::module_& m);
void bind_lcp(py::module_& m);

// Translates the library's exceptions: SceneError to impactsim.SceneError (file, line, column,
// key), SimulationError to impactsim.SimulationError, std::invalid_argument to ValueError.
void register_exceptions(py::module_& m);

// Raises impactsim.<name> (an exception class of the package) with `message`, setting its
// attributes from `attributes` (a dict).
[[noreturn]] void raise_package_error(const char* name, const std::string& message, const py::dict& attributes);

// A float64 array as an Eigen matrix or vector. ValueError naming `what` for a wrong shape (rows
// or cols < 0: any) or a non-finite entry.
Eigen::MatrixXd to_matrix(const py::handle& array, const char* what, long rows = -1, long cols = -1);
Eigen::VectorXd to_vector(const py::handle& array, const char* what, long size = -1);

// Copies into new numpy arrays.
py::array_t<double> to_array(const Eigen::MatrixXd& m);
py::array_t<double> to_array(const Eigen::VectorXd& v);
py::array_t<double> to_array(const std::vector<double>& v);

// Runs `work` with the GIL released and SIGINT, SIGTERM and SIGHUP recorded instead of acted on
// (app/interrupt.hpp: the library's loops look at caught_signal() and stop early). After it, a
// caught SIGINT raises KeyboardInterrupt; SIGTERM and SIGHUP are raised again under Python's own
// handlers. Nested calls (a Python callback calling impactsim) leave the outer watch in place.
void without_gil(const std::function<void()>& work);

// True once a signal was caught during without_gil's work: long loops end early.
bool interrupted();

// Runs `callback` with the GIL held from inside without_gil's work; the first Python exception it
// raises is kept (later callbacks are skipped) and raised again when without_gil returns.
class PythonCallback {
 public:
  explicit PythonCallback(py::object callback) : callback_(std::move(callback)) {}
  bool empty() const { return callback_.is_none(); }
  bool failed() const { return static_cast<bool>(error_); }
  // Calls the callback with the argument made by `make` (under the GIL).
  void call(const std::function<py::object()>& make);
  // Raises the kept exception, if any (GIL held).
  void rethrow();

 private:
  py::object callback_;
  std::shared_ptr<py::error_already_set> error_;
};

}  // namespace impactsim::python
