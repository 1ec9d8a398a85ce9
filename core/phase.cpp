#include "core/phase.hpp"

#include <algorithm>
#include <cmath>

#include "core/dynamics.hpp"

namespace impactsim {
namespace {

// phi of the near contacts through the broadphase at c.body.kin's poses, once they are known to
// keep the near set's promise (NearSetLeft if not).
void open_contact_phi(const System& sys, ContactData& c) {
  if (!c.broadphase.holds(c.near, c.body.kin.R, c.body.kin.p, 1.0)) throw NearSetLeft{};
  c.broadphase.update(sys.contacts, sys.contact.broadphase_margin, c.body.kin.R, c.body.kin.p, c.near, c.frames);
}

}  // namespace

// The contact stage for the phase's forces at (q, v) in d.scratch: body dynamics, then the frames,
// J and Jdot v of the closed contacts only (a pile has hundreds of pairs, a few dozen closed). With
// open_phi, first every contact's phi through the broadphase (exact near contact, a lower bound far
// away), for the open contacts' impact guards.
void closed_contact_data(const System& sys, LoopData& d, bool open_phi) {
  ContactData& c = d.contact;
  compute_body_dynamics(sys.model, d.scratch.q, d.scratch.v, c.body);
  if (open_phi) open_contact_phi(sys, c);
  compute_contact_frames(sys.contacts, c.body.kin, d.phase.closed_set, c.frames);
  compute_contact_jacobians(sys.model, sys.contacts, c.body.kin, c.frames, d.phase.closed_set, c.jac);
  compute_contact_jdot_v(sys.model, sys.contacts, c.body, c.frames, d.phase.closed_set, c.jac);
}

// The phase's rate at the state in d.scratch (q, v), once d.forces holds the mode's forces there:
// qdot = Gamma(q) v, vdot from the forces. dx has the state's size.
void phase_rate(const System& sys, const LoopData& d, Eigen::VectorXd& dx) {
  configuration_rate(sys.model, d.scratch.q, d.scratch.v, dx.data());
  dx.tail(sys.model.nv) = d.forces.vdot;
  zero_sleeping(d.contact.body.M_llt.blocks(), d.sleep, dx.tail(sys.model.nv));  // their forces were not solved
}

// The phase's ODE.
bool phase_rhs(const System& sys, LoopData& d, const Eigen::VectorXd& x, Eigen::VectorXd& dx) {
  d.scratch.q = x.head(sys.model.nq);
  d.scratch.v = x.tail(sys.model.nv);
  ContactData& c = d.contact;
  if (!d.phase.closed_set.empty()) closed_contact_data(sys, d, false);
  else compute_body_dynamics(sys.model, d.scratch.q, d.scratch.v, c.body);  // free flight needs no contact frames
  if (!constrained_acceleration(sys.contacts, sys.contact.baumgarte, c.body, c.frames, c.jac, d.phase.modes, d.forces,
                                &d.phase.closed_set))
    return false;
  d.phase.samples.note(sys.contacts, d.phase.guards, d.forces);
  phase_rate(sys, d, dx);
  return true;
}

// What the guards read at state x (see core/guards.hpp): phi through the broadphase, and while
// contacts are closed their exact frames and the mode's forces. Returns whether d.forces holds
// the mode's forces at x: false in free flight, and where they cannot be found.
bool guard_data_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x) {
  d.scratch.q = x.head(sys.model.nq);
  d.scratch.v = x.tail(sys.model.nv);
  d.scratch.q_reading = d.scratch.q;
  ContactData& c = d.contact;
  if (d.phase.closed_set.empty()) {
    update_kinematics(sys.model, d.scratch.q, c.body.kin);  // only phi is needed
    open_contact_phi(sys, c);
    return false;
  }
  closed_contact_data(sys, d, true);
  return constrained_acceleration(sys.contacts, sys.contact.baumgarte, c.body, c.frames, c.jac, d.phase.modes, d.forces,
                                  &d.phase.closed_set);
}

// What the guards that read no forces read at state x: guard_data_at_state's phi, frames and
// Jacobians, without the body dynamics and the mode's forces (d.forces is left as it was; the
// body's mass matrix and bias forces are those of an earlier reading until a full one).
void kinematic_guard_data_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x) {
  d.scratch.q = x.head(sys.model.nq);
  d.scratch.v = x.tail(sys.model.nv);
  d.scratch.q_reading = d.scratch.q;
  ContactData& c = d.contact;
  update_kinematics(sys.model, d.scratch.q, c.body.kin);
  open_contact_phi(sys, c);
  if (d.phase.closed_set.empty()) return;
  compute_contact_frames(sys.contacts, c.body.kin, d.phase.closed_set, c.frames);
  compute_contact_jacobians(sys.model, sys.contacts, c.body.kin, c.frames, d.phase.closed_set, c.jac);
}

void kinematic_guards_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x, Eigen::VectorXd& g) {
  kinematic_guard_data_at_state(sys, d, x);
  const ContactData& c = d.contact;
  evaluate_guards(sys.contacts, d.phase.modes, d.phase.guards, {c.body.kin, c.frames, c.jac, d.scratch.v, d.forces}, g,
                  false);
}

