// What crosses between Python and the library: arrays checked on the way in, exceptions translated
// on the way out, the GIL released around long calls with signals caught there.
#include <csignal>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "app/interrupt.hpp"
#include "core/state.hpp"
#include "python/bindings.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim::python {
namespace {

// Depth of without_gil calls (read and written with the GIL held).
int g_depth = 0;

void set_package_error(const char* name, const std::string& message, const py::dict& attributes) {
  const py::object type = py::module_::import("impactsim").attr(name);
  py::object error = type(message);
  for (const auto& item : attributes) py::setattr(error, item.first, item.second);
  PyErr_SetObject(type.ptr(), error.ptr());
}

py::dict scene_error_attributes(const SceneError& e) {
  py::dict d;
  d["file"] = e.file();
  d["line"] = e.line();
  d["column"] = e.column();
  d["key"] = e.key();
  d["detail"] = e.message();
  return d;
}

std::string shape_text(long rows, long cols) {
  auto one = [](long n) { return n < 0 ? std::string("any") : std::to_string(n); };
  return "(" + one(rows) + (cols == -2 ? "" : ", " + one(cols)) + ")";
}

// A numpy float64 view of any array-like (lists included); ValueError naming `what` if it is none.
py::array_t<double, py::array::c_style | py::array::forcecast> as_float_array(const py::handle& h, const char* what) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(h);
  if (!a) throw py::value_error(std::string(what) + ": not an array of numbers");
  return a;
}

void check_finite(const double* data, long size, long cols, const char* what) {
  for (long k = 0; k < size; ++k)
    if (!std::isfinite(data[k])) {
      std::ostringstream s;
      s << what << ": entry ";
      if (cols > 0) s << "[" << k / cols << ", " << k % cols << "]";
      else s << "[" << k << "]";
      s << " is " << data[k] << ", not a finite number";
      throw py::value_error(s.str());
    }
}

}  // namespace

void raise_package_error(const char* name, const std::string& message, const py::dict& attributes) {
  set_package_error(name, message, attributes);
  throw py::error_already_set();
}

void register_exceptions(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SceneError& e) {
      set_package_error("SceneError", e.what(), scene_error_attributes(e));
    } catch (const SimulationError& e) {
      py::dict d;
      d["time"] = e.time();
      d["reason"] = std::string(stop_reason_code(e.reason()));
      set_package_error("SimulationError", e.what(), d);
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
}

Eigen::MatrixXd to_matrix(const py::handle& array, const char* what, long rows, long cols) {
  const auto a = as_float_array(array, what);
  if (a.ndim() != 2 || (rows >= 0 && a.shape(0) != rows) || (cols >= 0 && a.shape(1) != cols)) {
    std::ostringstream s;
    s << what << ": expected shape " << shape_text(rows, cols) << ", got (";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) s << (k ? ", " : "") << a.shape(k);
    throw py::value_error(s.str() + ")");
  }
  check_finite(a.data(), static_cast<long>(a.size()), static_cast<long>(a.shape(1)), what);
  Eigen::MatrixXd m(a.shape(0), a.shape(1));
  for (long i = 0; i < m.rows(); ++i)
    for (long j = 0; j < m.cols(); ++j) m(i, j) = *a.data(i, j);
  return m;
}

Eigen::VectorXd to_vector(const py::handle& array, const char* what, long size) {
  const auto a = as_float_array(array, what);
  if (a.ndim() != 1 || (size >= 0 && a.shape(0) != size)) {
    std::ostringstream s;
    s << what << ": expected shape " << shape_text(size, -2) << ", got (";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) s << (k ? ", " : "") << a.shape(k);
    throw py::value_error(s.str() + ")");
  }
  check_finite(a.data(), static_cast<long>(a.size()), 0, what);
  return Eigen::Map<const Eigen::VectorXd>(a.data(), a.shape(0));
}

py::array_t<double> to_array(const Eigen::MatrixXd& m) {
  py::array_t<double> a({m.rows(), m.cols()});
  auto r = a.mutable_unchecked<2>();
  for (long i = 0; i < m.rows(); ++i)
    for (long j = 0; j < m.cols(); ++j) r(i, j) = m(i, j);
  return a;
}

py::array_t<double> to_array(const Eigen::VectorXd& v) {
  py::array_t<double> a(v.size());
  std::copy(v.data(), v.data() + v.size(), a.mutable_data());
  return a;
}

py::array_t<double> to_array(const std::vector<double>& v) {
  return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data());
}

void without_gil(const std::function<void()>& work) {
  if (g_depth > 0) {  // a callback's call: the outer watch records signals
    py::gil_scoped_release release;
    work();
    return;
  }
  std::exception_ptr error;
  int signal = 0;
  ++g_depth;
  {
    const InterruptWatch watch;
    {
      py::gil_scoped_release release;
      try {
        work();
      } catch (...) {
        error = std::current_exception();
      }
    }
    signal = caught_signal();
  }
  --g_depth;
  if (signal == SIGINT) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  if (signal != 0) {
    std::raise(signal);  // under Python's handlers again
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  if (error) std::rethrow_exception(error);
}

bool interrupted() { return caught_signal() != 0; }

void PythonCallback::call(const std::function<py::object()>& make) {
  if (empty() || failed()) return;
  py::gil_scoped_acquire gil;
  try {
    callback_(make());
  } catch (py::error_already_set& e) {
    error_ = std::make_shared<py::error_already_set>(std::move(e));
  }
}

void PythonCallback::rethrow() {
  if (!error_) return;
  const std::shared_ptr<py::error_already_set> e = std::move(error_);
  throw *e;
}

}  // namespace impactsim::python
