// The contact stage: Jacobians assembled from collision's frames against finite differences of phi
// (J_n = dphi/dq Gamma, which also pins down the sign conventions) and Jdot v against differences of
// J v; body dynamics as the dynamics functions give them; the impact-law input it hands on.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "core/contact_data.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

// Contact Jacobians: J_n v = d/dt phi along any motion, J_t v = the tangential relative velocity.
TEST(ContactModel, NormalJacobianIsTheRateOfPhi) {
  std::mt19937 rng(9);
  for (bool planar : {false, true}) {
    Model m = planar ? testing::planar_model(rng) : testing::chain_model(3, rng);
    std::vector<Geometry> g(3);
    g[0].name = "ground";
    g[0].shape.type = ShapeType::halfspace;
    g[0].shape.normal = planar ? Vec3(0, 1, 0) : Vec3(0, 0, 1);
    g[0].shape.offset = -3;
    g[1].name = "ball";
    g[1].body = 1;
    g[1].shape = testing::sphere_shape(0.3);
    g[1].shape.position = Vec3(0.1, 0.2, 0);
    g[2].name = "crate";
    g[2].body = 2;
    g[2].shape = testing::box_shape(Vec3(0.5, 0.4, 0.3));
    std::vector<ContactDef> defs(3);
    defs[0] = {"foot", 0, Vec3(0.2, -0.1, 0.05), 0.0, 0};  // a vertex on body 0 vs the ground
    defs[1] = {"ball_on_crate", 2, Vec3(0.3, 0.3, 0), 0.05, 1};  // a small sphere on body 2 vs the ball on body 1
    defs[2] = {"tip", 1, Vec3(0.5, 0.5, 0.0), 0.0, 2};  // a point on body 1 vs the crate on body 2
    const ContactModel cm(g, defs, m.planar);
    Kinematics kin(m), kp(m), km(m);
    for (int trial = 0; trial < 10; ++trial) {
      const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
      update_kinematics(m, q, kin);
      const double h = 1e-6;
      update_kinematics(m, testing::integrate(m, q, v, h), kp);
      update_kinematics(m, testing::integrate(m, q, v, -h), km);
      for (int i = 0; i < cm.size(); ++i) {
        const ContactFrame f = cm.frame(kin.R, kin.p, i);
        Eigen::MatrixXd J(1 + cm.tangent_dim(), m.nv);
        contact_jacobian(m, kin, cm, i, f, J);
        const double rate = (cm.frame(kp.R, kp.p, i).phi - cm.frame(km.R, km.p, i).phi) / (2 * h);
        EXPECT_NEAR((J.row(0) * v)(0), rate, 1e-6 * (1 + std::abs(rate))) << defs[i].name << " planar " << planar;
        EXPECT_NEAR(f.normal.norm(), 1.0, 1e-12);
        EXPECT_NEAR(f.normal.dot(f.tangent1), 0.0, 1e-12);
        if (planar) {
          EXPECT_EQ(f.normal.z(), 0.0);
          EXPECT_NEAR(f.tangent1.x(), f.normal.y(), 1e-15);  // clockwise turn of the normal
        } else {
          EXPECT_NEAR(f.normal.cross(f.tangent1).dot(f.tangent2), 1.0, 1e-12);
        }
      }
    }
  }
}

