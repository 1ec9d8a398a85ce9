#include "core/contact_dynamics.hpp"

#include <algorithm>

#include <Eigen/QR>

#include "impact/friction_cone.hpp"
#include "impact/lcp.hpp"

namespace impactsim {
namespace {

void shift_configuration(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt,
                         Eigen::VectorXd& out) {
  for (const Body& b : model.bodies)
    joint_integrate(b.joint, q.data() + b.joint.q_index, v.data() + b.joint.v_index, dt, out.data() + b.joint.q_index);
}

// Unit slip direction of a sliding contact: its tangential velocity while that still points the
// way the phase started (in 3-D the slip may turn), else the phase's own direction. Past the
// slip-to-stick guard (u_t . s = 0) the force must not flip, or the integrator's trial stages
// would see the other sliding direction, perhaps a Painleve one, and never reach the guard.
Eigen::VectorXd slip_direction(const Eigen::VectorXd& u_t, const Eigen::Vector2d& phase, double tiny) {
  const Eigen::VectorXd s = phase.head(u_t.size());
  const double n = u_t.norm();
  if (u_t.size() > 1 && n > tiny && u_t.dot(s) > 0) return u_t / n;
  return s;
}

}  // namespace

void contact_jacobian(const Model& model, const Kinematics& kin, const ContactModel& contacts, int i,
                      const ContactFrame& f, Eigen::Ref<Eigen::MatrixXd> J) {
  const ContactDef& c = contacts.contact(i);
  Eigen::Matrix<double, 3, Eigen::Dynamic> rel = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, model.nv);
  if (c.body_a >= 0)
    rel += point_jacobian(model, kin, c.body_a, kin.R[c.body_a].transpose() * (f.point_a - kin.p[c.body_a])).bottomRows<3>();
  const int b = contacts.body_b(i);
  if (b >= 0) rel -= point_jacobian(model, kin, b, kin.R[b].transpose() * (f.point_b - kin.p[b])).bottomRows<3>();
  J.row(0) = f.normal.transpose() * rel;
  J.row(1) = f.tangent1.transpose() * rel;
  if (!contacts.planar()) J.row(2) = f.tangent2.transpose() * rel;
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
      Jdot_v_(Eigen::VectorXd::Zero(contacts.size() * (1 + contacts.tangent_dim()))) {}

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
  const bool any = need.empty() ? m > 0 : std::find(need.begin(), need.end(), true) != need.end();
  if (!jdot) return;
  if (!moving || !any) {
    Jdot_v_.setZero();
    return;
  }
  // d/dt (J v) at fixed v, by a central difference along qdot = Gamma v.
  const double h = 1e-6 / std::max(1.0, v_.cwiseAbs().maxCoeff());
  Eigen::VectorXd q_shift(q_.size());
  Eigen::MatrixXd Jp(r, model_.nv), Jm(r, model_.nv);
  for (int sign : {1, -1}) {
    shift_configuration(model_, q_, v_, sign * h, q_shift);
    update_kinematics(model_, q_shift, kin_shift_);
    for (int i = 0; i < m; ++i) {
      if (!need.empty() && !need[i]) continue;
      contact_jacobian(model_, kin_shift_, contacts_, i, contacts_.frame(kin_shift_.R, kin_shift_.p, i), sign > 0 ? Jp : Jm);
      if (sign > 0) Jdot_v_.segment(i * r, r) = Jp * v_;
      else Jdot_v_.segment(i * r, r) = (Jdot_v_.segment(i * r, r) - Jm * v_) / (2 * h);
    }
  }
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

Eigen::MatrixXd ContactDynamics::force_rows(const ContactModes& modes, const std::vector<int>& closed) const {
  // One normal row per closed contact, then tangent rows of sticking ones.
  int rows = static_cast<int>(closed.size());
  for (int i : closed) rows += modes.mode[i] == ContactMode::stick ? td_ : 0;
  Eigen::MatrixXd G(rows, model_.nv);
  int row = static_cast<int>(closed.size());
  for (size_t a = 0; a < closed.size(); ++a) {
    const int i = closed[a];
    const auto Ji = J(i);
    G.row(a) = Ji.row(0);
    if (modes.mode[i] == ContactMode::slide) {
      const Eigen::VectorXd s = slip_direction(Ji.bottomRows(td_) * v_, modes.slip[i], 1e-12);
      G.row(a) -= contacts_.contact(i).mu * s.transpose() * Ji.bottomRows(td_);
    } else {
      G.middleRows(row, td_) = Ji.bottomRows(td_);
      row += td_;
    }
  }
  return G;
}

bool ContactDynamics::forward(const ContactModes& modes, Eigen::VectorXd& vdot, Eigen::VectorXd& lambda_n,
                              Eigen::MatrixXd& lambda_t) {
  if (llt_.info() != Eigen::Success) return false;
  const int m = contacts_.size();
  lambda_n.setZero(m);
  lambda_t.setZero(m, td_);
  vdot = -C_;
  llt_.solveInPlace(vdot);
  if (modes.closed() == 0) return true;
  std::vector<int> closed;
  for (int i = 0; i < m; ++i)
    if (modes.mode[i] != ContactMode::open) closed.push_back(i);

  const Eigen::MatrixXd G = force_rows(modes, closed);
  const int rows = static_cast<int>(G.rows());
  Eigen::MatrixXd Jc(rows, model_.nv);
  Eigen::VectorXd target(rows);
  const double a = settings_.baumgarte;
  int row = static_cast<int>(closed.size());
  for (size_t k = 0; k < closed.size(); ++k) {
    const int i = closed[k];
    const auto Ji = J(i);
    const Eigen::VectorXd u = Ji * v_;
    Jc.row(k) = Ji.row(0);
    target[k] = -Jdot_v(i)[0] - 2 * a * u[0] - a * a * frames_[i].phi;
    if (modes.mode[i] == ContactMode::stick) {
      Jc.middleRows(row, td_) = Ji.bottomRows(td_);
      target.segment(row, td_) = -Jdot_v(i).tail(td_) - 2 * a * u.tail(td_);
      row += td_;
    }
  }
  const Eigen::MatrixXd Minv_GT = llt_.solve(G.transpose());
  const Eigen::MatrixXd A = Jc * Minv_GT;
  // Redundant contacts (a block on four corners) make A singular: take the least-norm forces.
  const Eigen::VectorXd lambda = A.completeOrthogonalDecomposition().solve(target - Jc * vdot);
  vdot += Minv_GT * lambda;
  row = static_cast<int>(closed.size());
  for (size_t k = 0; k < closed.size(); ++k) {
    const int i = closed[k];
    lambda_n[i] = lambda[k];
    if (modes.mode[i] == ContactMode::stick) {
      lambda_t.row(i) = lambda.segment(row, td_).transpose();
      row += td_;
    } else {
      const Eigen::VectorXd s = slip_direction(J(i).bottomRows(td_) * v_, modes.slip[i], 1e-12);
      lambda_t.row(i) = -contacts_.contact(i).mu * lambda[k] * s.transpose();
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
