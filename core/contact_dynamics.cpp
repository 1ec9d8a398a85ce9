#include "core/contact_dynamics.hpp"

#include <algorithm>

#include <Eigen/QR>

#include "impact/friction_cone.hpp"
#include "impact/lcp.hpp"

namespace impactsim {
namespace {

// Unit slip direction of a sliding contact: its tangential velocity while that still points the
// way the phase started (in 3-D the slip may turn), else the phase's own direction. Past the
// slip-to-stick guard (u_t . s = 0) the force must not flip, or the integrator's trial stages
// would see the other sliding direction, perhaps a Painleve one, and never reach the guard.
TangentVector slip_direction(const TangentVector& u_t, const Eigen::Vector2d& phase, double tiny) {
  const TangentVector s = phase.head(u_t.size());
  const double n = u_t.norm();
  if (u_t.size() > 1 && n > tiny && u_t.dot(s) > 0) return u_t / n;
  return s;
}

// Adds sign * (the contact frame's components of the velocity of world point x fixed to `body`)
// to the columns of J, without forming the point's 6 x nv Jacobian.
void add_point_rows(const Model& model, const Kinematics& kin, int body, const Vec3& x, double sign,
                    const ContactFrame& f, bool planar, Eigen::Ref<Eigen::MatrixXd> J) {
  for (int j = body; j >= 0; j = model.bodies[j].parent) {
    const Joint& joint = model.bodies[j].joint;
    for (int k = 0; k < joint.nv; ++k) {
      const Vec3 lin = point_jacobian_column(kin, j, k, x).tail<3>();
      const int col = joint.v_index + k;
      J(0, col) += sign * f.normal.dot(lin);
      J(1, col) += sign * f.tangent1.dot(lin);
      if (!planar) J(2, col) += sign * f.tangent2.dot(lin);
    }
  }
}

}  // namespace

void contact_jacobian(const Model& model, const Kinematics& kin, const ContactModel& contacts, int i,
                      const ContactFrame& f, Eigen::Ref<Eigen::MatrixXd> J) {
  const ContactDef& c = contacts.contact(i);
  J.setZero();
  if (c.body_a >= 0) add_point_rows(model, kin, c.body_a, f.point_a, 1.0, f, contacts.planar(), J);
  const int b = contacts.body_b(i);
  if (b >= 0) add_point_rows(model, kin, b, f.point_b, -1.0, f, contacts.planar(), J);
}

int ContactModes::closed() const {
  int n = 0;
  for (ContactMode m : mode) n += m != ContactMode::open;
  return n;
}

ContactDynamics::ContactDynamics(const Model& model, const ContactModel& contacts, const ContactSettings& settings)
    : model_(model), contacts_(contacts), settings_(settings), broadphase_(contacts, settings.broadphase_margin),
      td_(contacts.tangent_dim()), kin_(model),
      kin_shift_(model), fd_M_(model.nv, model.nv), C_(model.nv), llt_(model.nv),
      frames_(contacts.size()), J_(Eigen::MatrixXd::Zero(contacts.size() * (1 + contacts.tangent_dim()), model.nv)),
      Jdot_v_(Eigen::VectorXd::Zero(contacts.size() * (1 + contacts.tangent_dim()))), q_shift_(model.nq),
      J_shift_(1 + contacts.tangent_dim(), model.nv) {
  closed_.reserve(contacts.size());
  bias_acc_.assign(model.bodies.size(), Vec6::Zero());
  for (int i = 0; i < contacts.size(); ++i) {
    const ContactDef& c = contacts.contact(i);
    const Geometry& g = contacts.geometries()[c.geometry_b];
    on_static_halfspace_.push_back(c.body_a >= 0 && g.body < 0 && g.shape.type == ShapeType::halfspace);
  }
}

void ContactDynamics::update_frames(const Eigen::VectorXd& q) {
  update_kinematics(model_, q, kin_);
  broadphase_.update(kin_.R, kin_.p, frames_);
}

void ContactDynamics::update(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const std::vector<bool>& need) {
  update_dynamics(q, v);
  update_jacobians(need, true);
}

void ContactDynamics::update_dynamics(const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool frames) {
  q_ = q;
  v_ = v;
  update_kinematics(model_, q, kin_);
  update_velocities(model_, q, v, kin_);
  mass_matrix(model_, kin_, composite_, fd_M_);
  bias_forces(model_, kin_, acc_, force_, C_);
  llt_.compute(fd_M_);
  if (frames)
    for (int i = 0; i < contacts_.size(); ++i) frames_[i] = contacts_.frame(kin_.R, kin_.p, i);
}

void ContactDynamics::update_jacobians(const std::vector<bool>& need, bool jdot) {
  const int r = 1 + td_, m = contacts_.size();
  for (int i = 0; i < m; ++i)
    if (need.empty() || need[i]) contact_jacobian(model_, kin_, contacts_, i, frames_[i], J_.middleRows(i * r, r));
  const bool moving = v_.cwiseAbs().maxCoeff() > 0;
  if (!jdot) return;
  if (!moving) {
    Jdot_v_.setZero();
    return;
  }
  bool numeric = false, bias_ready = false;
  for (int i = 0; i < m; ++i) {
    if (!need.empty() && !need[i]) continue;
    if (!on_static_halfspace_[i]) {
      numeric = true;
      continue;
    }
    if (!bias_ready) update_bias_accelerations();
    bias_ready = true;
    analytic_jdot_v(i, Jdot_v_.segment(i * r, r));
  }
  if (!numeric) return;
  // Other contacts: d/dt (J v) at fixed v, by a central difference along qdot = Gamma v.
  const double h = 1e-6 / std::max(1.0, v_.cwiseAbs().maxCoeff());
  for (int sign : {1, -1}) {
    integrate_configuration(model_, q_, v_, sign * h, q_shift_);
    update_kinematics(model_, q_shift_, kin_shift_);
    for (int i = 0; i < m; ++i) {
      if ((!need.empty() && !need[i]) || on_static_halfspace_[i]) continue;
      contact_jacobian(model_, kin_shift_, contacts_, i, contacts_.frame(kin_shift_.R, kin_shift_.p, i), J_shift_);
      if (sign > 0) Jdot_v_.segment(i * r, r).noalias() = J_shift_ * v_;
      else Jdot_v_.segment(i * r, r) = (Jdot_v_.segment(i * r, r) - J_shift_ * v_) / (2 * h);
    }
  }
}

void ContactDynamics::update_bias_accelerations() {
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    const int parent = model_.bodies[b].parent;
    bias_acc_[b] = parent < 0 ? kin_.c[b] : Vec6(kin_.X_parent[b].apply_motion(bias_acc_[parent]) + kin_.c[b]);
  }
}

