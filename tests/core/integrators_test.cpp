// The integrator registry: names, what each says of a system, and its settings' round trip from a
// scene's values to the System and back.
#include <gtest/gtest.h>

#include <set>

#include "core/integrators.hpp"
#include "scenes/scene.hpp"

namespace impactsim {
namespace {

TEST(Integrators, EveryKindHasOneDescriptorFoundByItsName) {
  std::set<std::string> names;
  for (const IntegratorDescriptor* d : integrator_registry()) {
    EXPECT_TRUE(names.insert(d->name).second) << d->name;
    EXPECT_EQ(&integrator_descriptor(d->kind), d);
    EXPECT_EQ(find_integrator(d->name), d);
    EXPECT_EQ(integrator_name(d->kind), d->name);
    EXPECT_FALSE(d->summary.empty()) << d->name;
    EXPECT_EQ(d->section.empty(), d->settings.empty()) << d->name;
  }
  EXPECT_EQ(integrator_names_text(), "event-driven, time-stepping, drumwright");
  EXPECT_EQ(find_integrator("euler"), nullptr);
  EXPECT_TRUE(integrator_descriptor(Integrator::event_driven).uses_law);
  EXPECT_FALSE(integrator_descriptor(Integrator::drumwright).uses_law);
}

TEST(Integrators, EachDescribesASystemAndNamesItsStep) {
  System sys;
  EXPECT_EQ(describe_integrator(sys), "event-driven");
  EXPECT_EQ(integrator_descriptor(sys.integrator).step(sys), 0.0);
  sys.integrator = Integrator::drumwright;
  EXPECT_EQ(describe_integrator(sys), "drumwright (lcp, polyhedral cone, h = 0.01 s)");
  EXPECT_EQ(integrator_descriptor(sys.integrator).step(sys), 0.01);
  sys.integrator = Integrator::time_stepping;
  sys.time_stepping.alpha = 0.5;
  sys.time_stepping.h = 0.004;
  EXPECT_EQ(describe_integrator(sys), "time-stepping (trapezoidal, h = 0.004 s)");
  EXPECT_EQ(integrator_descriptor(sys.integrator).step(sys), 0.004);
}

// values() reads back what apply() wrote, with the defaults that depend on others resolved.
TEST(Integrators, SettingsGoToTheSystemAndComeBack) {
  const IntegratorDescriptor& dw = integrator_descriptor(Integrator::drumwright);
  System sys;
  sys.contact.friction_directions = 12;
  Settings given(dw.settings);
  given.set("h", 0.002);
  given.set("problem", std::string("min-norm-qp"));
  given.set("cone", std::string("circular"));
  given.set("K_n", 5e9);
  EXPECT_FALSE(dw.apply(given, sys));
  EXPECT_EQ(sys.drumwright.h, 0.002);
  EXPECT_EQ(sys.drumwright.problem, SoftProblem::min_norm_qp);
  EXPECT_EQ(sys.drumwright.friction_directions, 12);
  const Settings back = dw.values(sys);
  EXPECT_EQ(back.number("K_n"), 5e9);
  EXPECT_EQ(back.word("cone"), "circular");
  EXPECT_EQ(back.number("B_t"), 1e6 / 0.002);  // the paper's default, resolved
  EXPECT_EQ(back.number("zeta"), 1 / 0.002);
  const IntegratorDescriptor& ts = integrator_descriptor(Integrator::time_stepping);
  Settings trapezoidal(ts.settings);
  trapezoidal.set("scheme", std::string("trapezoidal"));
  EXPECT_FALSE(ts.apply(trapezoidal, sys));
  EXPECT_EQ(sys.time_stepping.alpha, 0.5);
  EXPECT_EQ(ts.values(sys).word("scheme"), "trapezoidal");
}

TEST(Integrators, CombinationsTheSchemeCannotTakeAreProblemsAtTheirKeys) {
  const IntegratorDescriptor& dw = integrator_descriptor(Integrator::drumwright);
  System sys;
  Settings circular_lcp(dw.settings);
  circular_lcp.set("cone", std::string("circular"));
  EXPECT_EQ(dw.apply(circular_lcp, sys).key, "cone");
  Settings no_force(dw.settings);
  no_force.set("K_n", 0.0);
  no_force.set("B_n", 0.0);
  const SettingProblem problem = dw.apply(no_force, sys);
  EXPECT_EQ(problem.key, "");
  EXPECT_NE(problem.message.find("K_n and B_n cannot both be zero"), std::string::npos);
}

}  // namespace
}  // namespace impactsim
