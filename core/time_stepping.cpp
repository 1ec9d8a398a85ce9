#include "core/time_stepping.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/integrators.hpp"
#include "core/velocity_step.hpp"

namespace impactsim {
namespace {

// A step's vectors, kept between steps so the loop does not allocate.
struct StepVectors {
  Eigen::VectorXd q1, v1, k0, k1, b, qdot0, qdot1, qm, vm;
};

// The velocity-step LCP over the contacts `set` at (q, v) with right-hand side b; its Jacobians
// are computed from the frames in scratch.contact.
VelocityStep solve(const System& sys, FixedStepRun& run, FixedStepScratch& scratch, const std::vector<int>& set,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& b) {
  ContactData& c = scratch.contact;
  compute_contact_jacobians(sys.model, sys.contacts, c.body.kin, c.frames, contact_flags(sys.contacts.size(), set), c.jac);
  const ContactSpace space = contact_space(sys.contacts, sys.contact, c.body, c.jac, set);
  Eigen::MatrixXd nu(0, sys.model.nv);
  if (!sys.pins.empty()) {
    update_pins(sys, q, v, scratch, run.stats);
    nu = scratch.pins.G;
  }
  VelocityStep s = solve_velocity_step(space, nu, b);
  ++run.stats.solves;
  run.stats.max_residual = std::max(run.stats.max_residual, s.residual);
  if (!s.ok) throw SimulationError(run.t, StopReason::step_problem_failed, "time-stepping at t = " + format_time(run.t) + " s: " + s.diagnostic);
  return s;
}

// q on the cubic Hermite interpolant of the step at fraction s.
void hermite(const Model& model, const FixedStepRun& run, const StepVectors& w, double s, double hs,
             Eigen::VectorXd& out) {
  const double s2 = s * s, s3 = s2 * s;
  out = (2 * s3 - 3 * s2 + 1) * run.q + (s3 - 2 * s2 + s) * hs * w.qdot0 + (-2 * s3 + 3 * s2) * w.q1 +
        (s3 - s2) * hs * w.qdot1;
  normalize_configuration(model, out.data());
}

// Every contact's phi at configuration q into c.frames (exact within the broadphase's margin).
void phi_at(const System& sys, const Eigen::VectorXd& q, ContactData& c) {
  update_kinematics(sys.model, q, c.body.kin);
  c.broadphase.update(sys.contacts, sys.contact.broadphase_margin, c.body.kin.R, c.body.kin.p, c.frames);
}

// Contact i's phi at configuration q: phi_at's value for it (Broadphase::phi gives update's bits)
// at the cost of one contact, for the bisection below (a row of 100 balls has 201 contacts).
double phi_of(const System& sys, const Eigen::VectorXd& q, ContactData& c, int i) {
  update_kinematics(sys.model, q, c.body.kin);
  return c.broadphase.phi(sys.contacts, sys.contact.broadphase_margin, c.body.kin.R, c.body.kin.p, i);
}

// If an inactive contact closes within the step, resolves the collision and restarts there.
bool collide(const System& sys, const FixedStepIO& io, FixedStepRun& run, FixedStepScratch& scratch, StepVectors& w,
             const std::vector<int>& active, double hs) {
  if (sys.contacts.size() == 0) return false;
  ContactData& c = scratch.contact;
  phi_at(sys, w.q1, c);
  std::vector<int> hits;
  for (int i = 0; i < sys.contacts.size(); ++i)
    if (c.frames[i].phi <= 0 && std::find(active.begin(), active.end(), i) == active.end()) hits.push_back(i);
  if (hits.empty()) return false;
  w.qdot0.resize(sys.model.nq);
  w.qdot1.resize(sys.model.nq);
  configuration_rate(sys.model, run.q, run.v, w.qdot0.data());
  configuration_rate(sys.model, w.q1, w.v1, w.qdot1.data());
  // The earliest root over the hits, by bisection on the interpolant; it ends on phi <= 0.
  double s_star = 1.0;
  int first = hits.front();
  for (int i : hits) {
    double lo = 0.0, hi = 1.0;
    for (int it = 0; it < 60 && hi - lo > 1e-14; ++it) {
      const double mid = 0.5 * (lo + hi);
      hermite(sys.model, run, w, mid, hs, w.qm);
      (phi_of(sys, w.qm, c, i) <= 0 ? hi : lo) = mid;
    }
    if (hi < s_star) {
      s_star = hi;
      first = i;
    }
  }
  hermite(sys.model, run, w, s_star, hs, w.qm);
  w.vm = run.v + s_star * (w.v1 - run.v);
  const double t_star = run.t + s_star * hs;
  compute_body_dynamics(sys.model, w.qm, w.vm, c.body);
  compute_contact_frames(sys.contacts, c.body.kin, c.frames);
  std::vector<int> set = touching(c.frames, std::max(sys.time_stepping.active_epsilon, 0.0), run.stats);
  if (std::find(set.begin(), set.end(), first) == set.end()) set.push_back(first);
  std::sort(set.begin(), set.end());
  const Eigen::VectorXd M_vm = c.body.M * w.vm;
  const VelocityStep s = solve(sys, run, scratch, set, w.qm, w.vm, M_vm);
  if (io.callbacks.event) {
    Event e{.t = t_star, .kind = EventKind::impact, .contacts = set, .law = "time-stepping",
            .kinetic_before = 0.5 * w.vm.dot(c.body.M * w.vm), .kinetic_after = 0.5 * s.y.dot(c.body.M * s.y),
            .impulse_n = std::vector<double>(s.c_n.data(), s.c_n.data() + s.c_n.size())};
    for (int i : set) e.normal_velocity_after.push_back(c.jac.normal_velocity(i, s.y));
    io.callbacks.event(e);
  }
  ++run.stats.impacts;
  w.v1 = s.y;
  finish_step(sys, io, run, t_star, w.qm, w.v1, s.y);
  return true;
}

void step(const System& sys, const FixedStepIO& io, FixedStepRun& run, FixedStepScratch& scratch, StepVectors& w,
          double hs) {
  const double alpha = sys.time_stepping.alpha;
  ContactData& c = scratch.contact;
  compute_body_dynamics(sys.model, run.q, run.v, c.body);
  compute_contact_frames(sys.contacts, c.body.kin, c.frames);
  const std::vector<int> active = touching(c.frames, sys.time_stepping.active_epsilon, run.stats);
  applied_forces(io, run, c.body, run.t, scratch.tau, w.k0);
  applied_forces(io, run, c.body, run.t + hs, scratch.tau, w.k1);
  w.b = c.body.M * run.v + alpha * hs * ((1 - alpha) * w.k0 + alpha * w.k1);
  const VelocityStep s = solve(sys, run, scratch, active, run.q, run.v, w.b);
  w.v1 = (s.y - (1 - alpha) * run.v) / alpha;
  integrate_configuration(sys.model, run.q, s.y, hs, w.q1);
  if (collide(sys, io, run, scratch, w, active, hs)) return;
  finish_step(sys, io, run, run.t + hs, w.q1, w.v1, s.y);
}

}  // namespace

RunStats simulate_time_stepping(const System& system, const State& initial, const RunCallbacks& callbacks,
                                const StepSink& steps, const ExternalForce& force) {
  const FixedStepIO io{callbacks, steps, force};
  FixedStepScratch scratch(system);
  StepVectors w;
  return run_fixed_steps(system, initial, system.time_stepping.h, io, Integrator::time_stepping,
                         [&](FixedStepRun& run, double hs) { step(system, io, run, scratch, w, hs); });
}

}  // namespace impactsim