// Against a world halfspace the frame (n, t) is constant, and the contact point is the feature's
// centre plus d = -radius n, fixed in the world's directions. So d/dt (J v) at fixed v is the
// frame's components of the centre's classical acceleration plus alpha x d, from the bodies'
// velocity-product accelerations: a = R [a_o + alpha x r + omega x (v_o + omega x r)] (body
// coordinates, r the centre; Featherstone, Rigid Body Dynamics Algorithms, §2.11).
void ContactDynamics::analytic_jdot_v(int i, Eigen::Ref<Eigen::VectorXd> out) const {
  const ContactDef& c = contacts_.contact(i);
  const ContactFrame& f = frames_[i];
  const int b = c.body_a;
  const Vec3 omega = kin_.v[b].head<3>(), v_o = kin_.v[b].tail<3>();
  const Vec3 alpha = bias_acc_[b].head<3>(), a_o = bias_acc_[b].tail<3>();
  const Vec3 r = c.point;
  const Vec3 a_centre = kin_.R[b] * (a_o + alpha.cross(r) + omega.cross(v_o + omega.cross(r)));
  const Vec3 a = a_centre + (kin_.R[b] * alpha).cross(-c.radius * f.normal);
  out[0] = f.normal.dot(a);
  out[1] = f.tangent1.dot(a);
  if (!contacts_.planar()) out[2] = f.tangent2.dot(a);
}

ContactSpace ContactDynamics::contact_space(const std::vector<int>& set) const {
  const int n = static_cast<int>(set.size());
  ContactSpace c;
  c.M = fd_M_;
  c.tangent_dim = td_;
  c.friction_directions = settings_.friction_directions;
  c.J_n.resize(n, model_.nv);
  c.J_t.resize(n * td_, model_.nv);
  c.ids = set;
  c.mu.resize(n);
  c.e.resize(n);
  for (int a = 0; a < n; ++a) {
    c.J_n.row(a) = J(set[a]).row(0);
    c.J_t.middleRows(a * td_, td_) = J(set[a]).bottomRows(td_);
    c.mu[a] = contacts_.contact(set[a]).mu;
    c.e[a] = contacts_.contact(set[a]).e;
  }
  return c;
}

void ContactDynamics::force_rows(const ContactModes& modes) {
  // One normal row per closed contact, then tangent rows of sticking ones.
  int rows = static_cast<int>(closed_.size());
  for (int i : closed_) rows += modes.mode[i] == ContactMode::stick ? td_ : 0;
  G_.resize(rows, model_.nv);
  int row = static_cast<int>(closed_.size());
  for (size_t a = 0; a < closed_.size(); ++a) {
    const int i = closed_[a];
    const auto Ji = J(i);
    G_.row(a) = Ji.row(0);
    if (modes.mode[i] == ContactMode::slide) {
      const TangentVector s = slip_direction(Ji.bottomRows(td_) * v_, modes.slip[i], 1e-12);
      G_.row(a) -= contacts_.contact(i).mu * s.transpose() * Ji.bottomRows(td_);
    } else {
      G_.middleRows(row, td_) = Ji.bottomRows(td_);
      row += td_;
    }
  }
}