// Jdot v, exact against world halfspaces and between 3-D spheres, by central differences elsewhere,
// equals the rate of J(q) v along qdot = Gamma v at fixed v, on chains (3-D) and planar trees, for
// vertices and spheres (whose contact point slides over the sphere as it turns).
TEST(ContactDynamics, JdotVIsTheRateOfJv) {
  std::mt19937 rng(21);
  for (bool planar : {false, true}) {
    Model m = planar ? testing::planar_model(rng) : testing::chain_model(3, rng);
    std::vector<Geometry> g(5);
    g[0].name = "ground";
    g[0].shape.type = ShapeType::halfspace;
    g[0].shape.normal = planar ? Vec3(0.6, 0.8, 0) : Vec3(0, 0.6, 0.8);  // a slope
    g[0].shape.offset = -3;
    g[1].name = "crate";
    g[1].body = 2;
    g[1].shape = testing::box_shape(Vec3(0.5, 0.4, 0.3));
    // Spheres off their bodies' origins, and one fixed in the world: in 3-D their pairs' Jdot v is
    // the closed form, in a planar model the central difference.
    for (int s = 2; s < 5; ++s) {
      g[s].name = "ball" + std::to_string(s);
      g[s].body = s == 4 ? -1 : s - 1;
      g[s].shape = testing::sphere_shape(0.2 + 0.05 * s);
      g[s].shape.position = Vec3(0.1 * s, -0.2, 0.05 * s);
    }
    std::vector<ContactDef> defs(8);
    defs[0] = {"vertex", 0, Vec3(0.2, -0.1, 0.05), 0.0, 0};
    defs[1] = {"sphere", 2, Vec3(0.3, 0.2, 0.1), 0.25, 0};  // on body 2 of the chain, whose alpha is not 0
    defs[2] = {"deep_vertex", 2, Vec3(-0.4, 0.3, 0.2), 0.0, 0};
    defs[3] = {"tip_on_crate", 1, Vec3(0.5, 0.5, 0.0), 0.0, 1};  // not a halfspace: numeric
    defs[4] = {"ball_pair", 1, g[2].shape.position, 0.0, 3};
    defs[4].geometry_a = 2;
    defs[5] = {"ball_on_world_ball", 2, g[3].shape.position, 0.0, 4};
    defs[5].geometry_a = 3;
    defs[6] = {"pebble_on_ball", 2, Vec3(-0.1, 0.3, 0.2), 0.1, 2};  // a sphere feature, as collide: all makes them
    defs[7] = {"vertex_on_world_ball", 0, Vec3(0.3, 0.1, -0.2), 0.0, 4};
    const ContactModel cm(g, defs, m.planar);
    ContactData data(m, cm);
    Kinematics kp(m), km(m);
    const int r = 1 + cm.tangent_dim();
    for (int trial = 0; trial < 10; ++trial) {
      const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
      compute_contact_data(m, cm, q, v, {}, data);
      const double h = 1e-5;
      update_kinematics(m, testing::integrate(m, q, v, h), kp);
      update_kinematics(m, testing::integrate(m, q, v, -h), km);
      for (int i = 0; i < cm.size(); ++i) {
        Eigen::MatrixXd Jp(r, m.nv), Jm(r, m.nv);
        contact_jacobian(m, kp, cm, i, cm.frame(kp.R, kp.p, i), Jp);
        contact_jacobian(m, km, cm, i, cm.frame(km.R, km.p, i), Jm);
        const Eigen::VectorXd rate = (Jp * v - Jm * v) / (2 * h);
        EXPECT_LT((data.jac.jdot_v_of(i) - rate).norm(), 1e-6 * (1 + rate.norm()))
            << defs[i].name << " planar " << planar << ": " << data.jac.jdot_v_of(i).transpose() << " vs "
            << rate.transpose();
      }
    }
  }
}

