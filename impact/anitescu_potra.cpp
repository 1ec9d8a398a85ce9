#include "impact/anitescu_potra.hpp"

#include <string>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "impact/circular_cone.hpp"
#include "impact/laws.hpp"
#include "numerics/short_number.hpp"
#include "numerics/friction_cone.hpp"

namespace impactsim {
namespace {

class PreparedAnitescuPotra : public PreparedImpact {
 public:
  explicit PreparedAnitescuPotra(ImpactResult result) : result_(std::move(result)) {}
  ImpactResult draw(Rng&) const override { return result_; }

 private:
  ImpactResult result_;
};

}  // namespace

AnitescuPotraOperator anitescu_potra_operator(const ContactSpace& c) { return anitescu_potra_operator(c, mass_factor(c)); }

AnitescuPotraOperator anitescu_potra_operator(const ContactSpace& c, const MassFactor& M_llt) {
  AnitescuPotraOperator op;
  op.layout = frictional_contacts_only(c.mu, friction_polygon(c.tangent_dim, c.friction_directions));
  const Eigen::MatrixXd J_D = friction_rows(block_tangent_rows(op.layout, c.J_t), op.layout.D);
  op.Jbar.resize(c.contacts() + J_D.rows(), c.J_n.cols());
  op.Jbar << c.J_n, J_D;
  block_delassus(M_llt, op.Jbar, op.Jbar, op.W, &op.Minv_JbarT);
  return op;
}

CoulombLcp build_anitescu_potra_lcp(const ContactSpace& c, const AnitescuPotraOperator& op,
                                    const Eigen::VectorXd& v_minus) {
  const int m = c.contacts();
  Eigen::VectorXd w_bar = op.Jbar * v_minus;
  const Eigen::VectorXd vn = w_bar.head(m);
  w_bar.head(m) = vn + c.e.cwiseProduct(vn.cwiseMin(0.0));
  return build_coulomb_lcp(op.W, w_bar, op.layout);
}

ImpactResult anitescu_potra_outcome(const ContactSpace& c, const AnitescuPotraOperator& op, const CoulombLcp& lcp,
                                    const Eigen::VectorXd& v_minus, const Eigen::VectorXd& z, bool kinetic_energies) {
  const int m = c.contacts(), p = op.layout.polygon_size();
  ImpactResult r;
  r.v_plus = v_minus + op.Minv_JbarT * z.head(p);
  r.impulse_n = z.head(m);
  r.impulse_t = Eigen::VectorXd::Zero(m * c.tangent_dim);  // frictionless contacts: none
  add_block_impulses(op.layout, z.segment(m, p - m), r.impulse_t);
  if (kinetic_energies) {
    r.kinetic_energy_minus = kinetic_energy(c.M, c.M_blocks, v_minus);
    r.kinetic_energy_plus = kinetic_energy(c.M, c.M_blocks, r.v_plus);
  }
  r.lcp_residual = lcp_residual(lcp.W, lcp.w, z);
  return r;
}

namespace {

// Lemke's solution of a built LCP as an outcome; a failure keeps v- and says why after `what`.
ImpactResult solve_built(const ContactSpace& c, const AnitescuPotraOperator& op, const CoulombLcp& lcp,
                         const Eigen::VectorXd& v_minus, const LcpOptions& options, const std::string& what,
                         bool kinetic_energies = true) {
  const LcpSolution s = solve_lemke(lcp.W, lcp.w, options);
  ImpactResult r = anitescu_potra_outcome(c, op, lcp, v_minus, s.z, kinetic_energies);
  r.lcp_solves = 1;
  if (!s.ok()) {
    r.ok = false;
    r.v_plus = v_minus;
    r.diagnostic = what + " with " + std::to_string(lcp.w.size()) + " variables: " + describe(s.status) +
                   " (residual " + short_number(s.residual) + ")";
  }
  return r;
}

}  // namespace

ImpactResult solve_anitescu_potra(const ContactSpace& c, const AnitescuPotraOperator& op,
                                  const Eigen::VectorXd& v_minus, const LcpOptions& options, bool kinetic_energies) {
  return solve_built(c, op, build_anitescu_potra_lcp(c, op, v_minus), v_minus, options, "Anitescu-Potra LCP",
                     kinetic_energies);
}

bool solved_directly_in_circular_cone(const ContactSpace& c) {
  return c.J_n.cols() >= kBlockwiseFrom && uses_circular_cone(c);
}

ImpactResult solve_anitescu_potra(const ContactSpace& c, const MassFactor& M_llt, const Eigen::VectorXd& v_minus,
                                  const LcpOptions& options, bool kinetic_energies) {
  const bool large = solved_directly_in_circular_cone(c);
  if (large)
    if (ImpactResult direct = solve_directly_in_circular_cone(c, M_llt, v_minus, kinetic_energies); direct.ok) return direct;
  const ImpactResult polygon =
      solve_anitescu_potra(c, anitescu_potra_operator(c, M_llt), v_minus, large ? bounded(options) : options, kinetic_energies);
  if (!polygon.ok || !uses_circular_cone(c)) return polygon;
  ImpactResult circle = solve_in_circular_cone(c, M_llt, v_minus, polygon, kinetic_energies);
  if (circle.ok) return circle;
  // Newton can stall near the polygon's answer (a 20-sphere pile's impact at t = 0.488 s stopped
  // 1e-8 N s short); from each contact's normal impulse alone it takes another path to the cone
  // (a large space's started there).
  if (!large) {
    ImpactResult direct = solve_directly_in_circular_cone(c, M_llt, v_minus, kinetic_energies);
    if (direct.ok) {
      direct.lcp_solves = polygon.lcp_solves;
      direct.lcp_residual = polygon.lcp_residual;
      return direct;
    }
  }
  // Stalled from both starts (the same pile at t = 0.494 s, 5e-9 N s short of impulses of 1e-5
  // N s): the polygon's answer, Anitescu and Potra's own friction law, an exact LCP solution that
  // never adds energy, as a Painleve step takes it (core/painleve_step.hpp); cone_residual keeps
  // how far the circle was.
  ImpactResult out = polygon;
  out.cone_residual = circle.cone_residual;
  out.diagnostic = circle.diagnostic + "; the polygon's answer taken";
  return out;
}

ImpactResult solve_without_collision(const ContactSpace& c, const Eigen::VectorXd& v_minus, double approach,
                                     const LcpOptions& options) {
  ContactSpace plastic = c;
  plastic.e.setZero(c.contacts());
  const AnitescuPotraOperator op = anitescu_potra_operator(plastic);
  CoulombLcp lcp = build_anitescu_potra_lcp(plastic, op, v_minus);
  lcp.w.head(c.contacts()).array() -= approach;
  return solve_built(plastic, op, lcp, v_minus, options, "impact without collision: Anitescu-Potra LCP");
}

ImpactResult solve_sticking_impact(const ContactSpace& c, const Eigen::VectorXd& v_minus) {
  const int m = c.contacts(), td = c.tangent_dim;
  Eigen::MatrixXd J(m * (1 + td), v_minus.size());
  J << c.J_n, c.J_t;
  const MassFactor M_llt = mass_factor(c);
  const Eigen::MatrixXd Minv_JT = M_llt.solve(J.transpose());
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> W(J * Minv_JT);
  W.setThreshold(1e-10);
  const Eigen::VectorXd P = -W.solve(J * v_minus);
  ImpactResult r;
  r.v_plus = v_minus + Minv_JT * P;
  r.impulse_n = P.head(m);
  r.impulse_t = P.tail(m * td);
  r.kinetic_energy_minus = kinetic_energy(c.M, c.M_blocks, v_minus);
  r.kinetic_energy_plus = kinetic_energy(c.M, c.M_blocks, r.v_plus);
  const double tol = 1e-9 * P.cwiseAbs().maxCoeff();
  for (int i = 0; i < m; ++i) {
    const double friction = r.impulse_t.segment(i * td, td).norm();
    if (r.impulse_n[i] >= -tol && friction <= c.mu[i] * std::max(r.impulse_n[i], 0.0) + tol) continue;
    r.ok = false;
    r.diagnostic = "sticking impact: contact " + std::to_string(i) + " would need " +
                   (r.impulse_n[i] < -tol ? "a pulling normal impulse" : "friction outside its cone");
  }
  if (!r.ok) r.v_plus = v_minus;
  return r;
}

std::unique_ptr<PreparedImpact> AnitescuPotraLaw::prepare(const ContactSpace& c, const Eigen::VectorXd& v_minus) const {
  return std::make_unique<PreparedAnitescuPotra>(solve_anitescu_potra(c, mass_factor(c), v_minus, options_));
}

ImpactResult AnitescuPotraLaw::resolve(const ContactSpace& c, const Eigen::VectorXd& v_minus, Rng&) const {
  return solve_anitescu_potra(c, mass_factor(c), v_minus, options_);
}

std::vector<ImpactResult> anitescu_potra_all_solutions(const ContactSpace& c, const Eigen::VectorXd& v_minus) {
  const AnitescuPotraOperator op = anitescu_potra_operator(c);
  const CoulombLcp lcp = build_anitescu_potra_lcp(c, op, v_minus);
  std::vector<ImpactResult> out;
  const double tol = 1e-9 * (1.0 + v_minus.cwiseAbs().maxCoeff());
  for (const Eigen::VectorXd& z : enumerate_lcp_solutions(lcp.W, lcp.w)) {
    ImpactResult r = anitescu_potra_outcome(c, op, lcp, v_minus, z);
    r.lcp_solves = 1;
    bool seen = false;
    for (const ImpactResult& o : out) seen = seen || (o.v_plus - r.v_plus).cwiseAbs().maxCoeff() <= tol;
    if (!seen) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace impactsim

namespace impactsim {

const LawDescriptor& anitescu_potra_law() {
  static const LawDescriptor law = [] {
    LawDescriptor out;
    out.name = "anitescu-potra";
    out.summary = "the simultaneous impact LCP of Anitescu and Potra (Halm and Posa eq. (31)), optional Newton restitution";
    out.make = [](const Settings&) -> std::unique_ptr<ImpactLaw> { return std::make_unique<AnitescuPotraLaw>(); };
    return out;
  }();
  return law;
}

}  // namespace impactsim