bool ContactDynamics::forward(const ContactModes& modes, Eigen::VectorXd& vdot, Eigen::VectorXd& lambda_n,
                              Eigen::MatrixXd& lambda_t) {
  if (llt_.info() != Eigen::Success) return false;
  const int m = contacts_.size();
  lambda_n.setZero(m);
  lambda_t.setZero(m, td_);
  vdot = -C_;
  llt_.solveInPlace(vdot);
  closed_.clear();
  for (int i = 0; i < m; ++i)
    if (modes.mode[i] != ContactMode::open) closed_.push_back(i);
  if (closed_.empty()) return true;

  force_rows(modes);
  const int rows = static_cast<int>(G_.rows());
  Jc_.resize(rows, model_.nv);
  target_.resize(rows);
  const double a = settings_.baumgarte;
  int row = static_cast<int>(closed_.size());
  for (size_t k = 0; k < closed_.size(); ++k) {
    const int i = closed_[k];
    const auto Ji = J(i);
    const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1> u = Ji * v_;
    Jc_.row(k) = Ji.row(0);
    target_[k] = -Jdot_v(i)[0] - 2 * a * u[0] - a * a * frames_[i].phi;
    if (modes.mode[i] == ContactMode::stick) {
      Jc_.middleRows(row, td_) = Ji.bottomRows(td_);
      target_.segment(row, td_) = -Jdot_v(i).tail(td_) - 2 * a * u.tail(td_);
      row += td_;
    }
  }
  Minv_GT_ = G_.transpose();
  llt_.solveInPlace(Minv_GT_);
  A_.noalias() = Jc_ * Minv_GT_;
  target_.noalias() -= Jc_ * vdot;
  // With every closed contact sticking A is symmetric positive semi-definite; Cholesky serves
  // while it is well conditioned. Redundant contacts (a block on four corners) make A singular:
  // then take the least-norm forces.
  bool solved = false;
  if (G_.rows() == Jc_.rows() && G_ == Jc_) {
    ldlt_.compute(A_);
    const auto d = ldlt_.vectorD();
    if (ldlt_.info() == Eigen::Success && d.minCoeff() > 1e-10 * std::max(1.0, d.maxCoeff())) {
      lambda_ = ldlt_.solve(target_);
      solved = true;
    }
  }
  if (!solved) {
    cod_.compute(A_);
    lambda_ = cod_.solve(target_);
  }
  vdot.noalias() += Minv_GT_ * lambda_;
  row = static_cast<int>(closed_.size());
  for (size_t k = 0; k < closed_.size(); ++k) {
    const int i = closed_[k];
    lambda_n[i] = lambda_[k];
    if (modes.mode[i] == ContactMode::stick) {
      lambda_t.row(i) = lambda_.segment(row, td_).transpose();
      row += td_;
    } else {
      const TangentVector s = slip_direction(J(i).bottomRows(td_) * v_, modes.slip[i], 1e-12);
      lambda_t.row(i) = -contacts_.contact(i).mu * lambda_[k] * s.transpose();
    }
  }
  return true;
}

