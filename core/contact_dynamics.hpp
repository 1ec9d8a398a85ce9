#pragma once
// Dynamics with sustained contact, "fixed mode per phase" (Pfeiffer and Glocker; see the event-loop
// design notes): at each event the acceleration-level LCP picks every closed contact's mode (stick,
// or slide along a direction); between events the mode is held and the smooth ODE
//   M vdot = tau - C + sum_i G_i^T lambda_i
// is integrated with the closed contacts' accelerations held at a_n = a_t(stick) = 0 plus Baumgarte
// terms that pull phi and the constrained velocities back to zero. A sliding contact's friction is
// -mu lambda_n along its current slip direction, so G_n,i = J_n,i - mu s_i^T J_t,i.
// Signs as in collision/contact.hpp: J_n v > 0 separates, lambda_n >= 0 pushes A away from B.
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "collision/broadphase.hpp"
#include "collision/contact.hpp"
#include "core/dynamics.hpp"
#include "impact/impact_law.hpp"

namespace impactsim {

enum class ContactMode { open, stick, slide };

// Tangential components of one contact: 1 (planar) or 2 (3-D), without heap storage.
using TangentVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 2, 1>;

struct ContactSettings {
  double distance_tolerance = 1e-6;   // [m] |phi| below this counts as touching
  double velocity_tolerance = 1e-6;   // [m/s] |J v| below this counts as at rest
  double baumgarte = 20.0;            // [1/s] rate at which drift of closed contacts decays
  double v_zeno = 1e-3;               // [m/s] impacts slower than this are plastic and close the contact
  bool detect_rest = true;            // at rest after an event (see hybrid.hpp): skip to t_end
  long max_events = 100000;           // events before the run stops with an error
  double broadphase_margin = 0.05;    // [m] contacts whose bound on phi exceeds this are not computed exactly
  int friction_directions = 8;        // k of the polyhedral friction cone in 3-D
};

struct ContactModes {
  std::vector<ContactMode> mode;      // one per contact
  std::vector<Eigen::Vector2d> slip;  // unit slip direction in tangent coordinates (sliding contacts)
  int closed() const;
};

// Rows [J_n; J_t] of contact i at frame f: the relative velocity of A's contact point with respect
// to B's, in the frame's normal and tangent components. Needs update_kinematics.
void contact_jacobian(const Model& model, const Kinematics& kin, const ContactModel& contacts, int i,
                      const ContactFrame& f, Eigen::Ref<Eigen::MatrixXd> J);

class ContactDynamics {
 public:
  ContactDynamics(const Model& model, const ContactModel& contacts, const ContactSettings& settings);

  // Kinematics, M, C and every contact's frame at (q, v). Jacobians and Jdot v of the contacts
  // flagged in `need` (all if empty). The stages below do parts of it, for callers that need less.
  void update(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const std::vector<bool>& need = {});
  // phi at q, through the broadphase: exact frames for contacts within its margin, a positive lower
  // bound on phi for the others. All an open contact's guard needs.
  void update_frames(const Eigen::VectorXd& q);
  // Kinematics, M, C and (with frames) every contact's frame at (q, v), no Jacobians.
  void update_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool frames = true);
  // Jacobians (and, with jdot, Jdot v) of the flagged contacts at the last update_dynamics.
  void update_jacobians(const std::vector<bool>& need, bool jdot);

  int rows_per_contact() const { return 1 + td_; }
  const ContactFrame& frame(int i) const { return frames_[i]; }
  // J_i (1 + tangent_dim rows) and d/dt(J_i) v at the last update.
  Eigen::Ref<const Eigen::MatrixXd> J(int i) const { return J_.middleRows(i * (1 + td_), 1 + td_); }
  Eigen::Ref<const Eigen::VectorXd> Jdot_v(int i) const { return Jdot_v_.segment(i * (1 + td_), 1 + td_); }
  const Eigen::MatrixXd& M() const { return fd_M_; }
  // C(q, v) at the last update: gravity, Coriolis and centrifugal terms (M vdot = tau - C + ...).
  const Eigen::VectorXd& C() const { return C_; }
  // World position of contact i's feature centre on its body A at the last update (A a body).
  Vec3 feature_point(int i) const {
    const ContactDef& c = contacts_.contact(i);
    return kin_.p[c.body_a] + kin_.R[c.body_a] * c.point;
  }

  // The impact-law input for the contacts in `set` (their Jacobians must be up to date), with the
  // contacts' friction and restitution and their scene indices as ids.
  ContactSpace contact_space(const std::vector<int>& set) const;

  // vdot in a fixed mode, and each contact's normal force and tangential force (tangent
  // coordinates). Returns false if M is singular.
  bool forward(const ContactModes& modes, Eigen::VectorXd& vdot, Eigen::VectorXd& lambda_n, Eigen::MatrixXd& lambda_t);

  // The mode of each candidate contact (the others are open) by the acceleration LCP. Returns false
  // if that LCP has no solution (Painleve): the caller resolves an impact without collision.
  // At a lift-off or stick-slip event the LCP sits on its boundary (lambda_n = a_n = 0, or friction
  // on the cone's edge with zero slip acceleration); prefer_open / prefer_slide say which way the
  // guard crossed, so the mode changes instead of the event firing again at once.
  bool select_modes(const std::vector<int>& candidates, const std::vector<bool>& prefer_open,
                    const std::vector<bool>& prefer_slide, ContactModes& modes, std::string& diagnostic);

 private:
  // Spatial accelerations of the bodies at vdot = 0 (body coordinates), from the last update.
  void update_bias_accelerations();
  // d/dt (J_i v) of a contact against a world halfspace, exactly; needs update_bias_accelerations.
  void analytic_jdot_v(int i, Eigen::Ref<Eigen::VectorXd> out) const;
  // G_: the force directions of the closed_ contacts in `modes`.
  void force_rows(const ContactModes& modes);

  const Model& model_;
  const ContactModel& contacts_;
  ContactSettings settings_;
  Broadphase broadphase_;
  int td_;
  Kinematics kin_, kin_shift_;
  std::vector<Mat6> composite_;
  std::vector<Vec6> acc_, force_;
  Eigen::MatrixXd fd_M_;
  Eigen::VectorXd C_, q_, v_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  std::vector<ContactFrame> frames_;
  Eigen::MatrixXd J_;
  Eigen::VectorXd Jdot_v_;
  // Workspace of update_jacobians and forward, kept so the per-step path does not allocate.
  Eigen::VectorXd q_shift_, target_, lambda_;
  Eigen::MatrixXd J_shift_, G_, Jc_, Minv_GT_, A_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;
  std::vector<int> closed_;
  std::vector<Vec6> bias_acc_;
  std::vector<bool> on_static_halfspace_;  // per contact: A a body, B a world halfspace
};

}  // namespace impactsim
