#include "core/painleve_step.hpp"

#include "core/event_handling.hpp"
#include "core/velocity_step.hpp"

namespace impactsim {
namespace {

constexpr int kHalvings = 20;  // 2^-20 ~ 1e-6 of the step asked for

// The contact that sinks deepest at q1, deeper than the distance tolerance and deeper than it was
// at the start (phi0), or -1: an open one ran past its collision, or a touching one left its
// first-order gap J_n y >= 0 far behind (a state without precision, an angle of 1e308 degrees).
int sinking(const System& sys, const std::vector<double>& phi0, const Eigen::VectorXd& q1, ContactData& data) {
  update_kinematics(sys.model, q1, data.body.kin);
  data.broadphase.update(sys.contacts, sys.contact.broadphase_margin, data.body.kin.R, data.body.kin.p, data.frames);
  int deepest = -1;
  for (int i = 0; i < sys.contacts.size(); ++i) {
    const double phi = data.frames[i].phi;
    if (gated(sys.contacts, i) || phi >= -sys.contact.distance_tolerance || phi >= phi0[i]) continue;
    if (deepest < 0 || phi < data.frames[deepest].phi) deepest = i;
  }
  return deepest;
}

}  // namespace

PainleveStep painleve_step(const System& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double h,
                           ContactData& data) {
  PainleveStep out;
  compute_body_dynamics(sys.model, q, v, data.body);
  compute_contact_frames(sys.contacts, data.body.kin, data.frames);
  const std::vector<bool> touch = touching(sys, ContactModes::all_open(sys.contacts.size()), data, {});
  compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, touch, data.jac);
  std::vector<double> phi0(sys.contacts.size());
  for (int i = 0; i < sys.contacts.size(); ++i) {
    phi0[i] = data.frames[i].phi;
    if (touch[i]) out.active.push_back(i);
  }
  const ContactSpace space = contact_space(sys.contacts, sys.contact, data.body, data.jac, out.active);
  // The gap checks below move data.body.kin and data.frames only: M and C stay those at q.
  const Eigen::MatrixXd& M = data.body.M;
  const Eigen::VectorXd& C = data.body.C;
  const Eigen::MatrixXd no_joints(0, sys.model.nv);
  for (int halving = 0; halving <= kHalvings; ++halving, h *= 0.5) {
    const VelocityStep s = solve_velocity_step(space, no_joints, M * v - h * C);
    if (!s.ok) {
      out.ok = false;
      out.diagnostic = s.diagnostic;
      return out;
    }
    out.h = h;
    out.v1 = s.y;
    out.impulse_n = s.c_n;
    integrate_configuration(sys.model, q, s.y, h, out.q1);
    normalize_configuration(sys.model, out.q1.data());
    const int sunk = sinking(sys, phi0, out.q1, data);
    if (sunk < 0) return out;
    if (halving == kHalvings) {
      out.ok = false;
      out.diagnostic = "even a step of " + format_time(h) + " s sinks contact '" + sys.contacts.contact(sunk).name + "' to phi = " +
                       format_time(data.frames[sunk].phi) + " m";
    }
  }
  return out;
}

Event painleve_step_event(double t, const PainleveStep& step, const Eigen::VectorXd& v, const ContactData& data) {
  return Event{.t = t, .kind = EventKind::step, .contacts = step.active, .law = "time-stepping",
               .kinetic_before = kinetic_energy(data.body, v), .kinetic_after = kinetic_energy(data.body, step.v1),
               .impulse_n = std::vector<double>(step.impulse_n.data(), step.impulse_n.data() + step.impulse_n.size())};
}

}  // namespace impactsim
