#include "impact/routh.hpp"

#include <atomic>
#include <optional>
#include <random>

#include <boost/random/sobol.hpp>

#include <Eigen/Cholesky>

#include "impact/circular_cone.hpp"
#include "impact/laws.hpp"
#include "numerics/coulomb_cone.hpp"
#include "numerics/short_number.hpp"
#include "numerics/coulomb_lcp.hpp"
#include "numerics/friction_cone.hpp"

namespace impactsim {

// W of the step LCP (75b) and the pieces that map its solution back to a velocity change.
struct RouthImpact::Step {
  Eigen::MatrixXd D;           // friction polygon
  Eigen::MatrixXd W;
  Eigen::MatrixXd Jbar;        // [J_n; J_D]
  Eigen::MatrixXd Minv_JbarT;  // M^-1 Jbar^T
  CoulombLayout layout;        // a friction block per contact with mu > 0
  int m = 0, mk = 0;           // contacts; friction multipliers (k per block)
  // The circular cone (impact/circular_cone.hpp): rows normal, tangent, tangent per contact; empty
  // where the polygon is the answer.
  Eigen::MatrixXd J3, W3, Minv_J3T;
  Eigen::VectorXd mu;
};

namespace {

using StepLcp = RouthImpact::Step;

// The step LCP: the Coulomb LCP in z' = [lambda_n; lambda_D; gamma], bordered by the rows of beta,
// which hold lambda_n <= lambda_max (beta >= 0 _|_ lambda_max - lambda_n >= 0).
StepLcp build_step_lcp(const ContactSpace& c) {
  StepLcp s;
  s.m = c.contacts();
  // Frictionless contacts get no friction block (see frictional_contacts_only).
  const CoulombLayout layout = frictional_contacts_only(c.mu, friction_polygon(c.tangent_dim, c.friction_directions));
  s.D = layout.D;
  s.layout = layout;
  s.mk = layout.blocks() * layout.k();
  const int m = s.m, nbar = m + s.mk;
  s.Jbar.resize(nbar, c.M.rows());
  s.Jbar << c.J_n, friction_rows(block_tangent_rows(layout, c.J_t), s.D);
  Eigen::MatrixXd W_bar;
  block_delassus(mass_factor(c), s.Jbar, s.Jbar, W_bar, &s.Minv_JbarT);
  const CoulombLcp coulomb = build_coulomb_lcp(W_bar, Eigen::VectorXd::Zero(nbar), layout);
  const int n = m + nbar + layout.blocks();
  s.W = Eigen::MatrixXd::Zero(n, n);
  s.W.block(0, m, m, m) = -Eigen::MatrixXd::Identity(m, m);
  s.W.block(m, 0, m, m) = Eigen::MatrixXd::Identity(m, m);
  s.W.bottomRightCorner(coulomb.W.rows(), coulomb.W.cols()) = coulomb.W;
  if (uses_circular_cone(c)) {
    s.J3 = cone_rows(c);
    block_delassus(mass_factor(c), s.J3, s.J3, s.W3, &s.Minv_J3T);
    s.mu = c.mu;
  }
  return s;
}

// The step in the circular cone, from the polygon's solution z of the step LCP at v: the cone's
// equations with lambda_n <= lambda_max = w's head (numerics/coulomb_cone.hpp). r gets the
// step's impulses, 3 per contact, and worst the larger of itself and the residual; false where
// Newton stops short.
bool circular_step(const StepLcp& s, const Eigen::VectorXd& w, const Eigen::VectorXd& z, const Eigen::VectorXd& v,
                   Eigen::VectorXd& r, double& worst, std::string& why) {
  const int m = s.m;
  Eigen::VectorXd tangential = Eigen::VectorXd::Zero(2 * m);
  add_block_impulses(s.layout, z.segment(2 * m, s.mk), tangential);
  r.resize(3 * m);
  for (int i = 0; i < m; ++i) {
    r[3 * i] = z[m + i];
    r.segment<2>(3 * i + 1) = tangential.segment<2>(2 * i);
  }
  const Eigen::VectorXd b = s.J3 * v;
  const double scale = std::max(w.head(m).maxCoeff(), impulse_scale(s.W3, b, r));
  const ConeSolution sol = solve_coulomb_cone(s.W3, b, s.mu, r, kConeTolerance * scale, 100, w.head(m));
  worst = std::max(worst, sol.residual);
  r = sol.r;
  if (!sol.converged)
    why = "step in the " + cone_failure(sol.residual);
  return sol.converged;
}

// The step's impulses added to the outcome's velocity and totals: the circular cone's r3 where the
// step has its rows, else the polygon's z.
void take_step(const StepLcp& s, const Eigen::VectorXd& z, const Eigen::VectorXd& r3, ImpactResult& r) {
  const int m = s.m;
  if (s.J3.size() == 0) {
    r.v_plus.noalias() += s.Minv_JbarT * z.segment(m, m + s.mk);
    r.impulse_n += z.segment(m, m);
    add_block_impulses(s.layout, z.segment(2 * m, s.mk), r.impulse_t);
    return;
  }
  r.v_plus.noalias() += s.Minv_J3T * r3;
  for (int i = 0; i < m; ++i) {
    r.impulse_n[i] += r3[3 * i];
    r.impulse_t.segment<2>(2 * i) += r3.segment<2>(3 * i + 1);
  }
}

// w of one step at velocity v: lambda_max = h draw (Algorithm 1), then Jbar v, then 0.
void step_rhs(double h, const Eigen::Ref<const Eigen::VectorXd>& draw, const StepLcp& s, const Eigen::VectorXd& v,
              Eigen::VectorXd& w) {
  w.head(s.m) = h * draw;
  w.segment(s.m, s.m + s.mk).noalias() = s.Jbar * v;
}

// One of the step LCP's solutions: Lemke's, or uniform among the distinct outcomes of all of them.
// paths: the thread's LemkePaths of s.W, or null for plain solve_lemke (the same answer). sol is
// reused storage.
bool solve_step(const StepLcp& s, const Eigen::VectorXd& w, RouthSettings::Solution choice, LemkePaths* paths,
                Rng& rng, LcpSolution& sol, Eigen::VectorXd& z, double& residual, std::string& why) {
  if (choice == RouthSettings::Solution::random) {
    if (w.size() > kMaxEnumeration) {
      why = "step LCP with " + std::to_string(w.size()) + " variables: solution: random enumerates its 2^n bases, " +
            "at most " + std::to_string(kMaxEnumeration) + " variables (use solution: lemke)";
      return false;
    }
    const std::vector<Eigen::VectorXd> all = enumerate_lcp_solutions(s.W, w);
    // Distinct outcomes: solutions that change v identically are one.
    std::vector<Eigen::VectorXd> outcomes, distinct;
    const double tol = 1e-9 * (1.0 + w.cwiseAbs().maxCoeff());
    for (const Eigen::VectorXd& sol : all) {
      const Eigen::VectorXd dv = s.Minv_JbarT * sol.segment(s.m, s.m + s.mk);
      bool seen = false;
      for (const auto& o : outcomes) seen = seen || (o - dv).cwiseAbs().maxCoeff() <= tol;
      if (!seen) {
        outcomes.push_back(dv);
        distinct.push_back(sol);
      }
    }
    if (distinct.empty()) {
      why = "step LCP: the enumeration found no solution";
      return false;
    }
    z = distinct[std::uniform_int_distribution<size_t>(0, distinct.size() - 1)(rng)];
    residual = lcp_residual(s.W, w, z);
    return true;
  }
  if (paths)
    paths->solve(w, sol);
  else
    sol = solve_lemke(s.W, w);
  residual = sol.residual;
  if (!sol.ok()) {
    why = "step LCP with " + std::to_string(w.size()) + " variables: " + describe(sol.status);
    return false;
  }
  z = sol.z;
  return true;
}

}  // namespace

double routh_step_impulse(double settings_h, const ContactSpace& c, const Eigen::VectorXd& v_minus) {
  if (settings_h > 0) return settings_h;
  const Eigen::VectorXd vn = c.J_n * v_minus;
  const Eigen::MatrixXd Minv_JnT = mass_factor(c).solve(c.J_n.transpose());
  double h = 0.0;
  for (int i = 0; i < c.contacts(); ++i) h = std::max(h, -vn[i] / c.J_n.row(i).dot(Minv_JnT.col(i)));
  return h;
}

struct RouthImpact::Sobol {
  boost::random::sobol engine;
};

namespace {
std::atomic<std::uint64_t> next_impact_id{1};
}

RouthImpact::RouthImpact(const ContactSpace& contacts, const Eigen::VectorXd& v_minus, const RouthSettings& settings)
    : id_(next_impact_id++), M_(contacts.M), v_minus_(v_minus), kinetic_minus_(0.5 * v_minus_.dot(M_ * v_minus_)),
      settings_(settings), h_(routh_step_impulse(settings.h, contacts, v_minus)),
      step_(std::make_unique<Step>(build_step_lcp(contacts))) {
  if (settings.sampling == RouthSettings::Sampling::sobol)
    sobol_ = std::make_unique<Sobol>(Sobol{boost::random::sobol(
        static_cast<std::size_t>(contacts.contacts()) * static_cast<std::size_t>(settings.max_steps))});
}

RouthImpact::~RouthImpact() = default;
static_assert(sizeof(boost::random::sobol::result_type) == 8, "64-bit Sobol points");
RouthImpact::RouthImpact(RouthImpact&&) noexcept = default;

LemkePaths* RouthImpact::lemke_paths() const {
  struct Kept {
    std::uint64_t impact = 0;
    int samples = 0;
    std::optional<LemkePaths> paths;
  };
  thread_local Kept kept;
  if (kept.impact != id_) {
    kept.impact = id_;
    kept.samples = 0;
    kept.paths.reset();
  }
  if (++kept.samples < 2) return nullptr;
  if (!kept.paths) kept.paths.emplace(step_->W);
  return &*kept.paths;
}

ImpactResult RouthImpact::sample(std::uint64_t index, Rng& rng) const {
  if (!sobol_) return draw(rng);
  boost::random::sobol engine = sobol_->engine;
  const std::size_t dim = engine.dimension();
  engine.discard(index * dim);
  Eigen::MatrixXd draws(step_->m, settings_.max_steps);
  // (x + 1/2) / 2^64: the point's coordinates, strictly inside (0, 1).
  for (std::size_t k = 0; k < dim; ++k) draws.data()[k] = (static_cast<double>(engine()) + 0.5) * 0x1p-64;
  return sample_with(draws, rng);
}

ImpactResult RouthImpact::draw(Rng& rng) const {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  return run(
      [&](int step, Eigen::Ref<Eigen::VectorXd> draw) {
        if (step >= settings_.max_steps) return false;
        for (int i = 0; i < draw.size(); ++i) draw[i] = 1.0 - unit(rng);  // (0, 1]: strictly positive (Lemma 13)
        return true;
      },
      rng);
}

ImpactResult RouthImpact::sample_with(const Eigen::MatrixXd& draws, Rng& rng) const {
  return run(
      [&](int step, Eigen::Ref<Eigen::VectorXd> draw) {
        if (step >= std::min<int>(settings_.max_steps, static_cast<int>(draws.cols()))) return false;
        draw = draws.col(step);
        return true;
      },
      rng);
}

template <class Draw>
ImpactResult RouthImpact::run(Draw&& draw, Rng& rng) const {
  const StepLcp& s = *step_;
  const int m = s.m, td = static_cast<int>(s.D.rows());
  // Storage reused across samples on this thread: a sample allocates only its result.
  struct Workspace {
    Eigen::VectorXd w, z, draws, vn, Mv, r3;
    LcpSolution sol;
  };
  thread_local Workspace work;
  Eigen::VectorXd &w = work.w, &z = work.z, &draws = work.draws, &vn = work.vn, &Mv = work.Mv;
  ImpactResult r;
  r.kinetic_energy_minus = kinetic_minus_;
  r.v_plus = v_minus_;
  r.impulse_n = Eigen::VectorXd::Zero(m);
  r.impulse_t = Eigen::VectorXd::Zero(m * td);
  if (settings_.solution == RouthSettings::Solution::random && m > kMaxRandomContacts) {
    r.ok = false;
    r.diagnostic = "routh: the random solution choice enumerates step LCPs, for at most " +
                   std::to_string(kMaxRandomContacts) + " contacts; this impact has " + std::to_string(m);
    return r;
  }
  LemkePaths* paths = settings_.solution == RouthSettings::Solution::lemke ? lemke_paths() : nullptr;
  w.setZero(s.W.rows());
  draws.resize(m);
  vn.resize(m);
  Eigen::VectorXd& v = r.v_plus;
  double previous_kinetic = r.kinetic_energy_minus;
  for (vn.noalias() = s.Jbar.topRows(m) * v; vn.minCoeff() < -settings_.tolerance; vn.noalias() = s.Jbar.topRows(m) * v) {
    if (!draw(r.steps, draws)) {
      r.terminated = false;
      r.ok = false;
      r.diagnostic = "routh: a contact still approaches after " + std::to_string(r.steps) + " steps (h = " +
                     short_number(h_) + " N s); raise the step count or h";
      break;
    }
    step_rhs(h_, draws, s, v, w);
    double residual = 0;
    std::string why;
    if (!solve_step(s, w, settings_.solution, paths, rng, work.sol, z, residual, why)) {
      r.ok = false;
      r.diagnostic = "routh: " + why;
      break;
    }
    if (s.J3.size() && !circular_step(s, w, z, v, work.r3, r.cone_residual, why)) {
      r.ok = false;
      r.diagnostic = "routh: " + why;
      break;
    }
    take_step(s, z, work.r3, r);
    // Theorem 7: a step never adds kinetic energy. A rise is a bug, flagged, never accepted.
    Mv.noalias() = M_ * v;
    const double kinetic = 0.5 * v.dot(Mv);
    if (kinetic > previous_kinetic * (1 + 1e-12) + 1e-15) {
      r.ok = false;
      r.diagnostic = "routh: kinetic energy rose at step " + std::to_string(r.steps + 1) + " (" +
                     std::to_string(previous_kinetic) + " -> " + std::to_string(kinetic) + " J)";
    }
    previous_kinetic = kinetic;
    r.lcp_residual = std::max(r.lcp_residual, residual);
    ++r.lcp_solves;
    ++r.steps;
    if (!r.ok) break;
  }
  r.kinetic_energy_plus = previous_kinetic;  // of v as it is: every step ends by measuring it
  return r;
}

std::unique_ptr<PreparedImpact> RouthLaw::prepare(const ContactSpace& c, const Eigen::VectorXd& v_minus) const {
  return std::make_unique<RouthImpact>(c, v_minus, settings_);
}

ImpactResult RouthLaw::resolve_with(const ContactSpace& c, const Eigen::VectorXd& v_minus, const Eigen::MatrixXd& draws,
                                    Rng& rng) const {
  return RouthImpact(c, v_minus, settings_).sample_with(draws, rng);
}

}  // namespace impactsim

