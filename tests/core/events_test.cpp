// Event kinds, their names in events.csv, and which of them change the velocity.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>

#include "core/events.hpp"

namespace impactsim {
namespace {

TEST(Events, KindsHaveTheirEventsCsvNames) {
  const std::vector<std::pair<EventKind, std::string>> kinds{
      {EventKind::impact, "impact"}, {EventKind::zeno, "zeno"},   {EventKind::iwc, "iwc"}, {EventKind::liftoff, "liftoff"},
      {EventKind::stick, "stick"},   {EventKind::slip, "slip"},   {EventKind::rest, "rest"}};
  for (const auto& [kind, name] : kinds) {
    EXPECT_EQ(event_kind_name(kind), name);
    std::ostringstream s;
    s << kind;
    EXPECT_EQ(s.str(), name);
  }
}

TEST(Events, ImpactsAreTheKindsThatChangeTheVelocity) {
  for (EventKind k : {EventKind::impact, EventKind::zeno, EventKind::iwc}) EXPECT_TRUE(is_impact(k)) << k;
  for (EventKind k : {EventKind::liftoff, EventKind::stick, EventKind::slip, EventKind::rest}) EXPECT_FALSE(is_impact(k)) << k;
}

// runs.csv's reason column: one short, distinct code per reason.
TEST(Events, StopReasonsHaveDistinctCodes) {
  std::set<std::string_view> codes;
  for (int k = 0; k <= static_cast<int>(StopReason::energy_gain); ++k) {
    const std::string_view code = stop_reason_code(static_cast<StopReason>(k));
    EXPECT_NE(code, "?");
    EXPECT_EQ(code.find_first_of(", \n"), std::string_view::npos) << code;
    codes.insert(code);
  }
  EXPECT_EQ(codes.size(), static_cast<size_t>(StopReason::energy_gain) + 1);
  EXPECT_EQ(stop_reason_code(StopReason::stalled), "stalled");
}

TEST(Events, TimesPrintWithTwelveSignificantDigits) {
  EXPECT_EQ(format_time(0.1), "0.1");
  EXPECT_EQ(format_time(1.0 / 3), "0.333333333333");
  EXPECT_EQ(format_time(2.5e-13), "2.5e-13");
}

// A Zeno close flagged as holding nearly dependent rows: energy removed above kDependentCloseRatio
// times its rowwise_loss; never another kind of event or a plastic Zeno impact.
TEST(Events, DependentClosesRemoveFarMoreThanTheirRowsCarry) {
  Event e{.t = 1.0, .kind = EventKind::zeno, .law = "close", .kinetic_before = 1.0, .kinetic_after = 1.0 - 99e-6};
  e.rowwise_loss = 1e-6;
  EXPECT_FALSE(closes_dependent_rows(e));  // 99 times
  e.kinetic_after = 1.0 - 101e-6;
  EXPECT_TRUE(closes_dependent_rows(e));
  e.law = "plastic";
  EXPECT_FALSE(closes_dependent_rows(e));
  e.law = "close";
  e.kind = EventKind::impact;
  EXPECT_FALSE(closes_dependent_rows(e));
  // Nothing to stop, nothing removed (b = 0): not flagged.
  Event still{.t = 1.0, .kind = EventKind::zeno, .law = "close", .kinetic_before = 0.5, .kinetic_after = 0.5};
  EXPECT_FALSE(closes_dependent_rows(still));
}

// Issue 62, item 6: a row that is not finite is never a result; the error names what overflowed.
TEST(Events, ARowThatIsNotFiniteIsAnError) {
  const Eigen::VectorXd q = Eigen::VectorXd::Ones(3), v = Eigen::VectorXd::Zero(3);
  Eigen::VectorXd bad = q;
  bad(1) = INFINITY;
  EXPECT_NO_THROW(check_finite_row(Sample{0.5, q, v, 1.0, -2.0}));
  auto message = [](const Sample& row) -> std::string {
    try {
      check_finite_row(row);
    } catch (const SimulationError& e) {
      EXPECT_EQ(e.reason(), StopReason::not_finite);
      EXPECT_EQ(e.time(), row.t);
      return e.what();
    }
    return "finite";
  };
  EXPECT_NE(message(Sample{0.25, bad, v, 1.0, 0.0}).find("at t = 0.25 s the configuration is not finite"), std::string::npos);
  EXPECT_NE(message(Sample{0.25, q, bad, 1.0, 0.0}).find("the velocity is not finite"), std::string::npos);
  EXPECT_NE(message(Sample{0.25, q, v, INFINITY, 0.0}).find("the kinetic energy is not finite"), std::string::npos);
  EXPECT_NE(message(Sample{0.25, q, v, 1.0, NAN}).find("the potential energy is not finite"), std::string::npos);
  EXPECT_NE(message(Sample{0.25, q, v, 1.0, NAN}).find("world.gravity"), std::string::npos);
}

}  // namespace
}  // namespace impactsim
