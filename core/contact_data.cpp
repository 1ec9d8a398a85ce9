#include "core/contact_data.hpp"

#include <algorithm>

namespace impactsim {
namespace {

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

// A contact whose first body is a body and whose solid is a world halfspace: its Jdot v is exact.
bool on_static_halfspace(const ContactModel& contacts, int i) {
  const ContactDef& c = contacts.contact(i);
  const Geometry& g = contacts.geometries()[c.geometry_b];
  // A shape pair's contact point moves over its shape (a rim rolling): not the fixed feature below.
  return c.body_a >= 0 && c.geometry_a < 0 && g.body < 0 && g.shape.type == ShapeType::halfspace;
}

// Spatial accelerations of the bodies at vdot = 0 (body coordinates).
void bias_accelerations(const Model& model, const Kinematics& kin, std::vector<Vec6>& out) {
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const int parent = model.bodies[b].parent;
    out[b] = parent < 0 ? kin.c[b] : Vec6(kin.X_parent[b].apply_motion(out[parent]) + kin.c[b]);
  }
}

// A sphere's centre and its body's motion in world coordinates, and their rates at fixed v.
struct CentreMotion {
  Vec3 velocity = Vec3::Zero(), acceleration = Vec3::Zero();  // the centre's [m/s], [m/s^2]
  Vec3 omega = Vec3::Zero(), alpha = Vec3::Zero();            // the body's [rad/s], [rad/s^2]
};

// Centre r (body coordinates) moves at R (v_o + omega x r) and accelerates at
// R [a_o + alpha x r + omega x (v_o + omega x r)] from the bodies' velocity-product accelerations
// (Featherstone, Rigid Body Dynamics Algorithms, §2.11). The world's stand still.
CentreMotion centre_motion(const Kinematics& kin, const std::vector<Vec6>& bias_acc, int body, const Vec3& r) {
  CentreMotion m;
  if (body < 0) return m;
  const Mat3& R = kin.R[body];
  const Vec3 omega = kin.v[body].head<3>(), v_o = kin.v[body].tail<3>();
  const Vec3 alpha = bias_acc[body].head<3>(), a_o = bias_acc[body].tail<3>();
  m.velocity = R * (v_o + omega.cross(r));
  m.acceleration = R * (a_o + alpha.cross(r) + omega.cross(v_o + omega.cross(r)));
  m.omega = R * omega;
  m.alpha = R * alpha;
  return m;
}

// Against a world halfspace the frame (n, t) is constant, and the contact point is the feature's
// centre plus d = -radius n, fixed in the world's directions. So d/dt (J v) at fixed v is the
// frame's components of the centre's classical acceleration plus alpha x d.
void halfspace_jdot_v(const ContactModel& contacts, const Kinematics& kin, const std::vector<Vec6>& bias_acc, int i,
                      const ContactFrame& f, Eigen::Ref<Eigen::VectorXd> out) {
  const ContactDef& c = contacts.contact(i);
  const CentreMotion centre = centre_motion(kin, bias_acc, c.body_a, c.point);
  const Vec3 a = centre.acceleration + centre.alpha.cross(-c.radius * f.normal);
  out[0] = f.normal.dot(a);
  out[1] = f.tangent1.dot(a);
  if (!contacts.planar()) out[2] = f.tangent2.dot(a);
}

// A 3-D contact between two spheres, or a sphere or vertex feature on A and a sphere on B (a
// pile's pairs: collide: all makes a sphere on A such a feature): its Jdot v has the closed form of
// sphere_pair_jdot_v. Planar pairs turn the normal into the plane: left to the central difference.
bool sphere_pair(const ContactModel& contacts, int i) {
  const ContactDef& c = contacts.contact(i);
  const std::vector<Geometry>& g = contacts.geometries();
  if (contacts.planar() || g[c.geometry_b].shape.type != ShapeType::sphere) return false;
  return c.geometry_a < 0 || g[c.geometry_a].shape.type == ShapeType::sphere;
}

// Spheres A (radius r_a, 0 for a vertex) and B (r_b) in the frame collision/contact.cpp gives
// them: n from B's centre to A's, points c_a - r_a n and c_b + r_b n, tangent1 the unit part of
// tangent_seed(n) normal to n, tangent2 = n x tangent1. Row e of J v is e . (v_pa - v_pb), so
// d/dt (J v) at fixed v is de/dt . (v_pa - v_pb) + e . d/dt (v_pa - v_pb), with
// dn/dt = (I - n n^T)(v_ca - v_cb) / |c_a - c_b| and the tangents' rates from n's.
void sphere_pair_jdot_v(const ContactModel& contacts, const Kinematics& kin, const std::vector<Vec6>& bias_acc, int i,
                        const ContactFrame& f, Eigen::Ref<Eigen::VectorXd> out) {
  const ContactDef& c = contacts.contact(i);
  const Geometry& gb = contacts.geometries()[c.geometry_b];
  const CentreMotion b = centre_motion(kin, bias_acc, gb.body, gb.shape.position);
  const double r_b = gb.shape.radius;
  // A's sphere: a shape pair's geometry, else the feature (its radius 0 for a vertex).
  const Geometry* ga = c.geometry_a >= 0 ? &contacts.geometries()[c.geometry_a] : nullptr;
  const CentreMotion a = ga ? centre_motion(kin, bias_acc, ga->body, ga->shape.position)
                            : centre_motion(kin, bias_acc, c.body_a, c.point);
  const double r_a = ga ? ga->shape.radius : c.radius;
  const Vec3& n = f.normal;
  const double length = f.phi + r_a + r_b;  // |c_a - c_b|
  const Vec3 u = a.velocity - b.velocity;
  // Centres that coincide have no normal to turn (collision/ gives them a fixed one).
  const Vec3 n_dot = length > 0 ? Vec3((u - n.dot(u) * n) / length) : Vec3::Zero();
  const Vec3 dv = a.velocity - r_a * a.omega.cross(n) - (b.velocity + r_b * b.omega.cross(n));
  const Vec3 dv_dot = a.acceleration - r_a * (a.alpha.cross(n) + a.omega.cross(n_dot)) -
                      (b.acceleration + r_b * (b.alpha.cross(n) + b.omega.cross(n_dot)));
  const Vec3 seed = tangent_seed(n);
  const Vec3 w = seed - seed.dot(n) * n;
  const Vec3 w_dot = -seed.dot(n_dot) * n - seed.dot(n) * n_dot;
  const Vec3& t1 = f.tangent1;
  const Vec3 t1_dot = (w_dot - t1.dot(w_dot) * t1) / w.norm();
  const Vec3 t2_dot = n_dot.cross(t1) + n.cross(t1_dot);
  out[0] = n_dot.dot(dv) + n.dot(dv_dot);
  out[1] = t1_dot.dot(dv) + t1.dot(dv_dot);
  out[2] = t2_dot.dot(dv) + f.tangent2.dot(dv_dot);
}

bool needed(const std::vector<bool>& need, int i) { return need.empty() || need[i]; }

// Row r of X times v over `columns` only, X zero elsewhere: the sum runs in the order of Eigen's
// column-major product (ascending columns, partial sums per product_column_block), so it is the
// same to the bit as (X v)[r] and recorded outputs stay byte-identical.
double row_times(const std::vector<std::pair<int, int>>& columns, const Eigen::Ref<const Eigen::MatrixXd>& X,
                 Eigen::Index r, const Eigen::Ref<const Eigen::VectorXd>& v) {
  ColumnBlockSum sum(product_column_block(X.cols(), X.outerStride()), 0.0);
  for (const auto& [first, count] : columns)
    for (int c = first; c < first + count; ++c) sum.add(c, X(r, c) * v[c]);
  return sum.value();
}

}  // namespace