namespace impactsim {

RouthSettings routh_settings(const Settings& s) {
  RouthSettings out;
  out.h = s.number("h");
  out.max_steps = static_cast<int>(s.integer("steps"));
  out.sampling = s.word("sampling") == "sobol" ? RouthSettings::Sampling::sobol : RouthSettings::Sampling::uniform;
  out.solution = s.word("solution") == "random" ? RouthSettings::Solution::random : RouthSettings::Solution::lemke;
  out.tolerance = s.number("tolerance");
  return out;
}

const LawDescriptor& routh_law() {
  static const LawDescriptor law = [] {
    const RouthSettings d;
    LawDescriptor out;
    out.name = "routh";
    out.summary = "Halm and Posa's set-valued Routh sampler: small simultaneous impulses of random sizes";
    out.model.restitution = false;
    out.model.per_contact_restitution = false;
    out.settings = {
        number_setting("h", SettingKind::positive, d.h, "the impulse that stops the most violated contact alone",
                       "impulse per step, N s (Halm and Posa's h)"),
        count_setting("steps", d.max_steps, "100",
                      "N: steps before a sample is flagged as not terminated (an error in a run, `collide` in `impact`)"),
        choice_setting("sampling", {"uniform", "sobol"},
                       "how `impactsim impact` draws lambda_max: i.i.d. uniform, or sample i is point i of a Sobol "
                       "sequence in [0,1]^(contacts x steps) (Joe-Kuo direction numbers); impacts inside runs are "
                       "always i.i.d."),
        choice_setting("solution", {"lemke", "random"},
                       "`random`: uniform among the distinct outcomes of each step LCP (at most 4 contacts)"),
        fixed_setting(number_setting("tolerance", SettingKind::positive, d.tolerance, "1e-8",
                                     "m/s; a contact with J_n v >= -tolerance no longer approaches")),
    };
    out.make = [](const Settings& s) -> std::unique_ptr<ImpactLaw> {
      return std::make_unique<RouthLaw>(routh_settings(s));
    };
    return out;
  }();
  return law;
}

}  // namespace impactsim
