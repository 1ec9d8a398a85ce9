#pragma once
// The Anitescu-Potra / Glocker-Pfeiffer simultaneous impact LCP (Halm and Posa eq. (31)), with
// optional Newton restitution J_n,i v+ >= -e_i J_n,i v- on approaching contacts: the Coulomb LCP of
// numerics/coulomb_lcp.hpp with
//   W_bar = Jbar M^-1 Jbar^T,  Jbar = [J_n; J_D],  J_D = D^T J_t per frictional contact (mu > 0),
//   w_bar = [J_n v- + e min(J_n v-, 0); J_D v-],    v+ = v- + M^-1 Jbar^T [Lambda_n; Lambda_D].
// W is copositive, so the LCP always has a solution (Prop. 2); with e = 0 it never adds energy.
#include <vector>

#include <Eigen/Cholesky>

#include "numerics/coulomb_lcp.hpp"
#include "impact/impact_law.hpp"
#include "numerics/lcp.hpp"

namespace impactsim {

// The parts of the LCP that depend on the configuration alone (M, J, mu), built once per impact.
struct AnitescuPotraOperator {
  Eigen::MatrixXd Jbar;        // [J_n; J_D]
  Eigen::MatrixXd Minv_JbarT;  // M^-1 Jbar^T
  Eigen::MatrixXd W;           // Jbar M^-1 Jbar^T: block_delassus, so O(contacts) in a pile, not k^2 nv
  CoulombLayout layout;        // a friction block per contact with mu > 0, the space's polygon
};

AnitescuPotraOperator anitescu_potra_operator(const ContactSpace& contacts);
// The same with M's Cholesky factor given (laws that build many operators on one M: sequential).
AnitescuPotraOperator anitescu_potra_operator(const ContactSpace& contacts, const MassFactor& M_llt);

// The whole LCP at pre-impact velocity v_minus.
CoulombLcp build_anitescu_potra_lcp(const ContactSpace& contacts, const AnitescuPotraOperator& op,
                                    const Eigen::VectorXd& v_minus);

// The outcome that LCP solution z stands for. Without kinetic_energies its two energies are left 0:
// they cost two nv^2 products, the bulk of a sequential impact's single impacts down a long row.
ImpactResult anitescu_potra_outcome(const ContactSpace& contacts, const AnitescuPotraOperator& op,
                                    const CoulombLcp& lcp, const Eigen::VectorXd& v_minus, const Eigen::VectorXd& z,
                                    bool kinetic_energies = true);

// Lemke's solution of the LCP at v_minus (ok false with a diagnostic when Lemke fails).
ImpactResult solve_anitescu_potra(const ContactSpace& contacts, const AnitescuPotraOperator& op,
                                  const Eigen::VectorXd& v_minus, const LcpOptions& options = {},
                                  bool kinetic_energies = true);

// The same in the space's friction cone, op built here: the polygon's answer, taken on to the
// circular cone's where uses_circular_cone (impact/circular_cone.hpp). Where
// solved_directly_in_circular_cone, Newton starts from the normal impulses instead, and the
// polygon's LCP (bounded(options): numerics/lcp.hpp) is solved only where that fails.
ImpactResult solve_anitescu_potra(const ContactSpace& contacts, const MassFactor& M_llt,
                                  const Eigen::VectorXd& v_minus, const LcpOptions& options = {},
                                  bool kinetic_energies = true);

// Whether a space's impact is solved in the circular cone without the polygon's LCP first: one of
// kBlockwiseFrom velocities or more (a pile's island of eight bodies or more) in the circular cone.
// Its polygon has 10 LCP variables per frictional contact, and Lemke's pivots, O(n^2) each, ran
// for minutes on a 50-box pile's island of 120 contacts; Newton in the cone takes a few
// iterations. Where the answer is not unique (dependent rows) it may be another of them.
bool solved_directly_in_circular_cone(const ContactSpace& contacts);

// An impact without collision (a tangential impact; Genot and Brogliato): where a sliding contact
// has no consistent force (Painleve), friction must stop it by an impulse although nothing
// approaches. The plastic Anitescu-Potra LCP at v_minus has then two kinds of solution, the zero
// impulse (the slide goes on, still inconsistent) and the jam (the contact sticks, lambda_n > 0);
// lowering every normal velocity by `approach` [m/s, > 0, tiny] excludes the zero one, and for a
// Painleve slide leaves only the jam, whose normal impulse cannot vanish as approach -> 0. Every
// contact leaves with J_n v+ >= approach; kinetic energy can rise by at most approach * sum Lambda_n.
ImpactResult solve_without_collision(const ContactSpace& contacts, const Eigen::VectorXd& v_minus, double approach,
                                     const LcpOptions& options = {});

// The impact that brings every contact of the space to rest, normal and tangential velocity both:
// the M-orthogonal projection of v_minus onto {J_n v = 0, J_t v = 0},
//   P = -(J M^-1 J^T)^+ J v-,  J = [J_n; J_t],  v+ = v- + M^-1 J^T P,
// the least-norm impulse where the contacts are redundant. It is how a Painleve slide's impact
// without collision ends when the contact sticks (Genot and Brogliato: the normal impulse grows
// until the slip stops), wherever the polyhedral LCP of solve_without_collision stopped at a
// solution that still slides. A projection: kinetic energy never rises. ok is false, with v- kept
// and a diagnostic, unless every normal impulse pushes and every friction impulse lies in the
// circular cone, |P_t,i| <= mu_i P_n,i, each to 1e-9 of the largest impulse.
ImpactResult solve_sticking_impact(const ContactSpace& contacts, const Eigen::VectorXd& v_minus);

class AnitescuPotraLaw : public ImpactLaw {
 public:
  explicit AnitescuPotraLaw(LcpOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "anitescu-potra"; }
  // Deterministic: Lemke's solution, computed once; every draw returns it.
  std::unique_ptr<PreparedImpact> prepare(const ContactSpace& contacts, const Eigen::VectorXd& v_minus) const override;
  // Lemke's solution, without keeping it for later draws.
  ImpactResult resolve(const ContactSpace& contacts, const Eigen::VectorXd& v_minus, Rng& rng) const override;

 private:
  LcpOptions options_;
};

// Every solution of the LCP at a complementary basis, one per distinct post-impact velocity
// (solutions differing only in impulses that M^-1 J^T maps to the same v+ are one outcome).
std::vector<ImpactResult> anitescu_potra_all_solutions(const ContactSpace& contacts, const Eigen::VectorXd& v_minus);

}  // namespace impactsim
