#include "core/drumwright.hpp"

#include <sstream>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "core/integrators.hpp"
#include "core/soft_constraints.hpp"
#include "numerics/solve_columns.hpp"

namespace impactsim {
namespace {

// The constraint rows of one step: G, phi, Gdot v0 and each row's K and B.
struct SoftRows {
  Eigen::MatrixXd G;
  Eigen::VectorXd phi, gdot_v, K, B;
};

// A step's other vectors, kept between steps so the loop does not allocate.
struct DrumwrightVectors {
  Eigen::VectorXd q1, v1, f, a;
  Eigen::MatrixXd Minv_GT;
  Eigen::LLT<Eigen::MatrixXd> M_llt;
};

// The rows at the run's (q, v): pins, then the touching contacts; and the problem's row layout.
void assemble(const System& sys, FixedStepRun& run, FixedStepScratch& scratch, SoftRows& rows,
              SoftConstraintProblem& p) {
  const DrumwrightSettings& d = sys.drumwright;
  const int td = sys.contacts.tangent_dim();
  ContactData& c = scratch.contact;
  const std::vector<int> in = touching(c.frames, sys.contact.distance_tolerance, run.stats);
  const std::vector<bool> need = contact_flags(sys.contacts.size(), in);
  compute_contact_jacobians(sys.model, sys.contacts, c.body.kin, c.frames, need, c.jac);
  compute_contact_jdot_v(sys.model, sys.contacts, c.body, c.frames, need, c.jac);
  int n_rows = 0;
  if (!sys.pins.empty()) {
    update_pins(sys, run.q, run.v, scratch, run.stats);
    n_rows = static_cast<int>(scratch.pins.phi.size());
  }
  for (int i : in) n_rows += 1 + (sys.contacts.contact(i).mu > 0 ? td : 0);
  rows.G.setZero(n_rows, sys.model.nv);
  rows.phi.setZero(n_rows);
  rows.gdot_v.setZero(n_rows);
  rows.K.setZero(n_rows);
  rows.B.setZero(n_rows);
  p.bilateral.clear();
  p.contacts.clear();
  p.tangent_dim = td;
  int r = 0;
  for (; r < static_cast<int>(scratch.pins.phi.size()) && !sys.pins.empty(); ++r) {
    rows.G.row(r) = scratch.pins.G.row(r);
    rows.phi(r) = scratch.pins.phi(r);
    rows.gdot_v(r) = scratch.pins.Gdot_v(r);
    rows.K(r) = d.K_pin;
    rows.B(r) = d.B_pin;
    p.bilateral.push_back(r);
  }
  for (int i : in) {
    const double mu = sys.contacts.contact(i).mu;
    p.contacts.push_back(SoftContactRows{r, mu > 0 ? r + 1 : -1, mu});
    const int n = mu > 0 ? 1 + td : 1;
    rows.G.middleRows(r, n) = c.jac.of(i).topRows(n);
    rows.gdot_v.segment(r, n) = c.jac.jdot_v_of(i).head(n);
    rows.phi(r) = std::min(c.frames[i].phi, 0.0);
    rows.K(r) = d.K_n;
    rows.B(r) = d.B_n;
    rows.B.segment(r + 1, n - 1).setConstant(d.tangent_damping());
    r += n;
  }
}

void step(const System& sys, const FixedStepIO& io, FixedStepRun& run, FixedStepScratch& scratch, SoftRows& rows,
          DrumwrightVectors& w, double hs) {
  const DrumwrightSettings& d = sys.drumwright;
  ContactData& c = scratch.contact;
  compute_body_dynamics(sys.model, run.q, run.v, c.body);
  compute_contact_frames(sys.contacts, c.body.kin, c.frames);
  SoftConstraintProblem p;
  assemble(sys, run, scratch, rows, p);
  applied_forces(io, run, c.body, run.t, scratch.tau, w.f);
  w.M_llt.compute(c.body.M);
  if (w.M_llt.info() != Eigen::Success) throw SimulationError(run.t, StopReason::singular_mass, "drumwright: the mass matrix is singular");
  w.a = w.M_llt.solve(w.f);
  w.Minv_GT = solve_columns(w.M_llt, rows.G.transpose());
  p.S = rows.G * w.Minv_GT;
  const Eigen::VectorXd phidot = rows.G * run.v;
  p.r = -rows.K.cwiseProduct(rows.phi) -
        (hs * rows.K + rows.B).cwiseProduct(phidot + hs * (rows.G * w.a) + hs * rows.gdot_v);
  if (d.gdot_term && p.r.size() > 0) p.r -= p.S.completeOrthogonalDecomposition().solve(rows.gdot_v);
  p.W = hs * hs * rows.K + hs * rows.B;
  SoftSolverOptions options;
  options.problem = d.problem;
  options.cone = d.cone;
  options.friction_directions = d.friction_directions;
  options.zeta = d.zeta > 0 ? d.zeta : 1.0 / hs;
  const SoftSolution s = solve_soft_constraints(p, options);
  if (p.r.size() > 0) {
    ++run.stats.solves;
    run.stats.max_residual = std::max(run.stats.max_residual, s.residual);
  }
  if (!s.ok) throw SimulationError(run.t, StopReason::step_problem_failed, "drumwright at t = " + format_time(run.t) + " s: " + s.diagnostic);
  w.v1 = run.v + hs * (w.Minv_GT * s.lambda + w.a);
  integrate_configuration(sys.model, run.q, w.v1, hs, w.q1);
  finish_step(sys, io, run, run.t + hs, w.q1, w.v1, w.v1);
}

}  // namespace

RunStats simulate_drumwright(const System& system, const State& initial, const RunCallbacks& callbacks,
                             const StepSink& steps, const ExternalForce& force) {
  const FixedStepIO io{callbacks, steps, force};
  FixedStepScratch scratch(system);
  SoftRows rows;
  DrumwrightVectors w;
  return run_fixed_steps(system, initial, system.drumwright.h, io, Integrator::drumwright,
                         [&](FixedStepRun& run, double hs) { step(system, io, run, scratch, rows, w, hs); });
}

}  // namespace impactsim