namespace impactsim {
namespace {

std::vector<SettingSpec> time_stepping_settings() {
  const TimeSteppingSettings d;
  return {choice_setting("scheme", {"anitescu-potra", "trapezoidal"}, "alpha = gamma = 1, or alpha = gamma = 1/2"),
          number_setting("h", SettingKind::positive, d.h, "0.001", "the step, s (`--step` overrides it)"),
          number_setting("active_epsilon", SettingKind::non_negative, d.active_epsilon, "0",
                         "m; contacts with phi(q^l) at most this are in a step's LCP")};
}

const char* scheme_name(const TimeSteppingSettings& s) { return s.alpha == 1 ? "anitescu-potra" : "trapezoidal"; }

}  // namespace

const IntegratorDescriptor& time_stepping_integrator() {
  static const IntegratorDescriptor integrator{
      .kind = Integrator::time_stepping,
      .name = "time-stepping",
      .summary = "the Gavrea-Anitescu-Potra semi-implicit schemes: one velocity-level LCP per fixed step",
      .section = "time_stepping",
      .settings = time_stepping_settings(),
      .uses_law = false,
      .apply =
          [](const Settings& s, System& sys) {
            sys.time_stepping.alpha = s.word("scheme") == "trapezoidal" ? 0.5 : 1.0;
            sys.time_stepping.h = s.number("h");
            sys.time_stepping.active_epsilon = s.number("active_epsilon");
            return SettingProblem{};
          },
      .values =
          [](const System& sys) {
            Settings s(time_stepping_settings());
            s.set("scheme", std::string(scheme_name(sys.time_stepping)));
            s.set("h", sys.time_stepping.h);
            s.set("active_epsilon", sys.time_stepping.active_epsilon);
            return s;
          },
      .describe =
          [](const System& sys) {
            std::ostringstream s;
            s << "time-stepping (" << scheme_name(sys.time_stepping) << ", h = " << sys.time_stepping.h << " s)";
            return s.str();
          },
      .step = [](const System& sys) { return sys.time_stepping.h; },
      .run = [](const System& sys, const ImpactLaw&, const State& initial, Rng&,
                const RunCallbacks& callbacks) { return simulate_time_stepping(sys, initial, callbacks); }};
  return integrator;
}

}  // namespace impactsim
