#include "core/dopri5.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace impactsim {
namespace {

// Butcher tableau of DOPRI5 (Hairer-Norsett-Wanner, Table II.5.2).
constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                 a65 = -5103.0 / 18656;
constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784,
                 a76 = 11.0 / 84;
// Difference between the 5th and 4th order weights: the local error estimate.
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                 e6 = 22.0 / 525, e7 = -1.0 / 40;
// Continuous extension (Hairer's CONTD5 coefficients).
constexpr double d1 = -12715105075.0 / 11282082432, d3 = 87487479700.0 / 32700410799,
                 d4 = -10690763975.0 / 1880347072, d5 = 701980252875.0 / 199316789632,
                 d6 = -1453857185.0 / 822651844, d7 = 69997945.0 / 29380423;

// Step-size controller constants of DOPRI5.
constexpr double kSafety = 0.9, kFacMin = 0.2, kFacMax = 10.0, kBeta = 0.04;

}  // namespace

Dopri5::Dopri5(int n, Rhs f, OdeTolerances tol)
    : n_(n), f_(std::move(f)), tol_(tol), y_(n), y_new_(n), y_stage_(n), err_(n), k1_(n), k2_(n),
      k3_(n), k4_(n), k5_(n), k6_(n), k7_(n), r1_(n), r2_(n), r3_(n), r4_(n), r5_(n) {}

bool Dopri5::eval(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dy) {
  ++evaluations_;
  return f_(t, y, dy) && dy.allFinite();
}

double Dopri5::error_norm(const Eigen::VectorXd& err, const Eigen::VectorXd& y0,
                          const Eigen::VectorXd& y1) const {
  double sum = 0.0;
  for (int i = 0; i < n_; ++i) {
    const double sc = tol_.atol + tol_.rtol * std::max(std::abs(y0[i]), std::abs(y1[i]));
    sum += (err[i] / sc) * (err[i] / sc);
  }
  return n_ > 0 ? std::sqrt(sum / n_) : 0.0;
}

// RMS of x scaled by the tolerances at ref, as in HINIT.
double Dopri5::scaled_norm(const Eigen::VectorXd& x, const Eigen::VectorXd& ref) const {
  double sum = 0.0;
  for (int i = 0; i < n_; ++i) {
    const double sc = tol_.atol + tol_.rtol * std::abs(ref[i]);
    sum += (x[i] / sc) * (x[i] / sc);
  }
  return n_ > 0 ? std::sqrt(sum / n_) : 0.0;
}

// Starting step from Hairer-Norsett-Wanner II.4 ("HINIT").
double Dopri5::initial_step(double t_limit) {
  const double span = t_limit - t_;
  if (tol_.initial_step > 0) return std::min(tol_.initial_step, span);
  const double d0 = scaled_norm(y_, y_), d1 = scaled_norm(k1_, y_);
  const double h0 = std::min(span, (d0 < 1e-10 || d1 < 1e-10) ? 1e-6 : 0.01 * d0 / d1);
  y_stage_ = y_ + h0 * k1_;
  if (!eval(t_ + h0, y_stage_, k2_)) return h0;
  const double d2 = scaled_norm(k2_ - k1_, y_) / h0;
  const double dm = std::max(d1, d2);
  const double h1 = dm <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / dm, 1.0 / 5);
  double h = std::min(100 * h0, h1);
  if (tol_.max_step > 0) h = std::min(h, tol_.max_step);
  return std::min(h, span);
}

Dopri5::Status Dopri5::reset(double t0, const Eigen::VectorXd& y0, bool keep_step) {
  t_ = t_prev_ = t0;
  y_ = y0;
  if (!keep_step) h_ = 0.0;
  fac_old_ = 1e-4;
  last_rejected_ = false;
  if (!y_.allFinite()) return Status::not_finite;
  return eval(t_, y_, k1_) ? Status::ok : Status::rhs_failed;
}

Dopri5::Status Dopri5::set_state(const Eigen::VectorXd& y) {
  y_ = y;
  return eval(t_, y_, k1_) ? Status::ok : Status::rhs_failed;
}