// Jdot v, J v (rows_times) and the normal velocity sum only the columns of the contact's two
// chains, in the order the dense product did, so they equal that product to the bit (recorded
// outputs rest on it), below 128 velocities and above, where the product sums in blocks of
// columns; copy_rows copies only those columns, and they hold all of J_i.
TEST(ContactDynamics, JdotVAndJVOverTheChainsEqualTheDenseProductsToTheBit) {
  std::mt19937 rng(5);
  for (int links : {12, 100, 150}) {  // one block of columns: dense below 64, over the chains from 64
    const Model m = testing::chain_model(links, rng);
    std::vector<Geometry> g(1);
    g[0].name = "crate";
    g[0].body = links / 2 + 3;
    g[0].shape = testing::box_shape(Vec3(0.5, 0.4, 0.3));
    // Chains that share joints (link 2 and link 5 both hang from link 0) and one of the tip.
    std::vector<ContactDef> defs{{"near", 2, Vec3(0.2, -0.1, 0.05), 0.0, 0},
                                 {"tip", links - 1, Vec3(0.1, 0.3, -0.2), 0.1, 0},
                                 {"root", 0, Vec3(-0.3, 0.2, 0.1), 0.0, 0}};
    const ContactModel cm(g, defs, m.planar);
    ContactData data(m, cm);
    Kinematics kp(m), km(m);
    Eigen::VectorXd qp(m.nq), qm(m.nq);
    const int r = 1 + cm.tangent_dim();
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
      compute_contact_data(m, cm, q, v, {}, data);
      const double h = 1e-6 / std::max(1.0, v.cwiseAbs().maxCoeff());
      integrate_configuration(m, q, v, h, qp);
      integrate_configuration(m, q, v, -h, qm);
      update_kinematics(m, qp, kp);
      update_kinematics(m, qm, km);
      for (int i = 0; i < cm.size(); ++i) {
        Eigen::MatrixXd Jp(r, m.nv), Jm(r, m.nv);
        contact_jacobian(m, kp, cm, i, cm.frame(kp.R, kp.p, i), Jp);
        contact_jacobian(m, km, cm, i, cm.frame(km.R, km.p, i), Jm);
        Eigen::VectorXd rate(r);
        rate.noalias() = Jp * v;
        rate = (rate - Jm * v) / (2 * h);
        EXPECT_EQ(data.jac.jdot_v_of(i), rate) << defs[i].name << " with " << links << " links";
        // J_i v over the chains, all rows, the tangent rows and the normal row alone.
        const Eigen::MatrixXd Ji = data.jac.of(i);
        Eigen::VectorXd dense(r);
        dense.noalias() = data.jac.of(i) * v;
        EXPECT_EQ(Eigen::VectorXd(data.jac.rows_times(i, 0, r, v)), dense) << defs[i].name << " with " << links << " links";
        dense.resize(r - 1);
        dense.noalias() = data.jac.of(i).bottomRows(r - 1) * v;
        EXPECT_EQ(Eigen::VectorXd(data.jac.rows_times(i, 1, r - 1, v)), dense) << defs[i].name;
        EXPECT_EQ(data.jac.rows_times(i, 0, 1, v)[0], Ji.row(0).dot(v)) << defs[i].name;
        // The normal velocity, to the bit; where v is zero over the chains, to a zero's sign too.
        EXPECT_EQ(data.jac.normal_velocity(i, v), data.jac.of(i).row(0).dot(v)) << defs[i].name;
        Eigen::VectorXd still = -v;
        for (const auto& [c, n] : data.jac.columns[i]) still.segment(c, n).setZero();
        const double zero = data.jac.normal_velocity(i, still), dense_zero = data.jac.of(i).row(0).dot(still);
        EXPECT_EQ(zero, 0.0) << defs[i].name;
        EXPECT_EQ(std::signbit(zero), std::signbit(dense_zero)) << defs[i].name;
        // copy_rows writes the chain columns only, which hold every nonzero of J_i.
        Eigen::MatrixXd copied = Eigen::MatrixXd::Zero(r, m.nv);
        data.jac.copy_rows(i, 0, r, copied);
        EXPECT_EQ(copied, Ji) << defs[i].name;
        copied.setZero(r - 1, m.nv);
        data.jac.copy_rows(i, 1, r - 1, copied);
        EXPECT_EQ(copied, Ji.bottomRows(r - 1)) << defs[i].name;
      }
    }
  }
}

TEST(ContactModel, BallAboveGroundHasPositivePhiAndUpwardNormal) {
  Model m;
  Body b;
  b.name = "ball";
  b.joint.type = JointType::free;
  b.mass = 1;
  b.inertia = Mat3::Identity();
  m.bodies.push_back(b);
  finalize_model(m);
  std::vector<Geometry> g(1);
  g[0].shape.type = ShapeType::halfspace;
  const ContactModel cm(g, {{"ball", 0, Vec3::Zero(), 0.1, 0}}, m.planar);
  Kinematics kin(m);
  Eigen::VectorXd q = neutral_configuration(m);
  q[2] = 1.1;
  update_kinematics(m, q, kin);
  const ContactFrame f = cm.frame(kin.R, kin.p, 0);
  EXPECT_DOUBLE_EQ(f.phi, 1.0);
  EXPECT_EQ(f.normal, Vec3::UnitZ());
  EXPECT_NEAR(f.point_a.z(), 1.0, 1e-15);
  EXPECT_NEAR(f.point_b.z(), 0.0, 1e-15);
  Eigen::MatrixXd J(3, 6);
  contact_jacobian(m, kin, cm, 0, f, J);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[2] = -2;  // falling
  EXPECT_DOUBLE_EQ((J.row(0) * v)(0), -2.0);  // approaching is negative
  v.setZero();
  v[3] = 1;  // spinning about x: the bottom point moves along +y... at radius 0.1
  EXPECT_NEAR((J.row(2) * v)(0), 0.1, 1e-15);
}

