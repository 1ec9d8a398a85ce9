#pragma once
// Slip from rest in 3-D: the consistent start of a slide where the acceleration LCP's friction
// polygon is only an approximation of the circular cone the smooth phase uses.
//
// A contact that starts to slide from rest (|u_t| within the velocity tolerance) must slide the way
// its tangential acceleration points, a_t = k s with k >= 0, against friction -mu lambda_n s (s a
// unit vector in the contact's tangent coordinates). The acceleration LCP's polygon is inscribed in
// the cone: a contact at the polygon's edge may still hold inside the cone, and the LCP gives s only
// to within the polygon's facets (a_t along a facet's normal). With such an s the phase's a_t turns
// away from s, u_t . s stays at zero and the slip-to-stick guard fires again at once, event after
// event at one instant: the step size of a tossed cube's sliding edge collapsed so (issue: runs
// stalled). Planar contacts (one tangent direction) are exact already and are left alone.
#include <vector>

#include "core/contact_data.hpp"
#include "core/contact_forces.hpp"
#include "core/function_ref.hpp"
#include "core/system.hpp"

namespace impactsim {

// For the contacts `modes` starts sliding from rest (3-D, mu > 0, |J_t v| <= velocity tolerance):
//   1. if they all stick strictly inside the cone, |lambda_t| < mu lambda_n, they stick;
//   2. else the circular cone says which of them slide and along which s (cone_slips), its
//      forces becoming the references. Where none slides they stick (strictly inside their
//      cones, or on an edge as in 3.); else Newton's method on the angles of those slips (the
//      others sticking) solves s x a_t(s) = 0 to 1e-9 of the accelerations' scale, and with every
//      k = s . a_t >= 0 and the others inside their cones (or on an edge as in 3.) these are the
//      slips. Where the cone's answer does not hold so, a search: Newton's method on all their
//      angles (started against the friction a stick would need) and, where some k < 0 (that slip
//      runs against its own acceleration while the others slide) or Newton does not converge,
//      one contact sticks (the most negative k, else the largest residual) and the rest are
//      solved again, until the slips are consistent with every k >= 0 or one slides; the stuck
//      ones must then hold strictly inside their cones. In a model of 48 velocities or more the
//      search evaluates its residual (a force solve) at most 2 m + 8 times, m the contacts it
//      started with, and one that runs out ends as 4. does;
//   3. with some k = 0 (friction on the cone's edge, a_t = 0) they stick at those forces (redundant
//      contacts, such as an edge's two ends, with a friction distribution the LCP did not pick),
//      unless slip_fired[i] for one of them: the friction a stick needs is then growing past the
//      cone, so slip starts along s at second order (sticking would fire again at once);
//   4. where that finds no consistent slips, `modes` is left as the LCP chose.
// data holds the body dynamics, frames, J and Jdot v of the closed contacts at (q, v). On return
// forces hold the final modes' forces (no drift correction). False only if M is singular.
// `closed`, where given (islands of the closed contacts, ascending: those an event's mode choice
// did not keep), limits all of it to those contacts: the others' slips and forces are not looked
// at (their forces are zero in `forces`).
// Marks held (ContactModes::held) the 3-D frictional slides of `modes` whose slip |J_t v| is below
// half of sys.contact.slow_slip_speed, and no other contact. data: J of the closed contacts at v.
void hold_slow_slides(const System& sys, const ContactData& data, const Eigen::VectorXd& v, ContactModes& modes);

bool start_slip_from_rest(const System& sys, const std::vector<bool>& slip_fired, const Eigen::VectorXd& v,
                          const ContactData& data, ContactModes& modes, ModeForces& forces,
                          const std::vector<int>* closed = nullptr);

// Step 2's first answer: which of the contacts `from_rest` slide (with the angles theta [rad] of
// their slips in tangent coordinates) and which stick, as the circular cone has it at the
// acceleration level. With those contacts open and the others held in their modes (`modes` as
// chosen), the accelerations of their rows are affine in their forces r, a = W r + b (one force
// solve, then one solve with its factor per row: force_response), and the slip start's law is the
// frictional contact problem of numerics/coulomb_cone.hpp on (W, b): friction inside the cone, on
// its edge against a_t where a_t != 0 (a_t = k s, k > 0). One cone solve, started from the forces
// a stick needs (stuck_forces, drawn into the cone), stands for a search over which contacts
// stick. A contact slides where |a_t| exceeds 1e-6 of the accelerations' scale, or along -p where
// its friction p is on the cone's edge with a_t = 0 (k = 0: step 3 decides). The answer's
// forces, every closed contact's, go into modes' references (its modes are left as they came).
// False where the cone gives nothing to try: not converged, or an unloaded contact at rest.
bool cone_slips(const System& sys, const ContactData& data, const std::vector<int>& from_rest,
                const ModeForces& stuck_forces, const std::vector<int>* closed, ContactModes& modes,
                std::vector<int>& sliding, std::vector<int>& stuck, Eigen::VectorXd& theta);

// Step 2's search: (angles [rad]) -> r = s x a_t and k = s . a_t per slip; false if the forces fail.
using SlipAngleResidual = FunctionRef<bool(const Eigen::VectorXd& angles, Eigen::VectorXd& r, Eigen::VectorXd& k)>;

// Step 2's Jacobian dr/d angles at the angles `residual` evaluated last, from its k there; false
// where it cannot be had in closed form (the search then takes difference quotients).
using SlipAngleJacobian = FunctionRef<bool(const Eigen::VectorXd& k, Eigen::MatrixXd& jacobian)>;

// A search's residual with a budget: at most `budget` evaluations (0: no limit) over every
// solve_slip_angles it is given to; past them an evaluation fails and exhausted() is true.
class ResidualBudget {
 public:
  ResidualBudget(SlipAngleResidual residual, long budget) : residual_(residual), budget_(budget) {}
  bool operator()(const Eigen::VectorXd& angles, Eigen::VectorXd& r, Eigen::VectorXd& k);
  bool exhausted() const { return exhausted_; }
  long used() const { return used_; }

 private:
  SlipAngleResidual residual_;
  long budget_, used_ = 0;
  bool exhausted_ = false;
};

// The budget of the search after the cone's answer (step 2) in a model of nv velocities, for m
// contacts starting to slide: 2 m + 8 residuals from kBlockwiseFrom (48) velocities on, else none
// (0). A search that runs out leaves the modes as the LCP chose them, as one that finds nothing does.
long slip_search_budget(int nv, int m);

// Newton's method with step halving on |r|, from the angles theta until |r| <= tolerance, 50
// iterations, or 3 iterations in a row that cut |r| by less than a thousandth: with no root near,
// the halvings only creep, and the slip start repeats the search for every contact it sticks, so
// a search without a root must give up early. Each iteration's Jacobian comes from `jacobian` where it gives one (one
// force solve and m solves with its factor: slip_turn_acceleration), else from forward differences
// (m more force solves). On return theta is the last iterate, r and k at it; false only if residual
// failed.
bool solve_slip_angles(SlipAngleResidual residual, SlipAngleJacobian jacobian, Eigen::VectorXd& theta,
                       Eigen::VectorXd& r, Eigen::VectorXd& k, double tolerance);

}  // namespace impactsim
