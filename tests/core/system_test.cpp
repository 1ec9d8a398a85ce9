// What a system says of itself: its closed contacts, a start too deep, the budgets of a run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/simulate.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"

namespace impactsim {
namespace {

TEST(System, ClosedContactsAreTouchingAndStill) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  Eigen::VectorXd q = scene.initial.q, v = Eigen::VectorXd::Zero(3);
  q(1) = 1.0;  // flat on the ground
  EXPECT_EQ(closed_contacts(scene.system, q, v), (std::vector<bool>{true, true}));
  v(2) = 0.3;  // pivoting about the centre: one corner rises, the other sinks
  EXPECT_EQ(closed_contacts(scene.system, q, v), (std::vector<bool>{false, false}));
  q(1) = 1.01;  // lifted 1 cm
  EXPECT_EQ(closed_contacts(scene.system, q, Eigen::VectorXd::Zero(3)), (std::vector<bool>{false, false}));
}

// A block 5 m inside the ground is refused before any step, not launched to 34 m by the solver.
TEST(System, ADeepInitialPenetrationIsRefused) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  Eigen::VectorXd q = scene.initial.q;
  q(1) = -4.0;  // the corners 5 m deep
  const std::optional<Penetration> p = initial_penetration(scene.system, q);
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->depth, 5.0, 1e-12);
  q(1) = 1.0 - 5 * scene.system.contact.distance_tolerance;  // within the tolerance
  EXPECT_FALSE(initial_penetration(scene.system, q));
  const auto law = make_law("anitescu-potra");
  Rng rng(0);
  State deep = scene.initial;
  deep.q(1) = -4.0;
  try {
    simulate(scene.system, *law, deep, rng, {});
    FAIL() << "a deep start must be refused";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::initial_penetration);
    EXPECT_NE(std::string(e.what()).find("starts 5 m deep"), std::string::npos) << e.what();
  }
}

// closed_contacts and initial_penetration read only the contacts the broadphase finds near; on a
// pile (95 contacts, most of them between spheres far apart) they must give what every contact's
// exact frame and Jacobian give.
TEST(System, ClosedAndPenetratingContactsOfAPileAreThoseOfEveryContact) {
  const Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_pile.yaml");
  const System& sys = scene.system;
  Eigen::VectorXd q = scene.initial.q;
  auto position = [&](int sphere) { return q.segment(7 * sphere, 3); };
  const double r = 0.05;
  position(0).z() = r;                                            // on the ground
  position(4) = position(0) + Vec3(0, 0, 2 * r);                  // on sphere 0
  position(2).x() = 0.125 - r + 0.01;                             // 1 cm into the east wall
  position(3) = position(2) + Vec3(-2 * r + 0.02, 0, 0);          // 2 cm into sphere 2
  const double tol = sys.contact.distance_tolerance;
  for (int trial = 0; trial < 3; ++trial) {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
    if (trial == 1) v.segment(6 * 4, 3) = Vec3(0, 0, -0.2);  // sphere 4 falls onto sphere 0
    if (trial == 2) v.setRandom();
    ContactData every(sys.model, sys.contacts);
    compute_contact_data(sys.model, sys.contacts, q, v, {}, every);
    std::vector<bool> closed(sys.contacts.size());
    std::optional<Penetration> deepest;
    for (int i = 0; i < sys.contacts.size(); ++i) {
      closed[i] = every.frames[i].phi <= tol &&
                  std::abs(every.jac.normal_velocity(i, v)) <= 1e-6 * std::max(1.0, v.cwiseAbs().maxCoeff());
      const double depth = -every.frames[i].phi;
      if (depth > kStartDepthTolerance * tol && (!deepest || depth > deepest->depth)) deepest = Penetration{i, depth};
    }
    EXPECT_EQ(closed_contacts(sys, q, v), closed) << "trial " << trial;
    if (trial == 0) {
      EXPECT_GE(std::count(closed.begin(), closed.end(), true), 2);  // sphere 0 on the ground, 4 on 0
    }
    const std::optional<Penetration> p = initial_penetration(sys, q);
    ASSERT_TRUE(p && deepest);
    EXPECT_EQ(p->contact, deepest->contact);
    EXPECT_EQ(p->depth, deepest->depth);
    EXPECT_NEAR(p->depth, 0.02, 1e-12);  // spheres 2 and 3
  }
}

TEST(System, BudgetsBoundRowsAndFixedSteps) {
  System s;
  s.simulation.t_end = 1;
  s.simulation.output_interval = 1e-9;
  EXPECT_NE(budget_problem(s).find("1e+09 output rows"), std::string::npos) << budget_problem(s);
  s.simulation.output_interval = 0.01;
  EXPECT_EQ(budget_problem(s), "");
  s.integrator = Integrator::time_stepping;
  s.time_stepping.h = 1e-300;
  EXPECT_NE(budget_problem(s).find("more than simulation.max_steps"), std::string::npos) << budget_problem(s);
  s.time_stepping.h = 1e-7;  // 1e7 steps: exactly the default budget
  EXPECT_EQ(budget_problem(s), "");
}

}  // namespace
}  // namespace impactsim