TEST(ContactData, StagesAgreeWithTheFunctionsTheyWrap) {
  std::mt19937 rng(11);
  const Model m = testing::chain_model(3, rng);
  std::vector<Geometry> g(1);
  g[0].name = "ground";
  g[0].shape.type = ShapeType::halfspace;
  std::vector<ContactDef> defs{{"a", 1, Vec3(0.1, 0, 0), 0.0, 0, 0.3, 0.2}, {"b", 2, Vec3(0, 0.2, 0), 0.05, 0, 0.6, 0.4}};
  const ContactModel cm(g, defs, m.planar);
  ContactData data(m, cm);
  const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
  compute_contact_data(m, cm, q, v, {}, data);
  // Body dynamics: M and C as the dynamics functions compute them, and M's factor.
  Kinematics kin(m);
  update_kinematics(m, q, kin);
  update_velocities(m, q, v, kin);
  std::vector<Mat6> composite;
  std::vector<Vec6> acc, force;
  Eigen::MatrixXd M(m.nv, m.nv);
  Eigen::VectorXd C(m.nv);
  mass_matrix(m, kin, composite, M);
  bias_forces(m, kin, acc, force, C);
  EXPECT_LT((data.body.M - M).norm(), 1e-14);
  EXPECT_LT((data.body.C - C).norm(), 1e-14);
  EXPECT_EQ(data.body.M_llt.info(), Eigen::Success);
  // Frames are the contact model's.
  for (int i = 0; i < 2; ++i) EXPECT_EQ(data.frames[i].phi, cm.frame(kin.R, kin.p, i).phi);
  EXPECT_LT((feature_point(cm, kin, 1) - point_position(kin, 2, Vec3(0, 0.2, 0))).norm(), 1e-15);
  // The law's input: the chosen contacts' rows, friction, restitution and ids, in the order asked.
  ContactSettings settings;
  settings.friction_directions = 12;
  settings.circular_cone = false;
  const ContactSpace space = contact_space(cm, settings, data.body, data.jac, {1, 0});
  ASSERT_EQ(space.contacts(), 2);
  EXPECT_EQ(space.J_n.row(0), data.jac.of(1).row(0));
  EXPECT_EQ(space.J_t.middleRows(2, 2), data.jac.of(0).bottomRows(2));
  EXPECT_EQ(space.mu, Eigen::Vector2d(0.6, 0.3));
  EXPECT_EQ(space.e, Eigen::Vector2d(0.4, 0.2));
  EXPECT_EQ(space.ids, (std::vector<int>{1, 0}));
  EXPECT_EQ(space.friction_directions, 12);
  EXPECT_FALSE(space.circular_cone);
  EXPECT_EQ(space.tangent_dim, 2);
}

// 0.5 v^T M v block by block is the dense product's to the bit: below kBlockwiseFrom (dense), over
// blocks of 6 (12 and 250 free bodies: one column block, then Eigen's blocks of 16 columns),
// and within one block of 100 and 150 links.
TEST(ContactData, KineticEnergyBlockByBlockIsTheDenseProducts) {
  std::mt19937 rng(21);
  const auto free_bodies = [&](int n) {
    Model m;
    for (int i = 0; i < n; ++i) {
      Body b;
      b.name = "body" + std::to_string(i);
      b.joint.type = JointType::free;
      b.joint.origin = testing::random_vec(rng);
      b.mass = 0.5 + i % 7;
      b.inertia = testing::random_inertia(rng);
      m.bodies.push_back(b);
    }
    finalize_model(m);
    return m;
  };
  std::vector<Model> models{testing::chain_model(12, rng), free_bodies(12), free_bodies(250),
                            testing::chain_model(100, rng), testing::chain_model(150, rng)};
  for (const Model& m : models) {
    BodyDynamics body(m);
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
      compute_body_dynamics(m, q, v, body);
      EXPECT_EQ(kinetic_energy(body, v), 0.5 * v.dot(body.M * v)) << m.nv;
      EXPECT_NEAR(kinetic_energy(body, v), kinetic_energy(m, body.kin), 1e-9 * (1 + kinetic_energy(m, body.kin))) << m.nv;
    }
  }
}

