#pragma once
// Isotropic Coulomb friction at an impact (the circular cone) from the polygon's answer. A contact i
// of a 3-D space takes
//   |P_t,i| <= mu_i P_n,i, and where it leaves sliding, u_i = J_t,i v+ != 0, P_t,i = -mu_i P_n,i u_i / |u_i|
// (maximal dissipation), with the normal complementarity of the Anitescu-Potra LCP,
//   0 <= P_n,i _|_ J_n,i v+ + e_i min(J_n,i v-, 0) >= 0.
// The polygon of numerics/friction_cone.hpp lies inside the circle and is off by up to 1 - cos(pi/k)
// of the friction and by pi/k in its direction; its answer is the start of the semismooth Newton
// method of numerics/coulomb_cone.hpp, which converges to the circular cone's answer near it.
// With e = 0 that answer never adds energy: KE+ - KE- = P . u+ - P^T W P / 2 <= sum_i P_t,i . u_i <= 0.
#include <string>

#include "impact/impact_law.hpp"
#include "numerics/mass_factor.hpp"

namespace impactsim {

// The cone's equations are solved to this much of the largest impulse at stake [N s / N s]: the
// polygon's, or one that would stop a contact's normal or tangential velocity alone.
inline constexpr double kConeTolerance = 1e-10;

// Whether the space is solved in the circular cone: 3-D, circular_cone set, some contact with mu > 0.
bool uses_circular_cone(const ContactSpace& space);

// The space's rows for the cone, normal, tangent, tangent per contact: J_n and J_t interleaved.
Eigen::MatrixXd cone_rows(const ContactSpace& space);

// Newton's start where a contact has none (its normal entry NaN, or every contact where r is
// empty): its normal impulse alone, max(0, -b_n) / W_nn, and no friction. W, b over the cone's
// rows (cone_rows), three per contact.
void fill_normal_start(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, Eigen::VectorXd& r);

// Why a solve in the cone gave up, `residual` [N s] short of its equations.
std::string cone_failure(double residual);

// The circular cone's outcome near `polygon`, the polygon's outcome from v_minus (its impulses are
// the start). cone_residual holds the equations' residual [N s]; ok is false, with a diagnostic
// and v- kept, where Newton does not reach kConeTolerance. kinetic_energies as in
// anitescu_potra_outcome.
ImpactResult solve_in_circular_cone(const ContactSpace& space, const MassFactor& M_llt, const Eigen::VectorXd& v_minus,
                                    const ImpactResult& polygon, bool kinetic_energies = true);

// The same outcome without the polygon's LCP: Newton starts from each contact's normal impulse
// alone, max(0, -b_n,i) / W_nn,i, and no friction, as the event loop's steps in the cone do
// (core/velocity_step.hpp). Lemke's cost grows with the cube of the polygon's LCP and it can jam on
// a large island's dependent rows (a 50-box pile's plastic Zeno impact over about 80 contacts ran
// for minutes); Newton takes a few iterations. Where the answer is not unique (dependent rows),
// it may be another of the answers than the polygon's start leads to. ordering and the LCP fields
// stay empty.
ImpactResult solve_directly_in_circular_cone(const ContactSpace& space, const MassFactor& M_llt,
                                             const Eigen::VectorXd& v_minus, bool kinetic_energies = true);

}  // namespace impactsim
