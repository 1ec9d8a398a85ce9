// impactsim._impactsim: the compiled half of the Python package (python/impactsim/ is the other,
// which wraps these functions with documented signatures and result classes).
#include "python/bindings.hpp"

PYBIND11_MODULE(_impactsim, m) {
  m.doc() = "impactsim's library bound for Python; import impactsim, not this module.";
  impactsim::python::register_exceptions(m);
  impactsim::python::bind_scene(m);
  impactsim::python::bind_run(m);
  impactsim::python::bind_laws(m);
  impactsim::python::bind_batch(m);
  impactsim::python::bind_lcp(m);
}
