#pragma once
// The multibody model: a kinematic tree of rigid bodies attached by joints. Plain data, filled by
// the scene loader, read by every later stage. Nothing here changes during a simulation.
//
// Frames: every body has a body frame. At q = 0 it coincides with its joint frame, which is placed
// in the parent's body frame by (joint.origin, joint.rotation). The world frame is the root.
// Coordinates: q in R^nq and v in R^nv, with qdot = Gamma(q) v (see joint.hpp for each joint's
// coordinates and its Gamma). Units: SI throughout (m, kg, s, rad).
#include <string>
#include <vector>

#include "core/joint.hpp"
#include "numerics/mass_factor.hpp"

namespace impactsim {

struct Body {
  std::string name;
  int parent = -1;                  // index into Model::bodies, -1 for the world
  Joint joint;
  double mass = 0.0;                // [kg], may be zero (massless link)
  Vec3 com = Vec3::Zero();          // centre of mass in the body frame [m]
  Mat3 inertia = Mat3::Zero();      // rotational inertia about the com, body axes [kg m^2]
};

struct Model {
  std::vector<Body> bodies;         // topologically sorted: parent index < own index
  Vec3 gravity = Vec3(0, 0, -9.81); // world frame [m/s^2]
  int nq = 0;
  int nv = 0;
  // All motion lies in the world x-y plane (rotations about z only). Contacts in a planar model
  // have one tangent direction.
  bool planar = false;
  std::vector<std::string> q_names;  // "<body>.<coordinate>", one per entry of q
  std::vector<std::string> v_names;  // one per entry of v

  int body_index(const std::string& name) const;  // -1 if absent
  double total_mass() const;                       // every body's mass [kg]
};

// "" when a rigid body can have this rotational inertia (positive semi-definite, principal moments
// satisfying I1 + I2 >= I3), else why not, with the principal moments.
std::string inertia_problem(const Mat3& inertia);

// Assigns q/v indices and coordinate names, and decides Model::planar. Call once after the bodies
// are filled in. Throws std::invalid_argument if the tree is not topologically sorted.
void finalize_model(Model& model);

// The neutral configuration: zeros, with identity quaternions for free joints.
Eigen::VectorXd neutral_configuration(const Model& model);

// The joint functions of core/joint.hpp applied to a whole configuration, joint by joint.
// out = q moved by v dt along every joint's manifold (out is resized to nq).
void integrate_configuration(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt,
                             Eigen::VectorXd& out);
// The diagonal blocks of M(q) for `model`, for a MassFactor: each tree's span of v, overlapping
// spans merged (ordered, covering 0..nv). They depend on the tree alone, never on q.
std::vector<VelocityBlock> mass_blocks(const Model& model);
// Unit quaternions restored in the nq entries from q.
void normalize_configuration(const Model& model, double* q);
// qdot = Gamma(q) v into the nq entries from qdot.
void configuration_rate(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double* qdot);

}  // namespace impactsim
