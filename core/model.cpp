#include "core/model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "numerics/short_number.hpp"

namespace impactsim {
namespace {

constexpr double kPlanarTolerance = 1e-12;

bool along_z(const Vec3& a) { return std::abs(std::abs(a.z()) - 1.0) < kPlanarTolerance; }

// A tree stays in the x-y plane when every joint frame keeps z along world z (so body rotations are
// about z) and every joint moves within the plane. Joint rotations are about z, so checking the
// neutral configuration is enough.
bool is_planar(const Model& model) {
  std::vector<Mat3> frame(model.bodies.size());
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const Mat3 parent = b.parent < 0 ? Mat3::Identity() : frame[b.parent];
    const Mat3 R = parent * b.joint.rotation;
    frame[i] = R;
    if (!along_z(R.col(2))) return false;
    switch (b.joint.type) {
      case JointType::free: return false;
      case JointType::revolute:
        if (!along_z(R * b.joint.axis)) return false;
        break;
      case JointType::prismatic:
        if (std::abs((R * b.joint.axis).z()) > kPlanarTolerance) return false;
        break;
      case JointType::planar:
      case JointType::fixed: break;
    }
  }
  return true;
}

}  // namespace

int Model::body_index(const std::string& name) const {
  for (size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].name == name) return static_cast<int>(i);
  return -1;
}

double Model::total_mass() const {
  double mass = 0.0;
  for (const Body& b : bodies) mass += b.mass;
  return mass;
}

void finalize_model(Model& model) {
  model.nq = model.nv = 0;
  model.q_names.clear();
  model.v_names.clear();
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    Body& b = model.bodies[i];
    if (b.parent >= static_cast<int>(i))
      throw std::invalid_argument("body '" + b.name + "' is listed before its parent");
    b.joint.nq = joint_nq(b.joint.type);
    b.joint.nv = joint_nv(b.joint.type);
    b.joint.q_index = model.nq;
    b.joint.v_index = model.nv;
    model.nq += b.joint.nq;
    model.nv += b.joint.nv;
    for (auto n : joint_q_names(b.joint.type)) model.q_names.push_back(b.name + "." + std::string(n));
    for (auto n : joint_v_names(b.joint.type)) model.v_names.push_back(b.name + "." + std::string(n));
  }
  model.planar = is_planar(model);
}

Eigen::VectorXd neutral_configuration(const Model& model) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  for (const Body& b : model.bodies)
    if (b.joint.type == JointType::free) q[b.joint.q_index + 3] = 1.0;
  return q;
}

void integrate_configuration(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt,
                             Eigen::VectorXd& out) {
  out.resize(q.size());
  for (const Body& b : model.bodies)
    joint_integrate(b.joint, q.data() + b.joint.q_index, v.data() + b.joint.v_index, dt, out.data() + b.joint.q_index);
}

void normalize_configuration(const Model& model, double* q) {
  for (const Body& b : model.bodies) joint_normalize(b.joint, q + b.joint.q_index);
}

void configuration_rate(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double* qdot) {
  for (const Body& b : model.bodies)
    joint_qdot(b.joint, q.data() + b.joint.q_index, v.data() + b.joint.v_index, qdot + b.joint.q_index);
}

std::string inertia_problem(const Mat3& I) {
  const Vec3 p = Eigen::SelfAdjointEigenSolver<Mat3>(I).eigenvalues();  // ascending
  const double tol = 1e-12 * std::max(1.0, p.cwiseAbs().maxCoeff());
  if (p[0] < -tol)
    return "inertia is not positive semi-definite (principal moments " + short_number(p[0]) + ", " + short_number(p[1]) +
           ", " + short_number(p[2]) + ")";
  if (p[0] + p[1] < p[2] - tol)
    return "principal moments violate the triangle inequality I1 + I2 >= I3, so no rigid body has them";
  return "";
}

namespace {

// The tree (index of its body nearest the world) of every body.
std::vector<int> tree_roots(const Model& model) {
  std::vector<int> root(model.bodies.size());
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const int parent = model.bodies[b].parent;
    root[b] = parent < 0 ? static_cast<int>(b) : root[parent];
  }
  return root;
}

}  // namespace

std::vector<VelocityBlock> mass_blocks(const Model& model) {
  // Each tree's span of v, then overlapping spans merged.
  const std::vector<int> root = tree_roots(model);
  std::vector<VelocityBlock> spans;
  std::vector<int> span_of(model.bodies.size(), -1);
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const Joint& joint = model.bodies[b].joint;
    if (joint.nv == 0) continue;
    int& s = span_of[root[b]];
    if (s < 0) {
      s = static_cast<int>(spans.size());
      spans.push_back({joint.v_index, joint.nv});
      continue;
    }
    const int lo = std::min(spans[s].start, joint.v_index);
    const int hi = std::max(spans[s].start + spans[s].size, joint.v_index + joint.nv);
    spans[s] = {lo, hi - lo};
  }
  std::sort(spans.begin(), spans.end(), [](const VelocityBlock& a, const VelocityBlock& b) { return a.start < b.start; });
  std::vector<VelocityBlock> blocks;
  for (const VelocityBlock& s : spans) {
    if (!blocks.empty() && s.start < blocks.back().start + blocks.back().size) {
      VelocityBlock& last = blocks.back();
      last.size = std::max(last.start + last.size, s.start + s.size) - last.start;
    } else {
      blocks.push_back(s);
    }
  }
  return blocks;
}

}  // namespace impactsim
