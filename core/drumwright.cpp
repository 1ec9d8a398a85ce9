#include "core/drumwright.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>

namespace impactsim {
namespace {

class DrumwrightStepper : public FixedStepper {
 public:
  DrumwrightStepper(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
                    const SimulationSettings& settings, const ContactSettings& contact_settings,
                    const DrumwrightSettings& scheme, const HybridCallbacks& callbacks, const StepSink& steps,
                    const ExternalForce& force)
      : FixedStepper(model, contacts, pins, settings, contact_settings, callbacks, steps, force, "drumwright"),
        scheme_(scheme), touching_(contact_settings.distance_tolerance) {
    options_.problem = scheme.problem;
    options_.cone = scheme.cone;
    options_.friction_directions = scheme.friction_directions;
  }

 private:
  // The rows at (q_, v_): G, phi0, Gdot v0, K, B, and the problem's row layout.
  void assemble(SoftConstraintProblem& p) {
    const int td = contacts_.tangent_dim();
    const std::vector<int> in = touching(touching_);
    update_jacobians(in, true);
    int rows = 0;
    if (!pins_.empty()) {
      update_pins(q_, v_);
      rows = static_cast<int>(pin_state_.phi.size());
    }
    for (int i : in) rows += 1 + (contacts_.contact(i).mu > 0 ? td : 0);
    G_.setZero(rows, model_.nv);
    phi_.setZero(rows);
    gdot_v_.setZero(rows);
    K_.setZero(rows);
    B_.setZero(rows);
    p.bilateral.clear();
    p.contacts.clear();
    p.tangent_dim = td;
    int r = 0;
    for (; r < static_cast<int>(pin_state_.phi.size()) && !pins_.empty(); ++r) {
      G_.row(r) = pin_state_.G.row(r);
      phi_(r) = pin_state_.phi(r);
      gdot_v_(r) = pin_state_.Gdot_v(r);
      K_(r) = scheme_.K_pin;
      B_(r) = scheme_.B_pin;
      p.bilateral.push_back(r);
    }
    for (int i : in) {
      const double mu = contacts_.contact(i).mu;
      SoftContactRows c{r, mu > 0 ? r + 1 : -1, mu};
      p.contacts.push_back(c);
      const int n = mu > 0 ? 1 + td : 1;
      G_.middleRows(r, n) = cd_.J(i).topRows(n);
      gdot_v_.segment(r, n) = cd_.Jdot_v(i).head(n);
      phi_(r) = std::min(cd_.frame(i).phi, 0.0);
      K_(r) = scheme_.K_n;
      B_(r) = scheme_.B_n;
      B_.segment(r + 1, n - 1).setConstant(scheme_.tangent_damping());
      r += n;
    }
  }

  void step(double hs) override {
    cd_.update_dynamics(q_, v_);
    SoftConstraintProblem p;
    assemble(p);
    applied_forces(t_, f_);
    llt_.compute(cd_.M());
    if (llt_.info() != Eigen::Success) throw SimulationError(t_, "drumwright: the mass matrix is singular");
    a_ = llt_.solve(f_);
    Minv_GT_ = llt_.solve(G_.transpose());
    p.S = G_ * Minv_GT_;
    const Eigen::VectorXd phidot = G_ * v_;
    p.r = -K_.cwiseProduct(phi_) - (hs * K_ + B_).cwiseProduct(phidot + hs * (G_ * a_) + hs * gdot_v_);
    if (scheme_.gdot_term && p.r.size() > 0) p.r -= p.S.completeOrthogonalDecomposition().solve(gdot_v_);
    p.W = hs * hs * K_ + hs * B_;
    options_.zeta = scheme_.zeta > 0 ? scheme_.zeta : 1.0 / hs;
    const SoftSolution s = solve_soft_constraints(p, options_);
    if (p.r.size() > 0) {
      ++stats_.solves;
      stats_.max_residual = std::max(stats_.max_residual, s.residual);
    }
    if (!s.ok) throw SimulationError(t_, "drumwright at t = " + std::to_string(t_) + " s: " + s.diagnostic);
    v1_ = v_ + hs * (Minv_GT_ * s.lambda + a_);
    integrate_configuration(model_, q_, v1_, hs, q1_);
    finish_step(t_ + hs, q1_, v1_, v1_);
  }

  const DrumwrightSettings& scheme_;
  SoftSolverOptions options_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  double touching_;  // contacts with phi up to this are in, their deformation min(phi, 0)
  Eigen::VectorXd q1_, v1_, f_, a_, phi_, gdot_v_, K_, B_;
  Eigen::MatrixXd G_, Minv_GT_;
};

}  // namespace

FixedStepStats simulate_drumwright(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
                                   const SimulationSettings& settings, const ContactSettings& contact_settings,
                                   const DrumwrightSettings& scheme, const State& initial,
                                   const HybridCallbacks& callbacks, const StepSink& steps,
                                   const ExternalForce& force) {
  DrumwrightStepper stepper(model, contacts, pins, settings, contact_settings, scheme, callbacks, steps, force);
  return stepper.run(initial, scheme.h);
}

}  // namespace impactsim