TEST(ContactData, OnlyTheJacobiansAskedForAreComputed) {
  std::mt19937 rng(12);
  const Model m = testing::chain_model(2, rng);
  std::vector<Geometry> g(1);
  g[0].shape.type = ShapeType::halfspace;
  const ContactModel cm(g, {{"a", 0, Vec3(0.1, 0, 0), 0.0, 0}, {"b", 1, Vec3(0, 0.2, 0), 0.0, 0}}, m.planar);
  ContactData data(m, cm);
  compute_contact_data(m, cm, testing::random_q(m, rng), testing::random_v(m, rng), {false, true}, data);
  EXPECT_EQ(data.jac.of(0).norm(), 0.0);   // left as it was (zero since construction)
  EXPECT_GT(data.jac.of(1).norm(), 0.0);
}

// The hybrid loop passes its closed contacts as a list, other callers as flags: the same contacts
// must get the same frames, Jacobians and Jdot v to the bit, against a halfspace (closed form) and
// against another body's box (central difference), and the others none.
TEST(ContactData, ListedAndFlaggedContactsGetTheSameStages) {
  std::mt19937 rng(21);
  const Model m = testing::chain_model(6, rng);
  std::vector<Geometry> g(2);
  g[0].shape.type = ShapeType::halfspace;
  g[1].name = "crate";
  g[1].body = 3;
  g[1].shape = testing::box_shape(Vec3(0.5, 0.4, 0.3));
  const ContactModel cm(g, {{"a", 1, Vec3(0.1, 0, 0), 0.0, 0}, {"b", 2, Vec3(0, 0.2, 0), 0.0, 1},
                            {"c", 4, Vec3(0, 0, 0.1), 0.0, 0}, {"d", 5, Vec3(0.1, 0.1, 0), 0.0, 1}},
                        m.planar);
  const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
  ContactData flagged(m, cm), listed(m, cm);
  for (ContactData* data : {&flagged, &listed}) compute_body_dynamics(m, q, v, data->body);
  const std::vector<bool> flags{false, true, true, false};
  const std::vector<int> list{1, 2};
  compute_contact_frames(cm, flagged.body.kin, flags, flagged.frames);
  compute_contact_jacobians(m, cm, flagged.body.kin, flagged.frames, flags, flagged.jac);
  compute_contact_jdot_v(m, cm, flagged.body, flagged.frames, flags, flagged.jac);
  compute_contact_frames(cm, listed.body.kin, list, listed.frames);
  compute_contact_jacobians(m, cm, listed.body.kin, listed.frames, list, listed.jac);
  compute_contact_jdot_v(m, cm, listed.body, listed.frames, list, listed.jac);
  for (int i = 0; i < cm.size(); ++i) {
    EXPECT_EQ(flagged.frames[i].phi, listed.frames[i].phi) << i;
    EXPECT_EQ(flagged.frames[i].normal, listed.frames[i].normal) << i;
    EXPECT_EQ(Eigen::MatrixXd(flagged.jac.of(i)), Eigen::MatrixXd(listed.jac.of(i))) << i;
    EXPECT_EQ(Eigen::VectorXd(flagged.jac.jdot_v_of(i)), Eigen::VectorXd(listed.jac.jdot_v_of(i))) << i;
    const bool computed = flags[i];
    EXPECT_EQ(listed.jac.of(i).norm() > 0, computed) << i;  // zero since construction unless computed
    EXPECT_EQ(listed.jac.jdot_v_of(i).norm() > 0, computed) << i;
  }
  // And each equals the single contact's Jacobian at its frame.
  for (int i : list) {
    Eigen::MatrixXd J(1 + cm.tangent_dim(), m.nv);
    contact_jacobian(m, listed.body.kin, cm, i, cm.frame(listed.body.kin.R, listed.body.kin.p, i), J);
    EXPECT_EQ(J, Eigen::MatrixXd(listed.jac.of(i))) << i;
  }
}

}  // namespace
}  // namespace impactsim
