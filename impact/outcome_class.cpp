#include "impact/outcome_class.hpp"

#include <algorithm>

namespace impactsim {

const char* outcome_class_name(OutcomeClass c) {
  switch (c) {
    case OutcomeClass::rest: return "rest";
    case OutcomeClass::stick: return "stick";
    case OutcomeClass::slide: return "slide";
    case OutcomeClass::lift: return "lift";
  }
  return "?";
}

OutcomeClass outcome_class(const ContactSpace& c, const Eigen::VectorXd& v, int i, double tol) {
  const double vn = c.J_n.row(i).dot(v);
  if (vn > tol) return OutcomeClass::lift;
  const double vt = (c.J_t.middleRows(i * c.tangent_dim, c.tangent_dim) * v).norm();
  if (vt > tol) return OutcomeClass::slide;
  return v.cwiseAbs().maxCoeff() <= tol ? OutcomeClass::rest : OutcomeClass::stick;
}

const char* sample_status_name(SampleStatus s) {
  switch (s) {
    case SampleStatus::accepted: return "accepted";
    case SampleStatus::collide: return "collide";
    case SampleStatus::failed: return "failed";
  }
  return "?";
}

SampleStatus sample_status(const ImpactResult& r) {
  if (!r.terminated) return SampleStatus::collide;
  return r.ok ? SampleStatus::accepted : SampleStatus::failed;
}

double outcome_tolerance(const ContactSpace& contacts, const Eigen::VectorXd& v_minus) {
  return 1e-6 * std::max(1.0, (contacts.J_n * v_minus).cwiseAbs().maxCoeff());
}

}  // namespace impactsim
