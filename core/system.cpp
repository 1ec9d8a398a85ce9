#include "core/system.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "collision/broadphase.hpp"
#include "core/drumwright.hpp"
#include "core/fixed_step.hpp"
#include "core/hybrid.hpp"
#include "core/time_stepping.hpp"
#include "impact/anitescu_potra.hpp"

namespace impactsim {

std::string_view integrator_name(Integrator integrator) {
  switch (integrator) {
    case Integrator::event_driven: return "event-driven";
    case Integrator::time_stepping: return "time-stepping";
    case Integrator::drumwright: return "drumwright";
  }
  return "?";
}

RunStats simulate(const System& system, const ImpactLaw& law, const State& initial, Rng& rng,
                  const RunCallbacks& callbacks) {
  if (const std::string problem = budget_problem(system); !problem.empty())
    throw SimulationError(0.0, StopReason::step_limit, problem);
  if (!initial.q.allFinite() || !initial.v.allFinite())
    throw SimulationError(0.0, StopReason::not_finite, "the initial state is not finite");
  if (const std::optional<Penetration> p = initial_penetration(system, initial.q))
    throw SimulationError(0.0, StopReason::initial_penetration,
                          "contact '" + system.contacts.contact(p->contact).name + "' starts " + format_time(p->depth) +
                              " m deep (more than " + format_time(kStartDepthTolerance) +
                              " simulation.contact.distance_tolerance); move the bodies apart");
  if (system.integrator != Integrator::event_driven) {
    const bool ts = system.integrator == Integrator::time_stepping;
    const double h = ts ? system.time_stepping.h : system.drumwright.h;
    if (const std::string why = explicit_damping_problem(system.model, initial.q, h); !why.empty())
      throw SimulationError(0.0, StopReason::unstable_step,
                            std::string(integrator_name(system.integrator)) + ": " + step_text(system.integrator, h) +
                                " " + why);
  }
  switch (system.integrator) {
    case Integrator::time_stepping: return simulate_time_stepping(system, initial, callbacks);
    case Integrator::drumwright: return simulate_drumwright(system, initial, callbacks);
    case Integrator::event_driven: break;
  }
  return simulate_hybrid(system, law, initial, rng, callbacks);
}

RunStats simulate_smooth(const Model& model, const SimulationSettings& settings, const State& initial,
                         const SampleSink& sink) {
  System system;
  system.model = model;
  system.simulation = settings;
  const AnitescuPotraLaw law;  // never called: nothing can touch
  Rng rng(0);
  RunCallbacks callbacks;
  callbacks.sample = sink;
  return simulate_hybrid(system, law, initial, rng, callbacks);
}

namespace {

// The frames at q of the contacts that can be within `margin` [m] (exact, as compute_contact_frames
// gives them), the broadphase's lower bound for the rest. Neither check below reads a contact
// farther off, and computing every one was most of the start of a large pile: a 100-body pile
// has 25,575 contacts, and a Jacobian of each filled 370 MB.
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
  if (system.integrator == Integrator::event_driven) return "";
  const double h = system.integrator == Integrator::time_stepping ? system.time_stepping.h : system.drumwright.h;
  const double steps = std::ceil(s.t_end / h - 1e-9);
  if (!(steps <= static_cast<double>(s.max_steps))) {
    std::snprintf(text, sizeof text, "t_end / h = %.3g steps of h = %g s, more than simulation.max_steps = %ld", steps,
                  h, s.max_steps);
    return text;
  }
  return "";
}

std::string describe_integrator(const System& system) {
  std::ostringstream s;
  switch (system.integrator) {
    case Integrator::time_stepping:
      s << "time-stepping (" << (system.time_stepping.alpha == 1 ? "anitescu-potra" : "trapezoidal")
        << ", h = " << system.time_stepping.h << " s)";
      break;
    case Integrator::drumwright: {
      const DrumwrightSettings& d = system.drumwright;
      s << "drumwright (" << (d.problem == SoftProblem::lcp ? "lcp" : "min-norm-qp");
      if (!system.model.planar) s << (d.cone == FrictionConeKind::circular ? ", circular cone" : ", polyhedral cone");
      s << ", h = " << d.h << " s)";
      break;
    }
    case Integrator::event_driven: s << "event-driven"; break;
  }
  return s.str();
}

}  // namespace impactsim