BodyDynamics::BodyDynamics(const Model& model) : kin(model), M(Eigen::MatrixXd::Zero(model.nv, model.nv)), C(model.nv), M_llt(mass_blocks(model), model.nv) {}

void compute_body_dynamics(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, BodyDynamics& out) {
  out.q = q;
  out.v = v;
  update_kinematics(model, q, out.kin);
  update_velocities(model, q, v, out.kin);
  mass_matrix(model, out.kin, out.composite, out.M);
  bias_forces(model, out.kin, out.acc, out.force, out.C);
  add_joint_damping(model, v, out.C);
  out.M_llt.compute(out.M);
}

double kinetic_energy(const BodyDynamics& body, const Eigen::VectorXd& v) {
  return kinetic_energy(body.M, body.M_llt.blocks(), v);
}

void compute_contact_frames(const ContactModel& contacts, const Kinematics& kin, std::vector<ContactFrame>& frames) {
  frames.resize(contacts.size());
  for (int i = 0; i < contacts.size(); ++i) frames[i] = contacts.frame(kin.R, kin.p, i);
}

namespace {

// f(i) for each contact flagged in `need` (all if empty), in ascending order.
template <class F>
void for_each_contact(const std::vector<bool>& need, int contacts, F&& f) {
  for (int i = 0; i < contacts; ++i)
    if (needed(need, i)) f(i);
}
// f(i) for each contact of `set`, in its order.
template <class F>
void for_each_contact(const std::vector<int>& set, int, F&& f) {
  for (int i : set) f(i);
}

template <class Which>
void frames_of(const ContactModel& contacts, const Kinematics& kin, const Which& which, std::vector<ContactFrame>& frames) {
  frames.resize(contacts.size());
  for_each_contact(which, contacts.size(), [&](int i) { frames[i] = contacts.frame(kin.R, kin.p, i); });
}

}  // namespace

