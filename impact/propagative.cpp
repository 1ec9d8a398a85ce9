#include "impact/propagative.hpp"

#include <cmath>
#include <numbers>
#include <random>

#include <Eigen/Cholesky>

#include "impact/laws.hpp"
#include "numerics/lcp.hpp"

namespace impactsim {
namespace {

class PropagativeImpact : public PreparedImpact {
 public:
  PropagativeImpact(const ContactSpace& c, const Eigen::VectorXd& v_minus, const PropagativeSettings& settings)
      : settings_(settings), v_minus_(v_minus), M_(c.M), tangent_dim_(c.tangent_dim) {
    const int m = c.contacts();
    kinetic_minus_ = 0.5 * v_minus.dot(c.M * v_minus);
    Minv_JT_ = mass_factor(c).solve(c.J_n.transpose());
    W_ = c.J_n * Minv_JT_;
    g0_ = c.J_n * v_minus;
    tol_ = settings.tolerance * std::sqrt(2 * kinetic_minus_ + 1e-300);
    R_ = settings.R >= 0 ? settings.R : (m ? c.e.minCoeff() : 0.0);
    plastic_ = solve_lemke(W_, g0_);  // the frictionless inelastic LCP
    cap_ = settings.max_reflections;
    if (m == 2) {
      const double coupling = W_(0, 1) / std::sqrt(W_(0, 0) * W_(1, 1));
      const double gamma = std::asin(std::sqrt(std::clamp((1 + coupling) / 2, 0.0, 1.0)));
      if (gamma > 0) cap_ = static_cast<int>(std::ceil(std::numbers::pi / gamma)) + 1;
    }
  }

  ImpactResult draw(Rng& rng) const override {
    const int m = static_cast<int>(g0_.size());
    ImpactResult r;
    r.kinetic_energy_minus = kinetic_minus_;
    r.impulse_t = Eigen::VectorXd::Zero(m * tangent_dim_);
    r.lcp_solves = 1;
    r.lcp_residual = plastic_.residual;
    if (!plastic_.ok()) {
      r.ok = false;
      r.v_plus = v_minus_;
      r.impulse_n = Eigen::VectorXd::Zero(m);
      r.diagnostic = "propagative: plastic LCP: " + describe(plastic_.status);
      return r;
    }
    Eigen::VectorXd elastic = Eigen::VectorXd::Zero(m);
    double weight = R_;
    if (!reflect(elastic, r, rng)) {
      weight = 0;  // fall back to plastic
      r.terminated = false;
      r.diagnostic = "propagative: no feasible momentum after " + std::to_string(r.steps) +
                     " reflections; resolved plastically instead";
    }
    r.impulse_n = weight * elastic + (1 - weight) * plastic_.z;
    r.v_plus = v_minus_ + Minv_JT_ * r.impulse_n;
    r.kinetic_energy_plus = 0.5 * r.v_plus.dot(M_ * r.v_plus);
    return r;
  }

 private:
  // Elastic impulses by reflections (eq. (7)) until no contact approaches; false past the cap.
  bool reflect(Eigen::VectorXd& elastic, ImpactResult& r, Rng& rng) const {
    if (R_ == 0) return true;  // a plastic impact needs no reflections
    const int m = static_cast<int>(g0_.size());
    Eigen::VectorXd g = g0_;
    while (true) {
      int pick = -1;
      double worst = 0;
      std::vector<int> violated;
      for (int i = 0; i < m; ++i) {
        const double normalized = g[i] / std::sqrt(W_(i, i));
        if (normalized >= -tol_) continue;
        violated.push_back(i);
        if (normalized < worst) {
          worst = normalized;
          pick = i;
        }
      }
      if (violated.empty()) return true;
      if (r.steps >= cap_) return false;
      if (settings_.order == PropagativeSettings::Order::random)
        pick = violated[std::uniform_int_distribution<size_t>(0, violated.size() - 1)(rng)];
      const double impulse = -2 * g[pick] / W_(pick, pick);
      elastic[pick] += impulse;
      g += impulse * W_.col(pick);
      r.ordering.push_back(pick);
      ++r.steps;
    }
  }

  PropagativeSettings settings_;
  Eigen::VectorXd v_minus_;
  Eigen::MatrixXd M_, Minv_JT_, W_;
  int tangent_dim_;
  Eigen::VectorXd g0_;
  double kinetic_minus_ = 0, tol_ = 0, R_ = 0;
  int cap_ = 0;
  LcpSolution plastic_;
};

}  // namespace

std::unique_ptr<PreparedImpact> PropagativeLaw::prepare(const ContactSpace& c, const Eigen::VectorXd& v_minus) const {
  return std::make_unique<PropagativeImpact>(c, v_minus, settings_);
}

}  // namespace impactsim

namespace impactsim {

PropagativeSettings propagative_settings(const Settings& s) {
  PropagativeSettings out;
  out.R = s.number("R");
  out.order = s.word("order") == "random" ? PropagativeSettings::Order::random : PropagativeSettings::Order::most_violated;
  out.max_reflections = static_cast<int>(s.integer("max_reflections"));
  out.tolerance = s.number("tolerance");
  return out;
}

const LawDescriptor& propagative_law() {
  static const LawDescriptor law = [] {
    const PropagativeSettings d;
    LawDescriptor out;
    out.name = "propagative";
    out.summary = "Seghete and Murphey's propagative law: reflections from contact to contact, elastic to plastic";
    out.model.friction = false;
    out.model.per_contact_restitution = false;
    out.model.restitution_setting = "R";
    out.settings = {
        number_setting("R", SettingKind::fraction, d.R, "the smallest `e` of the impact's contacts",
                       "energetic restitution: 1 elastic, 0 plastic"),
        choice_setting("order", {"most_violated", "random"}, "which violated contact reflects next"),
        count_setting("max_reflections", d.max_reflections, "1000",
                      "cap for three or more contacts (two use Seghete and Murphey's bound); past it the impact is "
                      "plastic and logged"),
        fixed_setting(number_setting("tolerance", SettingKind::positive, d.tolerance, "1e-12",
                                     "of the pre-impact speed ||v-||_M: a violation smaller than this is none")),
    };
    out.make = [](const Settings& s) -> std::unique_ptr<ImpactLaw> {
      return std::make_unique<PropagativeLaw>(propagative_settings(s));
    };
    return out;
  }();
  return law;
}

}  // namespace impactsim
