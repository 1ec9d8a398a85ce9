#pragma once
// Contact forces in the smooth phase, "fixed mode per phase" (Pfeiffer and Glocker): at each event
// the acceleration-level LCP picks every closed contact's mode (stick, or slide along a direction;
// select_modes); between events the mode is held and the smooth ODE
//   M vdot = tau - C + sum_i G_i^T lambda_i
// is integrated with the closed contacts' accelerations held at a_n = a_t(stick) = 0 plus Baumgarte
// terms that pull phi and the constrained velocities back to zero (constrained_acceleration). A
// sliding contact's friction is -mu lambda_n along its slip direction, so G_n,i = J_n,i - mu s_i^T J_t,i.
// Signs as in core/contact_data.hpp: lambda_n >= 0 pushes A away from B [N]; lambda_t is in the
// contact's tangent coordinates [N].
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>

#include "core/contact_data.hpp"
#include "numerics/pivoted_ldlt.hpp"
#include "numerics/small_cod.hpp"

namespace impactsim {

enum class ContactMode { open, stick, slide };

// Tangential components of one contact: 1 (planar) or 2 (3-D), without heap storage.
using TangentVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 2, 1>;

// a_t = J_t,i vdot + Jdot_t,i v: contact i's tangential acceleration, tangent coordinates [m/s^2].
TangentVector tangential_acceleration(const ContactJacobians& jac, int i, const Eigen::VectorXd& vdot);

// 3-D frictional slides slower than this fraction of ContactSettings::slow_slip_speed at an event
// are held (hold_slow_slides, ContactModes::held).
constexpr double kHeldSlipFraction = 0.5;

struct ContactModes {
  std::vector<ContactMode> mode;      // one per contact
  std::vector<Eigen::Vector2d> slip;  // unit slip direction in tangent coordinates (sliding contacts)
  // m/s. In 3-D a sliding contact's friction opposes (u_t + slip_blend s) / |u_t + slip_blend s|
  // (s its phase's slip direction): exactly -u_t/|u_t| once it slides well above this speed, and
  // exactly s where a slide from rest starts, instead of following the direction of a tangential
  // velocity of 1e-10 m/s, which rounding turns at will (the step size collapsed on an edge of a
  // tossed cube sliding from rest). select_modes sets the velocity tolerance; 0: unblended.
  double slip_blend = 0.0;
  // 3-D frictional slides slower than kHeldSlipFraction of ContactSettings::slow_slip_speed at the
  // phase's start, sliding from rest among them (or slowing there: the hold guard of a slide that follows
  // its slip fires at 0.4 of it): their friction holds -mu lambda_n s, s not turning with
  // the slip, until the slip reaches hold_speed (the phase's follow guard; the event starts a
  // slide along the slip, which follows it). Following a slip of speed |u_t| turns the friction at
  // a rate mu lambda_n / (m |u_t|): a slip that stays slow (a sphere wedged under a box, creeping
  // at 1e-10 m/s, or one starting to slide at 0.05 m/s^2) is a mode as stiff as 1e7 /s, steps of
  // 1e-7 s for as long as it lasts (a 50-body pile's stall). Held, the friction is constant along
  // s, and the stick guard (u_t . s = 0) still ends the slide before it could push the slip: it
  // never adds energy, and it does at most 2 mu lambda_n hold_speed less work per second than
  // Coulomb's friction along the slip.
  std::vector<bool> held;
  double hold_speed = 0.0;  // [m/s]
  // The forces the acceleration LCP chose with the modes (normal [N]; tangential in tangent
  // coordinates, sticking contacts). Where redundant contacts leave the mode's forces undetermined
  // (a block on four corners), the phase takes the distribution nearest these, which the LCP made
  // non-negative, rather than the least-norm one, which can pull.
  std::vector<double> reference_n;
  std::vector<Eigen::Vector2d> reference_t;
  int closed() const;
  bool is_closed(int i) const { return mode[i] != ContactMode::open; }
  bool holds(int i) const { return static_cast<size_t>(i) < held.size() && held[i]; }
  static ContactModes all_open(int contacts);
};

// A closed contact sliding with friction: its force row differs from its constrained row (G_n = J_n -
// mu s^T J_t), which makes the mode's force system non-symmetric.
bool frictional_slide(const ContactModel& contacts, const ContactModes& modes, int i);

// out[i] = modes.is_closed(i), for every contact (out keeps its storage).
void closed_flags(const ContactModes& modes, std::vector<bool>& out);
// The closed contacts' indices, ascending (out keeps its storage).
void closed_list(const ContactModes& modes, std::vector<int>& out);

// The linear system of the forces in a mode, kept so that the per-step path does not allocate:
// A lambda = target with A = Jc M^-1 G^T (Jc the constrained rows, G the force directions).
struct ModeForceScratch {
  std::vector<int> closed;
  Eigen::VectorXd target, lambda, reference;
  Eigen::MatrixXd G, Jc, A;
  std::vector<int> Jc_owner;  // the contact each row of Jc was copied from
  std::vector<int> G_owner;   // the same for G
  Eigen::MatrixXd Minv_GT;  // from kBlockwiseFrom velocities on, valid only in the blocks `touch.F` names
  BlockRows touch;  // the rows of Jc and G that touch each velocity block (large models)
  LeastNormFactor cod;  // SmallCod from kBlockwiseFrom velocities on, Eigen's below
  Eigen::LDLT<Eigen::MatrixXd> ldlt;
  PivotedLdlt pivoted;
  // From kBlockwiseFrom velocities on, an A over more than one island (contact_islands) takes
  // its forces island by island: each island's rows of A, ascending, and their factorization;
  // row_island gives each row's island. `islands` holds the closed contacts' grouping.
  ContactIslands islands;
  std::vector<std::vector<int>> island_rows;
  std::vector<int> row_island;
  // Which case gave the forces: definite (A symmetric positive definite: Eigen's LDL^T, or from
  // kBlockwiseFrom velocities on the pivoted one at full rank), pivoted (A symmetric and singular,
  // from kBlockwiseFrom velocities on), lu (A not symmetric and well conditioned, from
  // kBlockwiseFrom velocities on: partial-pivoting LU), cod (any other A) or islands (island by
  // island, each island's case in island_solver: definite, pivoted, lu or cod, by the same rules
  // on its own rows).
  enum class Solver { definite, pivoted, lu, cod, islands } solver = Solver::definite;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  std::vector<Eigen::PartialPivLU<Eigen::MatrixXd>> island_lu;
  std::vector<Solver> island_solver;
  std::vector<bool> island_symmetric;  // no frictional slide among the island's contacts
  std::vector<LeastNormFactor> island_cod;
  std::vector<PivotedLdlt> island_pivoted;
  Eigen::MatrixXd A_island;
  Eigen::VectorXd target_island, lambda_island;
  // The row structures (row_structure's hashes) whose LU was found singular, the latest
  // kSingularStructures of them. A pile's dependent contacts stay dependent while the same contacts
  // hold in the same modes (in frictional piles an LU of a structure seen before all but never
  // changes its verdict), so their next solve goes straight to the decomposition. A structure that has become regular, or a hash
  // collision, costs only LU's speed: the decomposition gives A^-1 target too, to rounding.
  static constexpr size_t kSingularStructures = 256;
  std::vector<std::uint64_t> singular_structures;
  long lu_factorizations = 0;  // how many LUs these forces have computed
};

// vdot and contact forces in a fixed mode.
// Only constrained_acceleration writes lambda_n and lambda_t: each call clears just the entries
// the one before wrote (its closed contacts, scratch.closed), not every contact's of a pile.
struct ModeForces {
  Eigen::VectorXd vdot;      // [units of v per s]
  Eigen::VectorXd lambda_n;  // per contact; 0 for open ones
  Eigen::MatrixXd lambda_t;  // per contact, tangent coordinates
  ModeForceScratch scratch;
};

// How far closed contact `i`'s slide is from a Painleve configuration in the mode the forces were
// computed for: the Schur complement of the mode's force system A on i's normal row,
// 1 / (A^+)_kk [m/s^2 per N], the normal acceleration a unit of i's normal force buys while the
// other contacts hold. It falls to 0 (the normal force grows without bound) and turns negative
// where the slide becomes inconsistent; +infinity where A (or, solved island by island, i's island
// of it) was symmetric positive definite (no friction slides: no Painleve) or i is not closed.
// x: scratch.
double painleve_margin(const ModeForces& forces, int i, Eigen::VectorXd& x);

// d vdot / d theta [units of v per s^2 per rad]: how the acceleration `forces` holds (computed by
// constrained_acceleration in `modes` at the state of `body`) changes as closed frictional slide
// i's slip direction modes.slip[i] = (cos theta, sin theta) turns, the modes held. Its force row
// G_i = J_n,i - mu d^T J_t,i turns with d (slip_direction), so with y = lambda_i M^-1 dG_i^T,
// d lambda = -A^-1 J_c y and d vdot = y + M^-1 G^T d lambda: one solve with the factor at hand,
// where a difference quotient costs a whole force solve. Where A (or i's island of it) is singular
// (redundant contacts) the forces are the least-norm ones about the references, and their
// derivative has one more term, one more solve (contact_forces.cpp, turn_of_forces). False where i
// is not a closed frictional slide in 3-D.
bool slip_turn_acceleration(const ContactModel& contacts, const BodyDynamics& body, const ContactJacobians& jac,
                            const ContactModes& modes, int i, const ModeForces& forces, Eigen::VectorXd& dvdot);

// d vdot [units of v per s^2 per unit of f] for a generalized force f added to the mode `forces`
// holds (computed by constrained_acceleration at the state of `body`), the closed contacts kept in
// their modes: d lambda = -A^-1 J_c M^-1 f (A^+ where A is singular: the least-norm forces are
// affine in the target) and d vdot = M^-1 f + M^-1 G^T d lambda. One solve with the factor at
// hand; the response is linear in f. dlambda: d lambda in the rows of A (forces.scratch.lambda's
// order).
void force_response(const BodyDynamics& body, const ModeForces& forces, const Eigen::VectorXd& f,
                    Eigen::VectorXd& dvdot, Eigen::VectorXd& dlambda);

// vdot and forces in `modes` at the state of `body`, with the frames and Jacobians (and Jdot v) of
// its closed contacts; baumgarte [1/s] is the drift correction rate. False if M is singular.
// `closed`, where given, must be closed_list(modes): a caller that keeps it (the event loop's
// phase) spares a pass over every contact's mode at each evaluation.
bool constrained_acceleration(const ContactModel& contacts, double baumgarte, const BodyDynamics& body,
                              const std::vector<ContactFrame>& frames, const ContactJacobians& jac,
                              const ContactModes& modes, ModeForces& out, const std::vector<int>* closed = nullptr);

}  // namespace impactsim