Dopri5::Status Dopri5::step(double t_limit) {
  if (h_ <= 0) h_ = initial_step(t_limit);
  const double expo = 0.2 - kBeta * 0.75;
  while (true) {
    double h = std::min(h_, t_limit - t_);
    if (tol_.max_step > 0) h = std::min(h, tol_.max_step);
    const bool hits_limit = (t_limit - t_) <= h * (1 + 1e-12);
    if (hits_limit) h = t_limit - t_;
    if (h <= 16 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t_)))
      return Status::step_underflow;

    bool stages_ok = true;
    y_stage_ = y_ + h * a21 * k1_;
    stages_ok = stages_ok && eval(t_ + c2 * h, y_stage_, k2_);
    y_stage_ = y_ + h * (a31 * k1_ + a32 * k2_);
    stages_ok = stages_ok && eval(t_ + c3 * h, y_stage_, k3_);
    y_stage_ = y_ + h * (a41 * k1_ + a42 * k2_ + a43 * k3_);
    stages_ok = stages_ok && eval(t_ + c4 * h, y_stage_, k4_);
    y_stage_ = y_ + h * (a51 * k1_ + a52 * k2_ + a53 * k3_ + a54 * k4_);
    stages_ok = stages_ok && eval(t_ + c5 * h, y_stage_, k5_);
    y_stage_ = y_ + h * (a61 * k1_ + a62 * k2_ + a63 * k3_ + a64 * k4_ + a65 * k5_);
    stages_ok = stages_ok && eval(t_ + h, y_stage_, k6_);
    y_new_ = y_ + h * (a71 * k1_ + a73 * k3_ + a74 * k4_ + a75 * k5_ + a76 * k6_);
    stages_ok = stages_ok && eval(t_ + h, y_new_, k7_);

    double err = std::numeric_limits<double>::infinity();
    if (stages_ok) {
      err_ = h * (e1 * k1_ + e3 * k3_ + e4 * k4_ + e5 * k5_ + e6 * k6_ + e7 * k7_);
      err = error_norm(err_, y_, y_new_);
    }
    if (!std::isfinite(err)) {
      // A stage left the region where f is defined or finite: retreat hard.
      ++rejected_;
      h_ = 0.1 * h;
      last_rejected_ = true;
      continue;
    }
    const double fac11 = std::pow(err, expo);
    if (err <= 1.0) {
      const double fac = std::clamp(fac11 / std::pow(fac_old_, kBeta) / kSafety, 1.0 / kFacMax, 1.0 / kFacMin);
      double h_new = h / fac;
      if (last_rejected_) h_new = std::min(h_new, h);
      fac_old_ = std::max(err, 1e-4);
      // Dense output coefficients before the state moves on.
      r1_ = y_;
      r2_ = y_new_ - y_;
      r3_ = h * k1_ - r2_;
      r4_ = r2_ - h * k7_ - r3_;
      r5_ = h * (d1 * k1_ + d3 * k3_ + d4 * k4_ + d5 * k5_ + d6 * k6_ + d7 * k7_);
      t_prev_ = t_;
      t_ = hits_limit ? t_limit : t_ + h;
      y_.swap(y_new_);
      k1_.swap(k7_);
      // Keep the controller's proposal even when this step was cut short by t_limit.
      h_ = hits_limit ? std::max(h_new, h_) : h_new;
      last_rejected_ = false;
      ++accepted_;
      return Status::ok;
    }
    h_ = h / std::min(1.0 / kFacMin, fac11 / kSafety);
    last_rejected_ = true;
    ++rejected_;
  }
}

void Dopri5::dense(double t, Eigen::VectorXd& out) const {
  const double h = t_ - t_prev_;
  const double s = h > 0 ? (t - t_prev_) / h : 1.0;
  const double s1 = 1.0 - s;
  out = r1_ + s * (r2_ + s1 * (r3_ + s * (r4_ + s1 * r5_)));
}

}  // namespace impactsim
