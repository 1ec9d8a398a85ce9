#pragma once
// The linear system of a mode's forces, A lambda = target with A = Jc M^-1 G^T
// (core/contact_forces.hpp): solved by the factor that fits it. With every closed contact sticking
// A is symmetric positive semi-definite: an LDL^T while it is well conditioned; redundant contacts
// (a block on four corners) make it singular, and then the forces are the least-norm ones about
// the acceleration LCP's (the references): lambda = ref + A^+ (target - A ref). A large model
// factors A by the pivoted LDL^T, solves a non-symmetric A (frictional slides) by LU where its
// pivots are well spread and by numerics' SmallCod where not (a third less than Eigen's
// decomposition on the 20 rows of a frictional pile's islands), and separate islands (boxes
// resting apart in a pile) one by one.
#include <Eigen/Core>

#include "core/contact_forces.hpp"

namespace impactsim {

// A lambda = target for the closed contacts w.closed (rows: A's size; symmetric: no frictional
// slide), into w.lambda, with w.solver saying which factor serves later solves.
void solve_force_system(const ContactModel& contacts, const BodyDynamics& body, const ContactJacobians& jac,
                        const ContactModes& modes, bool symmetric, int rows, ModeForceScratch& w);

// x = A^-1 unit (A^+ unit where A is singular) by the factor the forces were solved with.
void solve_unit(ModeForceScratch::Solver solver, const PivotedLdlt& pivoted, const Eigen::PartialPivLU<Eigen::MatrixXd>& lu,
                const LeastNormFactor& cod, const Eigen::VectorXd& unit,
                Eigen::VectorXd& x);

// x = A^-1 rhs (A^+ rhs where singular) over every row of A, by the factors solve_force_system
// left in w (island by island where it solved so: an island whose rows of rhs are zero gets x = 0
// there). blockwise: the model has kBlockwiseFrom velocities or more.
void solve_factored(const ModeForceScratch& w, bool blockwise, const Eigen::VectorXd& rhs, Eigen::VectorXd& x);

}  // namespace impactsim
