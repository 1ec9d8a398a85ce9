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
    : n_(n), f_(std::move(f)), tol_(tol), y_(n), y_new_(n), y_stage_(n), err_(n), k_(n), dense_(n) {}

bool Dopri5::eval(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dy) {
  ++counts_.evaluations;
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
  const double span = t_limit - step_.t;
  if (tol_.initial_step > 0) return std::min(tol_.initial_step, span);
  const double d0 = scaled_norm(y_, y_), d1 = scaled_norm(k_.k1, y_);
  const double h0 = std::min(span, (d0 < 1e-10 || d1 < 1e-10) ? 1e-6 : 0.01 * d0 / d1);
  y_stage_ = y_ + h0 * k_.k1;
  if (!eval(step_.t + h0, y_stage_, k_.k2)) return h0;
  const double d2 = scaled_norm(k_.k2 - k_.k1, y_) / h0;
  const double dm = std::max(d1, d2);
  const double h1 = dm <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / dm, 1.0 / 5);
  double h = std::min(100 * h0, h1);
  if (tol_.max_step > 0) h = std::min(h, tol_.max_step);
  return std::min(h, span);
}

void Dopri5::restart(double t0, const Eigen::VectorXd& y0, bool keep_step) {
  step_.t = step_.t_prev = t0;
  y_ = y0;
  if (!keep_step) step_.h = 0.0;
  step_.fac_old = 1e-4;
  step_.last_rejected = false;
}

Dopri5::Status Dopri5::reset(double t0, const Eigen::VectorXd& y0, bool keep_step) {
  restart(t0, y0, keep_step);
  return first_rate();
}

Dopri5::Status Dopri5::reset(double t0, const Eigen::VectorXd& y0, const Eigen::VectorXd& rate, bool keep_step) {
  restart(t0, y0, keep_step);
  if (!y_.allFinite()) return Status::not_finite;  // counted as first_rate counts
  ++counts_.evaluations;
  k_.k1 = rate;
  return k_.k1.allFinite() ? Status::ok : Status::not_finite;
}

Dopri5::Status Dopri5::first_rate() {
  if (!y_.allFinite()) return Status::not_finite;
  ++counts_.evaluations;
  if (!f_(step_.t, y_, k_.k1)) return Status::rhs_failed;
  return k_.k1.allFinite() ? Status::ok : Status::not_finite;
}

Dopri5::Status Dopri5::set_state(const Eigen::VectorXd& y) {
  y_ = y;
  return first_rate();
}

Dopri5::Status Dopri5::set_state(const Eigen::VectorXd& y, const Eigen::VectorXd& rate) {
  y_ = y;
  if (!y_.allFinite()) return Status::not_finite;  // counted as first_rate counts
  ++counts_.evaluations;
  k_.k1 = rate;
  return k_.k1.allFinite() ? Status::ok : Status::not_finite;
}

Dopri5::Status Dopri5::step(double t_limit) {
  if (step_.h <= 0) step_.h = initial_step(t_limit);
  const double expo = 0.2 - kBeta * 0.75;
  while (true) {
    double h = std::min(step_.h, t_limit - step_.t);
    if (tol_.max_step > 0) h = std::min(h, tol_.max_step);
    const bool hits_limit = (t_limit - step_.t) <= h * (1 + 1e-12);
    if (hits_limit) h = t_limit - step_.t;
    if (h <= 16 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(step_.t)))
      return Status::step_underflow;

    bool stages_ok = true;
    y_stage_ = y_ + h * a21 * k_.k1;
    stages_ok = stages_ok && eval(step_.t + c2 * h, y_stage_, k_.k2);
    y_stage_ = y_ + h * (a31 * k_.k1 + a32 * k_.k2);
    stages_ok = stages_ok && eval(step_.t + c3 * h, y_stage_, k_.k3);
    y_stage_ = y_ + h * (a41 * k_.k1 + a42 * k_.k2 + a43 * k_.k3);
    stages_ok = stages_ok && eval(step_.t + c4 * h, y_stage_, k_.k4);
    y_stage_ = y_ + h * (a51 * k_.k1 + a52 * k_.k2 + a53 * k_.k3 + a54 * k_.k4);
    stages_ok = stages_ok && eval(step_.t + c5 * h, y_stage_, k_.k5);
    y_stage_ = y_ + h * (a61 * k_.k1 + a62 * k_.k2 + a63 * k_.k3 + a64 * k_.k4 + a65 * k_.k5);
    stages_ok = stages_ok && eval(step_.t + h, y_stage_, k_.k6);
    y_new_ = y_ + h * (a71 * k_.k1 + a73 * k_.k3 + a74 * k_.k4 + a75 * k_.k5 + a76 * k_.k6);
    stages_ok = stages_ok && eval(step_.t + h, y_new_, k_.k7);

    double err = std::numeric_limits<double>::infinity();
    if (stages_ok) {
      err_ = h * (e1 * k_.k1 + e3 * k_.k3 + e4 * k_.k4 + e5 * k_.k5 + e6 * k_.k6 + e7 * k_.k7);
      err = error_norm(err_, y_, y_new_);
    }
    if (!std::isfinite(err)) {
      // A stage left the region where f is defined or finite: retreat hard.
      ++counts_.rejected;
      step_.h = 0.1 * h;
      step_.last_rejected = true;
      continue;
    }
    const double fac11 = std::pow(err, expo);
    if (err <= 1.0) {
      const double fac = std::clamp(fac11 / std::pow(step_.fac_old, kBeta) / kSafety, 1.0 / kFacMax, 1.0 / kFacMin);
      double h_new = h / fac;
      if (step_.last_rejected) h_new = std::min(h_new, h);
      step_.fac_old = std::max(err, 1e-4);
      // Dense output coefficients before the state moves on.
      dense_.r1 = y_;
      dense_.r2 = y_new_ - y_;
      dense_.r3 = h * k_.k1 - dense_.r2;
      dense_.r4 = dense_.r2 - h * k_.k7 - dense_.r3;
      dense_.r5 = h * (d1 * k_.k1 + d3 * k_.k3 + d4 * k_.k4 + d5 * k_.k5 + d6 * k_.k6 + d7 * k_.k7);
      step_.t_prev = step_.t;
      step_.t = hits_limit ? t_limit : step_.t + h;
      y_.swap(y_new_);
      k_.k1.swap(k_.k7);
      // Keep the controller's proposal even when this step was cut short by t_limit.
      step_.h = hits_limit ? std::max(h_new, step_.h) : h_new;
      step_.last_rejected = false;
      ++counts_.accepted;
      return Status::ok;
    }
    step_.h = h / std::min(1.0 / kFacMin, fac11 / kSafety);
    step_.last_rejected = true;
    ++counts_.rejected;
  }
}

void Dopri5::dense(double t, Eigen::VectorXd& out) const {
  const double h = step_.t - step_.t_prev;
  const double s = h > 0 ? (t - step_.t_prev) / h : 1.0;
  const double s1 = 1.0 - s;
  out = dense_.r1 + s * (dense_.r2 + s1 * (dense_.r3 + s * (dense_.r4 + s1 * dense_.r5)));
}

}  // namespace impactsim