void compute_contact_frames(const ContactModel& contacts, const Kinematics& kin, const std::vector<bool>& need,
                            std::vector<ContactFrame>& frames) {
  frames_of(contacts, kin, need, frames);
}

void compute_contact_frames(const ContactModel& contacts, const Kinematics& kin, const std::vector<int>& set,
                            std::vector<ContactFrame>& frames) {
  frames_of(contacts, kin, set, frames);
}

ContactJacobians::ContactJacobians(const Model& model, const ContactModel& contacts)
    : rows_per_contact(1 + contacts.tangent_dim()), nv(model.nv),
      J(Eigen::MatrixXd::Zero(1 + contacts.tangent_dim(), static_cast<Eigen::Index>(contacts.size()) * model.nv)),
      Jdot_v(Eigen::VectorXd::Zero(contacts.size() * (1 + contacts.tangent_dim()))), kin_shift(model),
      q_shift(model.nq), J_shift(Eigen::MatrixXd::Zero(1 + contacts.tangent_dim(), model.nv)), Jv_shift(1 + contacts.tangent_dim()), bias_acc(model.bodies.size(), Vec6::Zero()) {
  columns.resize(contacts.size());
  numeric.reserve(contacts.size());
  for (int i = 0; i < contacts.size(); ++i) {
    for (int body : {contacts.contact(i).body_a, contacts.body_b(i)})
      for (int j = body; j >= 0; j = model.bodies[j].parent) {
        const Joint& joint = model.bodies[j].joint;
        const std::pair<int, int> span{joint.v_index, joint.nv};
        if (std::find(columns[i].begin(), columns[i].end(), span) == columns[i].end()) columns[i].push_back(span);
      }
    std::sort(columns[i].begin(), columns[i].end());
  }
}

void ContactJacobians::copy_rows(int i, int first, int count, Eigen::Ref<Eigen::MatrixXd> out) const {
  const Eigen::Index offset = static_cast<Eigen::Index>(i) * nv;
  for (const auto& [c, n] : columns[i]) out.middleCols(c, n) = J.block(first, offset + c, count, n);
}

void ContactJacobians::clear_columns(int i, Eigen::Ref<Eigen::MatrixXd> out) const {
  for (const auto& [c, n] : columns[i]) out.middleCols(c, n).setZero();
}

double ContactJacobians::normal_velocity(int i, const Eigen::Ref<const Eigen::VectorXd>& v) const {
  const auto row = J.row(0).segment(static_cast<Eigen::Index>(i) * nv, nv);
  if (nv < kBlockwiseFrom || columns[i].empty()) return row.dot(v);
  double sum = 0.0;
  for (const auto& [c, n] : columns[i])
    for (int k = c; k < c + n; ++k) sum += row[k] * v[k];
  // Zeros added to a sum that is not zero leave it as it is; a zero's sign depends on them all.
  return sum != 0.0 ? sum : row.dot(v);
}

ContactRows ContactJacobians::rows_times(int i, int first, int count, const Eigen::Ref<const Eigen::VectorXd>& v) const {
  const auto rows = J.block(first, static_cast<Eigen::Index>(i) * nv, count, nv);  // of(i)'s rows, not a temporary's
  if (nv < kBlockwiseFrom || count < 2) return rows * v;
  ContactRows out(count);
  for (int r = 0; r < count; ++r) out[r] = row_times(columns[i], rows, r, v);
  return out;
}

namespace {

// Adds contact i's rows to `out`, which holds zeros in the columns of its bodies' joints.
void add_contact_rows(const Model& model, const Kinematics& kin, const ContactModel& contacts, int i,
                      const ContactFrame& f, Eigen::Ref<Eigen::MatrixXd> out) {
  const ContactDef& c = contacts.contact(i);
  if (c.body_a >= 0) add_point_rows(model, kin, c.body_a, f.point_a, 1.0, f, contacts.planar(), out);
  const int b = contacts.body_b(i);
  if (b >= 0) add_point_rows(model, kin, b, f.point_b, -1.0, f, contacts.planar(), out);
}

}  // namespace

void contact_jacobian(const Model& model, const Kinematics& kin, const ContactModel& contacts, int i,
                      const ContactFrame& f, Eigen::Ref<Eigen::MatrixXd> out) {
  out.setZero();
  add_contact_rows(model, kin, contacts, i, f, out);
}

