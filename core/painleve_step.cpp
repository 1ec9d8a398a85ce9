#include "core/painleve_step.hpp"

#include "core/event_handling.hpp"
#include "impact/velocity_step.hpp"

namespace impactsim {
namespace {

constexpr int kHalvings = 20;  // 2^-20 ~ 1e-6 of the step asked for

// A contact open at the start (phi above the distance tolerance) that sinks deeper than the
// tolerance at q1: the step ran past its collision.
bool sinks(const System& sys, const std::vector<double>& phi0, const Eigen::VectorXd& q1, ContactData& data) {
  update_kinematics(sys.model, q1, data.body.kin);
  data.broadphase.update(sys.contacts, sys.contact.broadphase_margin, data.body.kin.R, data.body.kin.p, data.frames);
  for (int i = 0; i < sys.contacts.size(); ++i)
    if (phi0[i] > sys.contact.distance_tolerance && !gated(sys.contacts, i) &&
        data.frames[i].phi < -sys.contact.distance_tolerance)
      return true;
  return false;
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
  const ContactSpace space = contact_space(sys.contacts, sys.contact.friction_directions, data.body.M, data.jac, out.active);
  const Eigen::MatrixXd M = data.body.M;
  const Eigen::VectorXd C = data.body.C;
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
    if (!sinks(sys, phi0, out.q1, data)) break;
  }
  return out;
}

Event painleve_step_event(double t, const PainleveStep& step, const Eigen::VectorXd& v, const ContactData& data) {
  const Eigen::MatrixXd& M = data.body.M;
  return Event{.t = t, .kind = EventKind::step, .contacts = step.active, .law = "time-stepping",
               .kinetic_before = 0.5 * v.dot(M * v), .kinetic_after = 0.5 * step.v1.dot(M * step.v1),
               .impulse_n = std::vector<double>(step.impulse_n.data(), step.impulse_n.data() + step.impulse_n.size())};
}

}  // namespace impactsim
