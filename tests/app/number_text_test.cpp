#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "app/number_text.hpp"

namespace impactsim {
namespace {

std::string reference(double x, int precision) {
  char text[64];
  return std::string(text, std::to_chars(text, text + sizeof text, x, std::chars_format::general, precision).ptr);
}

std::string printf_text(double x, int precision) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", precision, x);
  return text;
}

// Every precision on x, -x and the neighbours of x.
void expect_all_precisions(double x) {
  for (double y : {x, -x, std::nextafter(x, 0.0), std::nextafter(x, INFINITY)})
    for (int p = 1; p <= 17; ++p) ASSERT_EQ(NumberText(y, p).view(), reference(y, p)) << "x = " << y << ", p = " << p;
}

TEST(NumberText, IsPrintfsGeneralFormat) {
  EXPECT_EQ(NumberText(0.5, 6).view(), "0.5");
  EXPECT_EQ(NumberText(1.0 / 3, 6).view(), "0.333333");
  EXPECT_EQ(NumberText(-2.0, 12).view(), "-2");
  EXPECT_EQ(NumberText(123456789.0, 4).view(), "1.235e+08");
  EXPECT_EQ(NumberText(1.5e-5, 12).view(), "1.5e-05");
  EXPECT_EQ(NumberText(1.5e-4, 12).view(), "0.00015");
  EXPECT_EQ(NumberText(1e100, 12).view(), "1e+100");
  EXPECT_EQ(NumberText(0.0, 12).view(), "0");
  EXPECT_EQ(NumberText(-0.0, 12).view(), "-0");
  EXPECT_EQ(NumberText(INFINITY, 12).view(), "inf");
  EXPECT_EQ(NumberText(-INFINITY, 12).view(), "-inf");
  for (double x : {0.1, 2.5e-7, 9.81, 1234.5678, 6.02214076e23, 1e-300, 5e-324})
    for (int p = 1; p <= 17; ++p) EXPECT_EQ(NumberText(x, p).view(), printf_text(x, p)) << x << " " << p;
}

// Exact halves round to even, as printf and to_chars round the exact binary value.
TEST(NumberText, ExactTiesRoundToEven) {
  EXPECT_EQ(NumberText(2.5, 1).view(), "2");
  EXPECT_EQ(NumberText(3.5, 1).view(), "4");
  EXPECT_EQ(NumberText(0.125, 2).view(), "0.12");
  EXPECT_EQ(NumberText(0.375, 2).view(), "0.38");
  EXPECT_EQ(NumberText(125.0, 2).view(), "1.2e+02");
  for (std::int64_t n = 1; n < 200000; n += 2)  // n + 1/2 and (n + 1/2) / 8 for every odd and even n
    for (double x : {n + 0.5, (n - 1) + 0.5, (n + 0.5) / 8, (n + 0.5) * 1024})
      for (int p = 1; p <= 8; ++p) ASSERT_EQ(NumberText(x, p).view(), reference(x, p)) << x << " " << p;
}

// Where the rounded digits carry into a new power of ten (9.995 -> 10.0) and around each power.
TEST(NumberText, PowersOfTenAndCarries) {
  for (int k = -30; k <= 30; ++k) {
    const double ten = std::pow(10.0, k);
    expect_all_precisions(ten);
    for (int p = 1; p <= 16; ++p) expect_all_precisions(ten * (1 - 0.5 * std::pow(10.0, -p)));
  }
}

// Random numbers of every magnitude, and numbers as a trajectory holds them.
TEST(NumberText, MatchesToCharsOnMillionsOfNumbers) {
  std::mt19937_64 rng(20261125);
  std::uniform_int_distribution<std::uint64_t> bits;
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> precision(1, 17), exponent(-14, 14);
  for (int i = 0; i < 1000000; ++i) {
    double x;
    const std::uint64_t b = bits(rng);
    std::memcpy(&x, &b, sizeof x);  // any bit pattern: subnormals, NaNs and infinities included
    const int p = precision(rng);
    ASSERT_EQ(NumberText(x, p).view(), reference(x, p)) << "bits " << b << ", p = " << p;
    const double y = unit(rng) * std::pow(10.0, exponent(rng));
    ASSERT_EQ(NumberText(y, p).view(), reference(y, p)) << "x = " << y << ", p = " << p;
    ASSERT_EQ(NumberText(y, 12).view(), reference(y, 12)) << "x = " << y;
  }
}

}  // namespace
}  // namespace impactsim
