#pragma once
// The Anitescu-Potra / Glocker-Pfeiffer simultaneous impact LCP (Halm and Posa eq. (31), digest
// §2.1), with optional Newton restitution J_n,i v+ >= -e_i J_n,i v- on approaching contacts:
//   z = [Lambda_n; Lambda_D; gamma] >= 0  _|_  W z + w >= 0,
//   W = [ J_n M^-1 J_n^T   J_n M^-1 J_D^T   0 ;
//         J_D M^-1 J_n^T   J_D M^-1 J_D^T   E ;
//         mu               -E^T             0 ],
//   w = [ J_n v- + e min(J_n v-, 0) ; J_D v- ; 0 ],     v+ = v- + M^-1 (J_n^T Lambda_n + J_D^T Lambda_D).
// W is copositive, so the LCP always has a solution (Prop. 2); with e = 0 it never adds energy.
#include <vector>

#include "impact/friction_cone.hpp"
#include "impact/impact_law.hpp"
#include "impact/lcp.hpp"

namespace impactsim {

struct AnitescuPotraLcp {
  FrictionCone cone;
  Eigen::MatrixXd W;
  Eigen::VectorXd w;
  Eigen::MatrixXd Minv_JbarT;  // M^-1 [J_n; J_D]^T
};

AnitescuPotraLcp build_anitescu_potra_lcp(const ContactSpace& contacts, const Eigen::VectorXd& v_minus);

// The outcome that LCP solution z stands for.
ImpactResult anitescu_potra_outcome(const ContactSpace& contacts, const AnitescuPotraLcp& lcp,
                                    const Eigen::VectorXd& v_minus, const Eigen::VectorXd& z);

class AnitescuPotraLaw : public ImpactLaw {
 public:
  explicit AnitescuPotraLaw(LcpOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "anitescu-potra"; }
  // Deterministic: Lemke's solution; rng is not used.
  ImpactResult resolve(const ContactSpace& contacts, const Eigen::VectorXd& v_minus, Rng& rng) const override;

 private:
  LcpOptions options_;
};

// Every solution of the LCP at a complementary basis, one per distinct post-impact velocity
// (solutions differing only in impulses that M^-1 J^T maps to the same v+ are one outcome).
std::vector<ImpactResult> anitescu_potra_all_solutions(const ContactSpace& contacts, const Eigen::VectorXd& v_minus);

}  // namespace impactsim
