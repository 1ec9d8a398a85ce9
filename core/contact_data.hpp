#pragma once
// The contact stage at one state (q, v) as plain data, filled by stage functions in the order the
// data flows: body dynamics (kinematics, M, C) -> contact frames (phi, normal, tangents) ->
// Jacobians and Jdot v -> the impact-law input (ContactSpace). Each function takes what it reads
// and writes only its output argument; a caller that needs less runs fewer stages. Forces in a
// contact mode and the mode choice come next (core/contact_forces.hpp).
//
// Signs (collision/contact.hpp): phi < 0 is penetration [m]; the normal points from the contact's
// second body B to its first body A; J_i = [J_n,i; J_t,i] maps v to the velocity of A's contact
// point relative to B's in (normal, tangent...) components [m/s], so J_n,i v > 0 separates.
#include <vector>

#include <Eigen/Cholesky>

#include "collision/broadphase.hpp"
#include "collision/contact.hpp"
#include "core/dynamics.hpp"
#include "numerics/mass_factor.hpp"
#include "impact/impact_law.hpp"

namespace impactsim {

struct ContactSettings {
  double distance_tolerance = 1e-6;   // [m] |phi| below this counts as touching
  double velocity_tolerance = 1e-6;   // [m/s] |J v| below this counts as at rest
  double baumgarte = 20.0;            // [1/s] rate at which drift of closed contacts decays
  double v_zeno = 1e-3;               // [m/s] impacts slower than this are plastic and close the contact
  bool detect_rest = true;            // at rest after an event or step (event_handling.hpp, at_rest): skip to t_end
  bool sleep = true;                  // islands at rest freeze until an event reaches them (core/sleep.hpp)
  long max_events = 100000;           // events before the run stops with an error
  double broadphase_margin = 0.05;    // [m] contacts whose bound on phi exceeds this are not computed exactly
  double broadphase_horizon = 0.02;   // [m] event loop: how far a body moves before the near set is selected again; 0: every contact followed
  int friction_directions = 8;        // k of the polyhedral friction cone in 3-D
  bool circular_cone = true;          // 3-D impacts in the circular cone (friction_cone: circular), else the polygon
  // 3-D frictional slides slower than half this hold their friction direction (ContactModes::held)
  // until the slip reaches it, as do those that slow below 0.4 of it (the hold guard); 0: every
  // slide follows its slip.
  double slow_slip_speed = 1e-4;      // [m/s]
  double painleve_step = 1e-4;        // [s] time-step through an instant with no consistent modes, chattering guards or a collapsed step; 0: stop there
  double painleve_step_max = 8e-4;    // [s] the longest such a step grows to where tries at consistent modes keep failing (core/chatter.hpp)
};

// M(q) vdot + C(q, v) = tau at one state, with its scratch.
struct BodyDynamics {
  explicit BodyDynamics(const Model& model);
  Eigen::VectorXd q, v;
  Kinematics kin;                     // poses and spatial velocities at (q, v)
  Eigen::MatrixXd M;                  // the mass matrix
  Eigen::VectorXd C;                  // gravity, Coriolis, centrifugal and joint damping terms: vdot = M^-1 (tau - C)
  MassFactor M_llt;                   // block by block; info() != Success: M is not positive definite
  std::vector<Mat6> composite;        // scratch of the recursions
  std::vector<Vec6> acc, force;
};

// Kinematics, M, C and the Cholesky factor of M at (q, v).
void compute_body_dynamics(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, BodyDynamics& out);

// 0.5 v^T M v [J] with body's M, to the bit as the dense product: from kBlockwiseFrom velocities on,
// M v is summed over each diagonal block's own columns (M is zero outside them) in the order of
// Eigen's product. The dense product would read all of a pile's M, quadratic in its bodies, for
// every energy an event logs.
double kinetic_energy(const BodyDynamics& body, const Eigen::VectorXd& v);

// Every contact's frame at the poses kin.R, kin.p, exactly.
void compute_contact_frames(const ContactModel& contacts, const Kinematics& kin, std::vector<ContactFrame>& frames);
// The frames of the contacts flagged in `need` only; the others are left as they were.
void compute_contact_frames(const ContactModel& contacts, const Kinematics& kin, const std::vector<bool>& need,
                            std::vector<ContactFrame>& frames);
// The same for the contacts listed in `set` (ascending), for a caller that keeps the list: passes
// over every contact's flag per evaluation would cost a pile its contacts (quadratic in its
// bodies) where only a few hundred are closed. The stages below take either too.
void compute_contact_frames(const ContactModel& contacts, const Kinematics& kin, const std::vector<int>& set,
                            std::vector<ContactFrame>& frames);

// Each contact's J (1 + tangent_dim rows, nv columns) and Jdot v. Contact i's rows are the
// columns [i nv, (i + 1) nv) of `J`: one contiguous block per contact. (Stacked as rows of one
// (contacts (1 + tangent_dim)) x nv matrix, a contact's neighbouring entries lay thousands of
// doubles apart in a pile of 50 spheres, and copying the closed contacts' rows cost more than the
// products made of them.)
using ContactRows = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1>;  // up to a contact's 3 rows
struct ContactJacobians {
  ContactJacobians(const Model& model, const ContactModel& contacts);
  int rows_per_contact = 2;
  int nv = 0;
  Eigen::MatrixXd J;       // rows_per_contact x (contacts nv)
  Eigen::VectorXd Jdot_v;  // d/dt (J v) at fixed v [m/s^2], contact i from entry i rows_per_contact
  Eigen::Ref<const Eigen::MatrixXd> of(int i) const { return J.middleCols(static_cast<Eigen::Index>(i) * nv, nv); }
  Eigen::Ref<Eigen::MatrixXd> of(int i) { return J.middleCols(static_cast<Eigen::Index>(i) * nv, nv); }
  Eigen::Ref<const Eigen::VectorXd> jdot_v_of(int i) const {
    return Jdot_v.segment(i * rows_per_contact, rows_per_contact);
  }
  // J_n,i v [m/s]: contact i's normal velocity, > 0 separating. Equal to the bit to
  // of(i).row(0).dot(v): a strided row's dot product sums its terms in order, and from
  // kBlockwiseFrom velocities on only the terms of the contact's chain columns are summed (the
  // others are zeros), since an event asks this of every touching contact of a pile.
  double normal_velocity(int i, const Eigen::Ref<const Eigen::VectorXd>& v) const;
  // Rows [first, first + count) of J_i times v: equal to the bit to of(i).middleRows(first, count) * v.
  // From kBlockwiseFrom velocities on (and two rows or more: one row is Eigen's dot product) it reads
  // only the columns of the contact's two chains, summed in the order of Eigen's column-major
  // product, instead of a dense 3 x nv product per closed contact.
  ContactRows rows_times(int i, int first, int count, const Eigen::Ref<const Eigen::VectorXd>& v) const;
  // Rows [first, first + count) of J_i into `out` (count x nv), which must hold zeros outside the
  // contact's chain columns (a cleared matrix): only those columns are written, since a whole row
  // of a column-major matrix strides through all of it (a pile's force system: 100 rows x 300).
  void copy_rows(int i, int first, int count, Eigen::Ref<Eigen::MatrixXd> out) const;
  // Zeroes contact i's chain columns of `out` (any rows x nv): what copy_rows writes, cleared again.
  void clear_columns(int i, Eigen::Ref<Eigen::MatrixXd> out) const;
  // The columns where contact i's rows can be nonzero, those of its two bodies' chains to the
  // world: ascending (first, count) spans of joint velocities.
  std::vector<std::vector<std::pair<int, int>>> columns;
  // Scratch of the central difference for contacts that are not against a world halfspace.
  Kinematics kin_shift;
  Eigen::VectorXd q_shift;
  Eigen::MatrixXd J_shift;
  Eigen::VectorXd Jv_shift;  // J_shift v
  std::vector<Vec6> bias_acc;
  std::vector<int> numeric;  // the contacts of one call whose Jdot v is a central difference
};

// J of contact i at frame f, into the 1 + tangent_dim rows `out`. kin needs only poses.
void contact_jacobian(const Model& model, const Kinematics& kin, const ContactModel& contacts, int i,
                      const ContactFrame& f, Eigen::Ref<Eigen::MatrixXd> out);
// J of the contacts flagged in `need` (all if empty); the others' rows are left as they were.
void compute_contact_jacobians(const Model& model, const ContactModel& contacts, const Kinematics& kin,
                               const std::vector<ContactFrame>& frames, const std::vector<bool>& need,
                               ContactJacobians& out);
void compute_contact_jacobians(const Model& model, const ContactModel& contacts, const Kinematics& kin,
                               const std::vector<ContactFrame>& frames, const std::vector<int>& set,
                               ContactJacobians& out);
// Jdot v of the flagged contacts at the state of `body` (kin with velocities): exact against a
// world halfspace and between two spheres in 3-D, else by a central difference of J v along
// qdot = Gamma(q) v.
void compute_contact_jdot_v(const Model& model, const ContactModel& contacts, const BodyDynamics& body,
                            const std::vector<ContactFrame>& frames, const std::vector<bool>& need,
                            ContactJacobians& out);
void compute_contact_jdot_v(const Model& model, const ContactModel& contacts, const BodyDynamics& body,
                            const std::vector<ContactFrame>& frames, const std::vector<int>& set,
                            ContactJacobians& out);

// World position of contact i's feature centre on its body A (A a body).
Vec3 feature_point(const ContactModel& contacts, const Kinematics& kin, int i);

// The impact-law input for the contacts in `set` at body.M and the Jacobians given: their friction
// and restitution, the settings' friction cone, and their indices as ids. From kBlockwiseFrom
// velocities on it carries M's diagonal blocks, which the laws factor one by one (a pile of
// spheres: a block of 6 per sphere, not one dense matrix); below, M is dense to the laws, as the
// paper scenes' recorded outputs were computed.
ContactSpace contact_space(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                           const ContactJacobians& jac, const std::vector<int>& set);
// The same over the velocities of some of M's diagonal blocks alone (indices into
// body.M_llt.blocks(), in increasing order): M and the Jacobians restricted to them, and their
// blocks from kBlockwiseFrom velocities on. For contacts that move nothing else (an impact's
// island), it is the impact the whole space gives, at the cost of these bodies alone.
ContactSpace contact_space(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                           const ContactJacobians& jac, const std::vector<int>& set, const std::vector<int>& blocks);
// The velocities of those blocks, in order.
std::vector<int> block_columns(const BodyDynamics& body, const std::vector<int>& blocks);

// The contacts of `set` grouped by the trees they move (a tree is a diagonal block of M,
// body.M_llt's; a contact moves its two bodies' trees), joined through shared trees. Contacts of
// different islands share no velocity: W = J M^-1 J^T and a mode's force system have no entries
// between them, and each island's impact or forces are the whole's restricted to it. Each island
// lists positions in `set`, in set order, and its blocks in increasing order; the islands come in
// the order of their first contact. A contact that moves nothing leaves the set one island.
// The overload with `out` reuses the storage of its lists and scratch (the force system groups its
// rows at every evaluation).
struct ContactIslands {
  std::vector<std::vector<int>> contacts;
  std::vector<std::vector<int>> blocks;
  std::vector<int> parent, island_of;  // scratch: union-find over M's blocks, each root's island
  std::vector<bool> moved;             // scratch: the blocks some contact of the set moves
};
ContactIslands contact_islands(const BodyDynamics& body, const ContactJacobians& jac, const std::vector<int>& set);
// The contacts of `set` at an island's positions in it (an entry of ContactIslands::contacts).
std::vector<int> members(const std::vector<int>& set, const std::vector<int>& island);
void contact_islands(const BodyDynamics& body, const ContactJacobians& jac, const std::vector<int>& set,
                     ContactIslands& out);

// Every stage's output at one state, for callers that run the whole stage. `near` is the part of
// the contact set that can touch while it holds (collision/broadphase.hpp): every contact unless
// the event loop narrows it. The event stages look only at its contacts; the frames of the others
// are stale.
struct ContactData {
  ContactData(const Model& model, const ContactModel& contacts);
  BodyDynamics body;
  std::vector<ContactFrame> frames;
  ContactJacobians jac;
  Broadphase broadphase;
  NearSet near;
};

// Body dynamics and every frame at (q, v), then J and Jdot v of the contacts in `need` (all if empty).
void compute_contact_data(const Model& model, const ContactModel& contacts, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v, const std::vector<bool>& need, ContactData& data);

}  // namespace impactsim