namespace impactsim {
namespace {

std::vector<SettingSpec> drumwright_settings() {
  const DrumwrightSettings d;
  return {number_setting("h", SettingKind::positive, d.h, "0.01", "the step, s (`--step` overrides it)"),
          choice_setting("problem", {"lcp", "min-norm-qp"},
                         "`lcp`: the spring-damper law exactly (Lemke); `min-norm-qp`: the paper's minimum-norm QP "
                         "(barrier method)"),
          choice_setting("cone", {"polyhedral", "circular"},
                         "3-D friction: `polyhedral` (`contact.friction_directions` directions) or `circular` "
                         "(`min-norm-qp` only); planar scenes use the exact two"),
          number_setting("K_n", SettingKind::non_negative, d.K_n, "1e10",
                         "contact normal stiffness, N/m (not both `K_n` and `B_n` 0)"),
          number_setting("B_n", SettingKind::non_negative, d.B_n, "1", "contact normal damping, N s/m"),
          number_setting("B_t", SettingKind::positive, d.B_t, "1e6 / h",
                         "friction damper, N s/m (K_t = 0: memoryless Coulomb)"),
          number_setting("K_pin", SettingKind::non_negative, d.K_pin, "1e15",
                         "pin stiffness, N/m (not both `K_pin` and `B_pin` 0)"),
          number_setting("B_pin", SettingKind::non_negative, d.B_pin, "1", "pin damping, N s/m"),
          flag_setting("gdot_term", d.gdot_term, "include the paper's -Mhat Gdot v term (pseudo-inverse Mhat)"),
          number_setting("zeta", SettingKind::positive, d.zeta, "1 / h",
                         "`min-norm-qp`: the weight of the squared normal forces; see docs/guide.md for why sliding "
                         "contacts need about (h B_t)^2")};
}

SettingProblem apply_drumwright(const Settings& s, System& sys) {
  DrumwrightSettings& d = sys.drumwright;
  d.h = s.number("h");
  d.problem = s.word("problem") == "min-norm-qp" ? SoftProblem::min_norm_qp : SoftProblem::lcp;
  d.cone = s.word("cone") == "circular" ? FrictionConeKind::circular : FrictionConeKind::polyhedral;
  if (d.problem == SoftProblem::lcp && d.cone == FrictionConeKind::circular)
    return {"cone", "the exact LCP takes a polyhedral cone; the circular cone needs problem: min-norm-qp"};
  d.K_n = s.number("K_n");
  d.B_n = s.number("B_n");
  if (d.K_n == 0 && d.B_n == 0) return {"", "K_n and B_n cannot both be zero (the contact would exert no force)"};
  d.B_t = s.number("B_t");
  d.K_pin = s.number("K_pin");
  d.B_pin = s.number("B_pin");
  if (d.K_pin == 0 && d.B_pin == 0) return {"", "K_pin and B_pin cannot both be zero (pins would hold nothing)"};
  d.gdot_term = s.flag("gdot_term");
  d.zeta = s.number("zeta");
  d.friction_directions = sys.contact.friction_directions;
  return {};
}

Settings drumwright_values(const System& sys) {
  const DrumwrightSettings& d = sys.drumwright;
  Settings s(drumwright_settings());
  s.set("h", d.h);
  s.set("problem", std::string(d.problem == SoftProblem::lcp ? "lcp" : "min-norm-qp"));
  s.set("cone", std::string(d.cone == FrictionConeKind::circular ? "circular" : "polyhedral"));
  s.set("K_n", d.K_n);
  s.set("B_n", d.B_n);
  s.set("B_t", d.tangent_damping());
  s.set("K_pin", d.K_pin);
  s.set("B_pin", d.B_pin);
  s.set("gdot_term", d.gdot_term);
  s.set("zeta", d.zeta > 0 ? d.zeta : 1.0 / d.h);
  return s;
}

std::string describe_drumwright(const System& sys) {
  const DrumwrightSettings& d = sys.drumwright;
  std::ostringstream s;
  s << "drumwright (" << (d.problem == SoftProblem::lcp ? "lcp" : "min-norm-qp");
  if (!sys.model.planar) s << (d.cone == FrictionConeKind::circular ? ", circular cone" : ", polyhedral cone");
  s << ", h = " << d.h << " s)";
  return s.str();
}

}  // namespace

const IntegratorDescriptor& drumwright_integrator() {
  static const IntegratorDescriptor integrator{
      .kind = Integrator::drumwright,
      .name = "drumwright",
      .summary = "Drumwright's first-order solver: every constraint a stiff spring-damper, implicit in constraint space",
      .section = "drumwright",
      .settings = drumwright_settings(),
      .uses_law = false,
      .apply = apply_drumwright,
      .values = drumwright_values,
      .describe = describe_drumwright,
      .step = [](const System& sys) { return sys.drumwright.h; },
      .run = [](const System& sys, const ImpactLaw&, const State& initial, Rng&,
                const RunCallbacks& callbacks) { return simulate_drumwright(sys, initial, callbacks); }};
  return integrator;
}

}  // namespace impactsim
