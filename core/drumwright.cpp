#include "core/drumwright.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "numerics/solve_columns.hpp"
#include "core/soft_constraints.hpp"

namespace impactsim {
namespace {

// The constraint rows of one step: G, phi, Gdot v0 and each row's K and B.
struct SoftRows {
  Eigen::MatrixXd G;
  Eigen::VectorXd phi, gdot_v, K, B;
};

// A step's other vectors, kept between steps so the loop does not allocate.
struct StepVectors {
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
          StepVectors& w, double hs) {
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
  StepVectors w;
  return run_fixed_steps(system, initial, system.drumwright.h, io, "drumwright",
                         [&](FixedStepRun& run, double hs) { step(system, io, run, scratch, rows, w, hs); });
}

}  // namespace impactsim
