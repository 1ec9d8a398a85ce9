#include "core/system.hpp"

#include <cmath>
#include <cstdio>

#include "collision/broadphase.hpp"
#include "core/integrators.hpp"

namespace impactsim {

namespace {

// The frames at q of the contacts that can be within `margin` [m] (exact, as compute_contact_frames
// gives them), the broadphase's lower bound for the rest. Neither check below reads a contact
// farther off, and computing every one would make the start of a large pile quadratic in its
// bodies, in time and memory.
std::vector<ContactFrame> frames_within(const System& system, const Kinematics& kin, double margin) {
  std::vector<ContactFrame> frames(static_cast<size_t>(system.contacts.size()));
  Broadphase(system.contacts).update(system.contacts, margin, kin.R, kin.p, frames);
  return frames;
}

}  // namespace

std::vector<bool> closed_contacts(const System& system, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Kinematics kin(system.model);
  update_kinematics(system.model, q, kin);
  const double tolerance = system.contact.distance_tolerance;
  const std::vector<ContactFrame> frames = frames_within(system, kin, tolerance);
  Eigen::MatrixXd rows(1 + system.contacts.tangent_dim(), system.model.nv);
  std::vector<bool> closed(system.contacts.size());
  for (int i = 0; i < system.contacts.size(); ++i) {
    if (!(frames[i].phi <= tolerance)) continue;
    contact_jacobian(system.model, kin, system.contacts, i, frames[i], rows);
    closed[i] = std::abs(rows.row(0).dot(v)) <= 1e-6 * std::max(1.0, v.cwiseAbs().maxCoeff());
  }
  return closed;
}

std::optional<Penetration> initial_penetration(const System& system, const Eigen::VectorXd& q) {
  if (system.contacts.size() == 0) return std::nullopt;
  Kinematics kin(system.model);
  update_kinematics(system.model, q, kin);
  const std::vector<ContactFrame> frames = frames_within(system, kin, 0.0);  // a bound above 0 cannot penetrate
  std::optional<Penetration> deepest;
  for (int i = 0; i < system.contacts.size(); ++i) {
    const double depth = -frames[i].phi;
    if (system.contacts.contact(i).only_ahead_of >= 0 || !(depth > kStartDepthTolerance * system.contact.distance_tolerance))
      continue;
    if (!deepest || depth > deepest->depth) deepest = Penetration{i, depth};
  }
  return deepest;
}

std::string budget_problem(const System& system) {
  const SimulationSettings& s = system.simulation;
  char text[256];
  const double rows = s.t_end / s.output_interval + 1;
  if (rows > static_cast<double>(kMaxOutputRows)) {
    std::snprintf(text, sizeof text,
                  "t_end / output_interval = %.3g output rows, more than %ld; raise simulation.output_interval or shorten t_end", rows,
                  kMaxOutputRows);
    return text;
  }
  const double h = integrator_descriptor(system.integrator).step(system);
  if (h == 0) return "";
  const double steps = std::ceil(s.t_end / h - 1e-9);
  if (!(steps <= static_cast<double>(s.max_steps))) {
    std::snprintf(text, sizeof text, "t_end / h = %.3g steps of h = %g s, more than simulation.max_steps = %ld", steps,
                  h, s.max_steps);
    return text;
  }
  return "";
}

}  // namespace impactsim