namespace {

template <class Which>
void jacobians_of(const Model& model, const ContactModel& contacts, const Kinematics& kin,
                  const std::vector<ContactFrame>& frames, const Which& which, ContactJacobians& out) {
  // Contact i's rows are nonzero only in its two bodies' chains, always the same columns, and J
  // starts at zero: clearing those columns suffices (clearing all of them costs a pile time
  // quadratic in its bodies).
  for_each_contact(which, contacts.size(), [&](int i) {
    Eigen::Ref<Eigen::MatrixXd> rows = out.of(i);
    out.clear_columns(i, rows);
    add_contact_rows(model, kin, contacts, i, frames[i], rows);
  });
}

template <class Which>
void jdot_v_of(const Model& model, const ContactModel& contacts, const BodyDynamics& body,
               const std::vector<ContactFrame>& frames, const Which& which, ContactJacobians& out) {
  const int r = out.rows_per_contact;
  if (!(body.v.cwiseAbs().maxCoeff() > 0)) {
    out.Jdot_v.setZero();
    return;
  }
  // The contacts left to the central difference, found in the one pass over the contacts asked for
  // (a pass over every contact's flag would cost a pile of boxes more than the contacts asked for).
  std::vector<int>& numeric = out.numeric;
  numeric.clear();
  bool bias_ready = false;
  for_each_contact(which, contacts.size(), [&](int i) {
    const bool halfspace = on_static_halfspace(contacts, i);
    if (!halfspace && !sphere_pair(contacts, i)) {
      numeric.push_back(i);
      return;
    }
    if (!bias_ready) bias_accelerations(model, body.kin, out.bias_acc);
    bias_ready = true;
    if (halfspace) halfspace_jdot_v(contacts, body.kin, out.bias_acc, i, frames[i], out.Jdot_v.segment(i * r, r));
    else sphere_pair_jdot_v(contacts, body.kin, out.bias_acc, i, frames[i], out.Jdot_v.segment(i * r, r));
  });
  if (numeric.empty()) return;
  // Other contacts: d/dt (J v) at fixed v, by a central difference along qdot = Gamma v.
  const double h = 1e-6 / std::max(1.0, body.v.cwiseAbs().maxCoeff());
  for (int sign : {1, -1}) {
    integrate_configuration(model, body.q, body.v, sign * h, out.q_shift);
    update_kinematics(model, out.q_shift, out.kin_shift);
    for (int i : numeric) {
      // J_shift is zero outside the contact's two chains and is left zero again after: clearing
      // all of it per contact would cost nv per contact.
      add_contact_rows(model, out.kin_shift, contacts, i, contacts.frame(out.kin_shift.R, out.kin_shift.p, i), out.J_shift);
      // Over the contact's two chains only: a dense product would read all nv columns.
      for (int row = 0; row < r; ++row) out.Jv_shift[row] = row_times(out.columns[i], out.J_shift, row, body.v);
      if (sign > 0) out.Jdot_v.segment(i * r, r) = out.Jv_shift;
      else out.Jdot_v.segment(i * r, r) = (out.Jdot_v.segment(i * r, r) - out.Jv_shift) / (2 * h);
      out.clear_columns(i, out.J_shift);
    }
  }
}

}  // namespace

void compute_contact_jacobians(const Model& model, const ContactModel& contacts, const Kinematics& kin,
                               const std::vector<ContactFrame>& frames, const std::vector<bool>& need,
                               ContactJacobians& out) {
  jacobians_of(model, contacts, kin, frames, need, out);
}

void compute_contact_jacobians(const Model& model, const ContactModel& contacts, const Kinematics& kin,
                               const std::vector<ContactFrame>& frames, const std::vector<int>& set,
                               ContactJacobians& out) {
  jacobians_of(model, contacts, kin, frames, set, out);
}

void compute_contact_jdot_v(const Model& model, const ContactModel& contacts, const BodyDynamics& body,
                            const std::vector<ContactFrame>& frames, const std::vector<bool>& need,
                            ContactJacobians& out) {
  jdot_v_of(model, contacts, body, frames, need, out);
}

void compute_contact_jdot_v(const Model& model, const ContactModel& contacts, const BodyDynamics& body,
                            const std::vector<ContactFrame>& frames, const std::vector<int>& set,
                            ContactJacobians& out) {
  jdot_v_of(model, contacts, body, frames, set, out);
}

Vec3 feature_point(const ContactModel& contacts, const Kinematics& kin, int i) {
  const ContactDef& c = contacts.contact(i);
  return kin.p[c.body_a] + kin.R[c.body_a] * c.point;
}

void compute_contact_data(const Model& model, const ContactModel& contacts, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v, const std::vector<bool>& need, ContactData& data) {
  compute_body_dynamics(model, q, v, data.body);
  compute_contact_frames(contacts, data.body.kin, data.frames);
  compute_contact_jacobians(model, contacts, data.body.kin, data.frames, need, data.jac);
  compute_contact_jdot_v(model, contacts, data.body, data.frames, need, data.jac);
}

}  // namespace impactsim