// The acceleration-level LCP (Pfeiffer and Glocker; Trinkle et al.): normal forces complementary
// to normal accelerations; sticking candidates get polyhedral friction with the same encoding as
// the impact LCP (Halm and Posa eq. (32)-(33)); sliding ones carry -mu lambda_n along their slip.
bool ContactDynamics::select_modes(const std::vector<int>& candidates, const std::vector<bool>& prefer_open,
                                   const std::vector<bool>& prefer_slide, ContactModes& modes, std::string& diagnostic) {
  const int m = contacts_.size();
  modes.mode.assign(m, ContactMode::open);
  modes.slip.resize(m, Eigen::Vector2d::UnitX());
  if (candidates.empty()) return true;
  if (llt_.info() != Eigen::Success) {
    diagnostic = "the mass matrix is not positive definite";
    return false;
  }
  const int nc = static_cast<int>(candidates.size());
  std::vector<int> stick;
  ContactModes trial = modes;
  for (int i : candidates) {
    const Eigen::VectorXd u_t = J(i).bottomRows(td_) * v_;
    if (u_t.norm() <= settings_.velocity_tolerance) {
      trial.mode[i] = ContactMode::stick;
      stick.push_back(i);
    } else {
      trial.mode[i] = ContactMode::slide;
      trial.slip[i].head(td_) = u_t.normalized();
    }
  }
  // Friction cone of the sticking candidates.
  ContactSpace cs;
  cs.M = fd_M_;
  cs.tangent_dim = td_;
  cs.friction_directions = settings_.friction_directions;
  cs.J_n.resize(static_cast<int>(stick.size()), model_.nv);
  cs.J_t.resize(static_cast<int>(stick.size()) * td_, model_.nv);
  Eigen::VectorXd Jdot_t(static_cast<int>(stick.size()) * td_);
  for (size_t a = 0; a < stick.size(); ++a) {
    cs.J_n.row(a) = J(stick[a]).row(0);
    cs.J_t.middleRows(a * td_, td_) = J(stick[a]).bottomRows(td_);
    Jdot_t.segment(a * td_, td_) = Jdot_v(stick[a]).tail(td_);
  }
  const FrictionCone cone = linearize_friction(cs);
  const int ns = static_cast<int>(stick.size()), nk = ns * cone.k;

  Eigen::MatrixXd Jn(nc, model_.nv), Gn(nc, model_.nv);
  Eigen::VectorXd Jdot_n(nc);
  for (int a = 0; a < nc; ++a) {
    const int i = candidates[a];
    Jn.row(a) = J(i).row(0);
    Gn.row(a) = J(i).row(0);
    if (trial.mode[i] == ContactMode::slide)
      Gn.row(a) -= contacts_.contact(i).mu * trial.slip[i].head(td_).transpose() * J(i).bottomRows(td_);
    Jdot_n[a] = Jdot_v(i)[0];
  }
  Eigen::MatrixXd rows(nc + nk, model_.nv), forces(nc + nk, model_.nv);
  rows << Jn, cone.J_D;
  forces << Gn, cone.J_D;
  const Eigen::MatrixXd Minv_FT = llt_.solve(forces.transpose());
  const Eigen::VectorXd vfree = llt_.solve(-C_);
  const int n = nc + nk + ns;
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  W.topLeftCorner(nc + nk, nc + nk) = rows * Minv_FT;
  W.block(nc, nc + nk, nk, ns) = cone.E;
  W.block(nc + nk, nc, ns, nk) = -cone.E.transpose();
  for (int s = 0; s < ns; ++s) {
    const int a = static_cast<int>(std::find(candidates.begin(), candidates.end(), stick[s]) - candidates.begin());
    W(nc + nk + s, a) = contacts_.contact(stick[s]).mu;
  }
  w.head(nc) = Jn * vfree + Jdot_n;
  for (int s = 0; s < ns; ++s)
    w.segment(nc + s * cone.k, cone.k) =
        cone.J_D.middleRows(s * cone.k, cone.k) * vfree + cone.D.transpose() * Jdot_t.segment(s * td_, td_);

  const LcpSolution sol = solve_lemke(W, w);
  if (!sol.ok()) {
    diagnostic = "contact force LCP with " + std::to_string(n) + " variables: " + describe(sol.status);
    return false;
  }
  const double accel_tol = 1e-9 * (1.0 + w.cwiseAbs().maxCoeff());
  const double force_tol = 1e-9 * (1.0 + sol.z.head(nc).cwiseAbs().maxCoeff());
  const Eigen::VectorXd vdot = vfree + Minv_FT * sol.z.head(nc + nk);
  modes = trial;
  for (int a = 0; a < nc; ++a) {
    const int i = candidates[a];
    const bool unloaded = sol.z[a] <= force_tol;
    if (sol.slack[a] > accel_tol || (unloaded && !prefer_open.empty() && prefer_open[i])) {
      modes.mode[i] = ContactMode::open;  // accelerates away, or its load just reached zero: lift-off
      continue;
    }
    const auto sit = std::find(stick.begin(), stick.end(), i);
    if (sit == stick.end()) continue;
    const int s = static_cast<int>(sit - stick.begin());
    const Eigen::VectorXd a_t = J(i).bottomRows(td_) * vdot + Jdot_v(i).tail(td_);
    const Eigen::VectorXd friction = cone.D * sol.z.segment(nc + s * cone.k, cone.k);
    if (sol.z[nc + nk + s] > accel_tol && a_t.norm() > accel_tol) {
      // At the cone's edge with a sliding acceleration: slip starts along the tangential acceleration.
      modes.mode[i] = ContactMode::slide;
      modes.slip[i].head(td_) = a_t.normalized();
    } else if (!prefer_slide.empty() && prefer_slide[i] && friction.norm() > force_tol) {
      // Friction just reached the cone's edge: slip starts against the friction force.
      modes.mode[i] = ContactMode::slide;
      modes.slip[i].head(td_) = -friction.normalized();
    }
  }
  return true;
}

}  // namespace impactsim