// The phase's guards from what guard_data_at_state left in d.
void evaluate_phase_guards(const System& sys, LoopData& d, Eigen::VectorXd& g) {
  const ContactData& c = d.contact;
  evaluate_guards(sys.contacts, d.phase.modes, d.phase.guards, {c.body.kin, c.frames, c.jac, d.scratch.v, d.forces}, g);
}

// The guards' values at state x.
void guards_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x, Eigen::VectorXd& g) {
  guard_data_at_state(sys, d, x);
  evaluate_phase_guards(sys, d, g);
}

// Guard k alone at state x, guards_at_state's g[k] to the bit: an impact guard of an ungated contact
// from the poses and its one phi (through the broadphase, as guards_at_state reads it), a guard
// that reads forces from every guard (they need the whole contact stage), any other from every
// guard read without forces.
double guard_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x, int k) {
  const Guard& guard = d.phase.guards[static_cast<size_t>(k)];
  if (reads_forces(guard.kind)) {
    guards_at_state(sys, d, x, d.scratch.g_one);
    return d.scratch.g_one[k];
  }
  if (guard.kind != GuardKind::impact || gated(sys.contacts, guard.contact)) {
    kinematic_guards_at_state(sys, d, x, d.scratch.g_one);
    return d.scratch.g_one[k];
  }
  d.scratch.q = x.head(sys.model.nq);
  Kinematics& kin = d.scratch.guard_kin;
  update_kinematics(sys.model, d.scratch.q, kin);
  const double phi = d.contact.broadphase.phi(sys.contacts, sys.contact.broadphase_margin, kin.R, kin.p, guard.contact);
  return phi - guard.floor;
}

// The deepest penetration so far, at the poses in kin (gated contacts pass through by design). A
// contact whose broadphase bound on phi is clear above it cannot lower it and is not measured; nor
// is one the near set leaves out while its promise holds (its bound is above the margin, and
// min_phi is never above 0).
void record_min_phi(const System& sys, const ContactData& c, const Kinematics& kin, RunStats& stats) {
  constexpr double kBoundSlack = 1e-9;  // [m] the bound's rounding, where it is phi's own formula (two spheres)
  const auto measure = [&](int i) {
    if (gated(sys.contacts, i) || c.broadphase.bound(sys.contacts, kin.R, kin.p, i) > stats.min_phi + kBoundSlack) return;
    stats.min_phi = std::min(stats.min_phi, sys.contacts.frame(kin.R, kin.p, i).phi);
  };
  if (c.broadphase.holds(c.near, kin.R, kin.p, 1.0)) {
    for (int i : c.near.contacts) measure(i);
  } else {
    for (int i = 0; i < sys.contacts.size(); ++i) measure(i);
  }
}

void emit(const System& sys, LoopData& d, const SampleSink& sink, double t, const Eigen::VectorXd& x) {
  if (!sink) return;
  d.scratch.q_out = x.head(sys.model.nq);
  d.scratch.v_out = x.tail(sys.model.nv);
  normalize_configuration(sys.model, d.scratch.q_out.data());
  update_kinematics(sys.model, d.scratch.q_out, d.scratch.row_kin);
  update_velocities(sys.model, d.scratch.q_out, d.scratch.v_out, d.scratch.row_kin);
  const Kinematics& kin = d.scratch.row_kin;
  const Sample row{t, d.scratch.q_out, d.scratch.v_out, kinetic_energy(sys.model, kin), potential_energy(sys.model, kin)};
  check_finite_row(row);
  sink(row);
  ++d.stats.samples;
  record_min_phi(sys, d.contact, d.scratch.row_kin, d.stats);
}

void track_penetration(const System& sys, LoopData& d, const Eigen::VectorXd& x) {
  d.scratch.q_out = x.head(sys.model.nq);
  update_kinematics(sys.model, d.scratch.q_out, d.scratch.row_kin);
  record_min_phi(sys, d.contact, d.scratch.row_kin, d.stats);
}

void mark_bounced(const System& sys, LoopData& d, const Kinematics& kin, const std::vector<ContactFrame>& frames,
                  const Eigen::VectorXd& x) {
  const auto starts_touching = [&](const Guard& g) {
    return g.kind == GuardKind::impact && std::abs(d.phase.phi_start[g.contact]) <= sys.contact.distance_tolerance;
  };
  std::vector<int>& need = d.scratch.need;  // ascending: guards come in contact order, one impact guard each
  need.clear();
  for (const Guard& g : d.phase.guards)
    if (starts_touching(g)) need.push_back(g.contact);
  if (need.empty()) return;
  ContactJacobians& jac = d.contact.jac;
  compute_contact_jacobians(sys.model, sys.contacts, kin, frames, need, jac);
  const auto v = x.tail(sys.model.nv);
  for (Guard& g : d.phase.guards)
    g.bounced = starts_touching(g) && jac.normal_velocity(g.contact, v) > sys.contact.velocity_tolerance;
}

}  // namespace impactsim
