#pragma once
// Halm and Posa's set-valued multi-contact Routh impact, sampled by their Algorithm 1: repeat the
// step LCP (75) with a fresh, strictly positive random lambda_max = h draw, draw ~ Uniform(0,1]^m,
//   z = [beta; lambda_n; lambda_D; gamma] >= 0  _|_  W z + w >= 0,
//   W = [ 0   -I        0         0 ;
//         I   Wnn       WnD       0 ;
//         0   WDn       WDD       E ;
//         0   mu        -E^T      0 ],     w = [lambda_max; J_n v; J_D v; 0],
// (Wxy = J_x M^-1 J_y^T: the transposes the paper's (75b) forgot; the lower right 3 x 3 blocks are
// the Coulomb LCP of numerics/coulomb_lcp.hpp) and apply v += M^-1 (J_n^T lambda_n + J_D^T lambda_D),
// until no contact approaches (min J_n v >= -tolerance) or N steps have been taken. Each run is one
// sample of the post-impact set. Every step dissipates (Thm 7; checked at every step, a rise flags
// the sample); the step LCP always has a solution (Thm 6).
#include <memory>

#include "impact/impact_law.hpp"
#include "numerics/settings.hpp"
#include "numerics/lcp.hpp"

namespace impactsim {

struct RouthSettings {
  // Impulse per step [N s]. 0: the impulse that would stop the most violated contact on its own,
  // max_i (-J_n,i v- / (J_n,i M^-1 J_n,i^T)); it scales with the impact, so samples are homogeneous.
  double h = 0.0;
  int max_steps = 100;          // N; a sample still colliding after N steps is flagged, not accepted
  enum class Solution { lemke, random } solution = Solution::lemke;
  // `random`: uniform among the distinct outcomes of a step LCP with several solutions (enumerated,
  // at most kMaxRandomContacts contacts), because Lemke alone under-samples them (Halm and Posa §5.3, Assumption 6).
  double tolerance = 1e-8;      // [m/s] a contact with J_n v >= -tolerance no longer approaches
  // How impactsim impact draws lambda_max: i.i.d. uniform, or sample i = point i of a Sobol sequence
  // in [0,1]^(m N) (Joe-Kuo direction numbers, as the authors' code does with sobolset). A run's
  // impacts are single draws and always i.i.d.
  enum class Sampling { uniform, sobol } sampling = Sampling::uniform;
};

// A scene's simulation.routh settings (impact/laws.hpp declares them) as the law takes them.
RouthSettings routh_settings(const Settings& settings);

constexpr int kMaxRandomContacts = 4;

// The step impulse h of an impact: settings_h if positive, else the default of RouthSettings::h.
double routh_step_impulse(double settings_h, const ContactSpace& contacts, const Eigen::VectorXd& v_minus);

// One impact prepared for sampling: the step LCP's matrix depends only on the configuration, so it
// is built once and every sample only changes w. Holds its own copies of what it needs.
class RouthImpact : public PreparedImpact {
 public:
  RouthImpact(const ContactSpace& contacts, const Eigen::VectorXd& v_minus, const RouthSettings& settings);
  ~RouthImpact() override;
  RouthImpact(RouthImpact&&) noexcept;
  // One sample with i.i.d. uniform draws from rng.
  ImpactResult draw(Rng& rng) const override;
  // Sample `index` of the set: i.i.d. from rng, or the index-th Sobol point (settings.sampling);
  // rng also drives the random solution choice.
  ImpactResult sample(std::uint64_t index, Rng& rng) const override;
  // The step impulses given: lambda_max of step s is h * draws(:, s), entries in (0, 1].
  ImpactResult sample_with(const Eigen::MatrixXd& draws, Rng& rng) const;
  double h() const { return h_; }
  struct Step;  // the step LCP, opaque here

 private:
  // draw(step, lambda_max_over_h) fills the step's draws; returns false when there are none left.
  template <class Draw>
  ImpactResult run(Draw&& draw, Rng& rng) const;
  // The calling thread's LemkePaths of the step LCP (same answers as solve_lemke, faster on repeated
  // pivot paths), from this impact's second sample on the thread; null before that, so a run's
  // impacts, sampled once each, do not pay for keeping tableaux. Kept per thread, keyed by id_.
  LemkePaths* lemke_paths() const;

  std::uint64_t id_;  // unique per impact, never reused

  Eigen::MatrixXd M_;
  Eigen::VectorXd v_minus_;
  double kinetic_minus_;  // 0.5 v-^T M v-, the same for every sample [J]
  RouthSettings settings_;
  double h_;
  std::unique_ptr<Step> step_;
  struct Sobol;
  std::unique_ptr<Sobol> sobol_;  // the sequence's prototype, positioned per sample
};

class RouthLaw : public ImpactLaw {
 public:
  explicit RouthLaw(RouthSettings settings = {}) : settings_(settings) {}
  std::string_view name() const override { return "routh"; }
  // A RouthImpact. A sample whose N steps did not end the impact has terminated and ok false.
  std::unique_ptr<PreparedImpact> prepare(const ContactSpace& contacts, const Eigen::VectorXd& v_minus) const override;
  // One sample with the step impulses given (RouthImpact::sample_with), for quasi-random designs
  // and tests (homogeneity, reproducibility).
  ImpactResult resolve_with(const ContactSpace& contacts, const Eigen::VectorXd& v_minus, const Eigen::MatrixXd& draws,
                            Rng& rng) const;
  const RouthSettings& settings() const { return settings_; }

 private:
  RouthSettings settings_;
};

}  // namespace impactsim
