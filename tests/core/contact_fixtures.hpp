#pragma once
// Contact fixtures for the tests of the contact stage: a point mass on a table, planar bodies
// resting on corners, free boxes sliding on corners.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/contact_forces.hpp"
#include "tests/test_models.hpp"

namespace impactsim::testing {

constexpr double g = 9.81;

// A planar unit point mass (inertia 1) touching a table through its centre, the table's normal at
// `slope` radians from +y, with friction mu.
struct Table {
  Model model;
  ContactModel contacts;
  ContactSettings settings;
  Table(double mu, double slope) {
    model = single_body_model(JointType::planar, 1.0, Mat3::Identity(), Vec3(0, -g, 0));
    std::vector<Geometry> geometry(1);
    geometry[0].name = "table";
    geometry[0].shape.type = ShapeType::halfspace;
    geometry[0].shape.normal = Vec3(-std::sin(slope), std::cos(slope), 0);
    contacts = ContactModel(geometry, {{"c", 0, Vec3::Zero(), 0.0, 0, mu, 0.0}}, true);
    settings.baumgarte = 0;  // on the surface at rest: no drift to correct
  }
  ContactData at(const Eigen::Vector3d& v) const {
    ContactData d(model, contacts);
    compute_contact_data(model, contacts, Eigen::Vector3d::Zero(), v, {}, d);
    return d;
  }
};

inline ContactModes one(ContactMode mode, const Eigen::Vector2d& slip = Eigen::Vector2d::UnitX()) {
  ContactModes m = ContactModes::all_open(1);
  m.mode[0] = mode;
  m.slip[0] = slip;
  return m;
}

// `bodies` planar bodies of mass 1 + 0.1 i resting at rest on the ground, each on corners at
// `corners` (x, m) under its centre, friction mu.
struct RestingBodies {
  Model model;
  ContactModel contacts;
  std::unique_ptr<ContactData> data;
  RestingBodies(int bodies, const std::vector<double>& corners, double mu) {
    for (int i = 0; i < bodies; ++i) {
      Body b;
      b.name = std::string("b").append(std::to_string(i));
      b.joint.type = JointType::planar;
      b.mass = 1.0 + 0.1 * i;
      b.inertia = Mat3::Identity();
      model.bodies.push_back(b);
    }
    model.gravity = Vec3(0, -g, 0);
    finalize_model(model);
    std::vector<Geometry> geometry(1);
    geometry[0].name = "ground";
    geometry[0].shape.type = ShapeType::halfspace;
    geometry[0].shape.normal = Vec3::UnitY();
    std::vector<ContactDef> defs;
    for (int i = 0; i < bodies; ++i)
      for (double x : corners) defs.push_back({"c", i, Vec3(x, 0, 0), 0.0, 0, mu, 0.0});
    contacts = ContactModel(geometry, defs, true);
    data = std::make_unique<ContactData>(model, contacts);
    compute_contact_data(model, contacts, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), {}, *data);
  }
  bool forces(const ContactModes& modes, ModeForces& out) const {
    return constrained_acceleration(contacts, 0.0, data->body, data->frames, data->jac, modes, out);
  }
};

// `bodies` free boxes (0.4 x 0.3 x 0.2 m) resting on `corners` of their bottom face each, friction
// 0.1 to 0.35 from corner to corner, under gravity with a tangential part of 0.35 g pointing 10
// degrees from the tangent plane's x: every corner slides, each along its own slip angle. `dent` [m] moves the
// fourth corner's point down out of the face's plane: its phi then disagrees with the others', and
// with drift correction (baumgarte [1/s]) a singular A's target is out of its range.
struct SlidingBoxes {
  Model model;
  ContactModel contacts;
  std::unique_ptr<ContactData> data;
  ContactModes modes;
  double baumgarte;
  SlidingBoxes(int bodies, int corners, const Vec3& velocity, double slip_blend, double dent, double baumgarte_rate)
      : baumgarte(baumgarte_rate) {
    for (int i = 0; i < bodies; ++i) {
      Body b;
      b.name = std::string("box").append(std::to_string(i));
      b.joint.type = JointType::free;
      b.mass = 12.0 + i;
      b.inertia = Vec3(0.13, 0.2, 0.25).asDiagonal() * b.mass;
      model.bodies.push_back(b);
    }
    model.gravity = Vec3(0.35 * g * std::cos(0.17), 0.35 * g * std::sin(0.17), -g);
    finalize_model(model);
    std::vector<Geometry> geometry(1);
    geometry[0].name = "ground";
    geometry[0].shape.type = ShapeType::halfspace;
    geometry[0].shape.normal = Vec3::UnitZ();
    const Vec3 at[4] = {{0.2, 0.15, -0.1}, {-0.2, 0.15, -0.1}, {-0.2, -0.15, -0.1}, {0.2, -0.15, -0.1 - dent}};
    std::vector<ContactDef> defs;
    for (int i = 0; i < bodies; ++i)
      for (int k = 0; k < corners; ++k) defs.push_back({"c", i, at[k], 0.0, 0, 0.1 + 0.05 * ((i + k) % 6), 0.0});
    contacts = ContactModel(geometry, defs, false);
    data = std::make_unique<ContactData>(model, contacts);
    Eigen::VectorXd q = neutral_configuration(model), v = Eigen::VectorXd::Zero(model.nv);
    for (int i = 0; i < bodies; ++i) {
      q[7 * i + 2] = 0.1;
      v.segment<3>(6 * i) = velocity;
    }
    compute_contact_data(model, contacts, q, v, {}, *data);
    modes = ContactModes::all_open(contacts.size());
    modes.slip_blend = slip_blend;
    for (int c = 0; c < contacts.size(); ++c) {
      modes.mode[c] = ContactMode::slide;
      modes.slip[c] = Eigen::Vector2d(std::cos(0.3 + 0.7 * c), std::sin(0.3 + 0.7 * c));
    }
  }
  bool forces(const ContactModes& m, ModeForces& out) const {
    return constrained_acceleration(contacts, baumgarte, data->body, data->frames, data->jac, m, out);
  }
  // d vdot / d theta_c by central differences of the mode's forces.
  Eigen::VectorXd turned_by_differences(int c) const {
    constexpr double h = 1e-6;
    ModeForces plus, minus;
    ContactModes m = modes;
    const double theta = std::atan2(modes.slip[c][1], modes.slip[c][0]);
    m.slip[c] = Eigen::Vector2d(std::cos(theta + h), std::sin(theta + h));
    EXPECT_TRUE(forces(m, plus));
    m.slip[c] = Eigen::Vector2d(std::cos(theta - h), std::sin(theta - h));
    EXPECT_TRUE(forces(m, minus));
    return (plus.vdot - minus.vdot) / (2 * h);
  }
};
}  // namespace impactsim::testing
