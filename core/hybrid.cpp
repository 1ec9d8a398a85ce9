#include "core/hybrid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <Eigen/QR>

#include "impact/anitescu_potra.hpp"

namespace impactsim {
namespace {

constexpr double kInactive = std::numeric_limits<double>::infinity();
constexpr double kPhiMargin = 1e-13;  // [m]

std::string format_time(double t) {
  std::ostringstream s;
  s.precision(12);
  s << t;
  return s.str();
}

// Which guard of a contact fired: the first (phi or lambda_n) or the second (friction).
enum class GuardKind { touch_or_liftoff, friction };

class HybridLoop {
 public:
  HybridLoop(const Model& model, const ContactModel& contacts, const ImpactLaw& law, const SimulationSettings& settings,
             const ContactSettings& cs, Rng& rng, const HybridCallbacks& callbacks)
      : model_(model), contacts_(contacts), law_(law), settings_(settings), cs_(cs), rng_(rng), cb_(callbacks),
        dyn_(model, contacts, cs), kin_(model), m_(contacts.size()), nq_(model.nq), nv_(model.nv),
        ode_(model.nq + model.nv, [this](double, const Eigen::VectorXd& x, Eigen::VectorXd& dx) { return rhs(x, dx); },
             settings.ode) {
    ContactModes open;
    open.mode.assign(m_, ContactMode::open);
    open.slip.assign(m_, Eigen::Vector2d::UnitX());
    set_modes(open);
    for (const Body& b : model.bodies) has_quaternions_ = has_quaternions_ || b.joint.type == JointType::free;
  }

  HybridStats run(const State& initial) {
    Eigen::VectorXd x(nq_ + nv_);
    x << initial.q, initial.v;
    if (!x.allFinite()) throw SimulationError(0.0, "the initial state is not finite");
    emit(cb_.sample, 0.0, x);
    handle_event(0.0, x, {}, {});
    if (cb_.stop && cb_.stop()) return finish();
    long next = 1;
    const long last = last_output_row(settings_);
    // At rest the remaining rows all equal x.
    auto rests = [&](double t_now) {
      if (!at_rest(t_now, x)) return false;
      for (; next <= last; ++next) emit(cb_.sample, output_time(settings_, next), x);
      return true;
    };
    if (rests(0.0)) return finish();
    double t = 0.0;
    const double eps_t = 1e-12 * std::max(1.0, settings_.t_end);
    while (t < settings_.t_end - eps_t) {
      start_phase(t, x);
      while (true) {
        if (ode_.accepted() + ode_.rejected() >= settings_.max_steps)
          throw SimulationError(ode_.t(), "integration stopped at t = " + format_time(ode_.t()) + " s: more than " +
                                              std::to_string(settings_.max_steps) + " steps");
        if (auto st = ode_.step(settings_.t_end); st != Dopri5::Status::ok) fail(st);
        double t_event = 0;
        std::vector<int> fired;
        const bool event = scan_guards(t_event, fired);
        const double t_until = event ? t_event : ode_.t();
        for (; next <= last && output_time(settings_, next) <= t_until + eps_t; ++next) {
          ode_.dense(output_time(settings_, next), x_tmp_);
          emit(cb_.sample, output_time(settings_, next), x_tmp_);
        }
        if (event) {
          ode_.dense(t_event, x);
          normalize(x);
          t = t_event;
          handle_event(t, x, fired, fired_kinds_);
          if (cb_.stop && cb_.stop()) return finish();
          if (rests(t)) return finish();
          break;
        }
        t = ode_.t();
        x = ode_.y();
        if (has_quaternions_) {
          normalize(x);
          if (auto st = ode_.set_state(x); st != Dopri5::Status::ok) fail(st);
        }
        track_penetration(x);
        if (t >= settings_.t_end - eps_t) break;
      }
    }
    for (; next <= last; ++next) emit(cb_.sample, output_time(settings_, next), x);
    return finish();
  }

 private:
  HybridStats finish() {
    stats_.accepted_steps = ode_.accepted();
    stats_.rejected_steps = ode_.rejected();
    stats_.rhs_evaluations = ode_.evaluations();
    return stats_;
  }

  // Restores unit quaternions in x, or in q alone: q is the head of x.
  void normalize(Eigen::VectorXd& x) const {
    normalize_configuration(model_, x.data());
  }

  // Which contacts are closed in the current mode; set at every change of mode.
  void set_modes(const ContactModes& modes) {
    modes_ = modes;
    closed_.assign(m_, false);
    for (int i = 0; i < m_; ++i) closed_[i] = modes_.mode[i] != ContactMode::open;
    any_closed_ = modes_.closed() > 0;
  }

  bool rhs(const Eigen::VectorXd& x, Eigen::VectorXd& dx) {
    q_ = x.head(nq_);
    v_ = x.tail(nv_);
    configuration_rate(model_, q_, v_, dx.data());
    if (any_closed_) {
      dyn_.update(q_, v_, closed_);
    } else {
      dyn_.update_dynamics(q_, v_, false);  // free flight needs no contact frames
    }
    if (!dyn_.forward(modes_, vdot_, lambda_n_, lambda_t_)) return false;
    dx.tail(nv_) = vdot_;
    return true;
  }

  // Two guards per contact, see hybrid.hpp; kInactive where a guard does not apply.
  void guards(const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g.resize(2 * m_);
    q_ = x.head(nq_);
    v_ = x.tail(nv_);
    if (!any_closed_) {
      dyn_.update_frames(q_);  // only phi is needed
    } else {
      dyn_.update(q_, v_, closed_);
      dyn_.forward(modes_, vdot_, lambda_n_, lambda_t_);
    }
    for (int i = 0; i < m_; ++i) {
      g[2 * i + 1] = kInactive;
      switch (modes_.mode[i]) {
        case ContactMode::open:
          if (behind(i)) {
            passing_[i] = true;  // below the surface from here on is by design
            g[2 * i] = kInactive;
          } else {
            g[2 * i] = dyn_.frame(i).phi - phi_floor_[i];
          }
          break;
        case ContactMode::stick:
          g[2 * i] = lambda_n_[i];
          g[2 * i + 1] = contacts_.contact(i).mu * lambda_n_[i] - lambda_t_.row(i).norm();
          break;
        case ContactMode::slide: {
          g[2 * i] = lambda_n_[i];
          const TangentVector u_t = dyn_.J(i).bottomRows(dyn_.rows_per_contact() - 1) * v_;
          g[2 * i + 1] = modes_.slip[i].head(u_t.size()).dot(u_t);
          break;
        }
      }
    }
  }

  // An open contact's impact guard is phi measured from just below where the phase starts, so a
  // contact that has just separated (phi ~ 0) is armed at once and a hop shorter than a step still
  // fires. The floor costs at most kPhiMargin of penetration.
  void start_phase(double t, const Eigen::VectorXd& x) {
    if (auto st = ode_.reset(t, x, true); st != Dopri5::Status::ok) fail(st);
    phi_floor_.assign(m_, 0.0);
    passing_.assign(m_, false);
    q_ = x.head(nq_);
    update_kinematics(model_, q_, kin_);
    for (int i = 0; i < m_; ++i) {
      const double phi = contacts_.frame(kin_.R, kin_.p, i).phi;
      // A gated contact below the surface (a swing foot past mid-stance) arms once it is clear.
      phi_floor_[i] = (gated(i) && phi < 0 ? 0.0 : std::min(phi, 0.0)) - kPhiMargin;
      passing_[i] = gated(i) && phi < -cs_.distance_tolerance;
    }
    guards(x, g_prev_);
    armed_.assign(2 * m_, false);
    for (int j = 0; j < 2 * m_; ++j) armed_[j] = g_prev_[j] > 0 && g_prev_[j] != kInactive;
  }

  // Looks for the earliest armed guard crossing within the last step, checking interior points too
  // so that a guard that dips below zero and back within one step is not missed.
  bool scan_guards(double& t_event, std::vector<int>& fired) {
    const double t0 = ode_.t_prev(), h = ode_.t() - t0;
    double ta = t0;
    Eigen::VectorXd ga = g_prev_, gb;
    for (double s : {0.25, 0.5, 0.75, 1.0}) {
      const double tb = t0 + s * h;
      ode_.dense(tb, x_tmp_);
      normalize(x_tmp_);
      guards(x_tmp_, gb);
      check_unarmed_penetration(tb, gb);
      double earliest = kInactive;
      for (int j = 0; j < 2 * m_; ++j)
        if (armed_[j] && ga[j] > 0 && gb[j] <= 0) earliest = std::min(earliest, locate(j, ta, tb, ga[j], gb[j]));
      if (earliest < kInactive) {
        t_event = earliest;
        ode_.dense(t_event, x_tmp_);
        normalize(x_tmp_);
        guards(x_tmp_, gb);
        fired.clear();
        fired_kinds_.clear();
        for (int j = 0; j < 2 * m_; ++j)
          if (armed_[j] && gb[j] <= guard_tolerance(j)) {
            fired.push_back(j / 2);
            fired_kinds_.push_back(j % 2 ? GuardKind::friction : GuardKind::touch_or_liftoff);
          }
        return true;
      }
      for (int j = 0; j < 2 * m_; ++j) armed_[j] = armed_[j] || (gb[j] > 0 && gb[j] != kInactive);
      ta = tb;
      ga = gb;
    }
    g_prev_ = ga;
    return false;
  }

  // A guard that joins an event if it is this close to firing at the event time.
  double guard_tolerance(int j) const {
    return (j % 2 == 0 && modes_.mode[j / 2] == ContactMode::open) ? cs_.distance_tolerance : 0.0;
  }


  // An open contact that was never armed (it started the phase touching) must not sink: that would
  // be a missed impact, so stop with a clear message instead of going on with a wrong result.
  void check_unarmed_penetration(double t, const Eigen::VectorXd& g) const {
    for (int i = 0; i < m_; ++i)
      if (modes_.mode[i] == ContactMode::open && !armed_[2 * i] && !passing_[i] &&
          g[2 * i] < -10 * cs_.distance_tolerance)
        throw SimulationError(t, "contact '" + contacts_.contact(i).name + "' penetrated " + format_time(-g[2 * i]) +
                                     " m at t = " + format_time(t) +
                                     " s without an impact being detected (try a smaller simulation.max_step)");
  }

  // Brent's method (Brent 1973; inverse quadratic, secant and bisection steps) on guard j between
  // ta (g > 0) and tb (g <= 0), to a bracket narrower than 1e-12 s. Returns the end of the final
  // bracket where the guard has fired, so the event state is past the crossing.
  double locate(int j, double ta, double tb, double ga, double gb) {
    const double tol = 1e-12 * std::max(1.0, std::abs(tb));
    Eigen::VectorXd g;
    auto guard_at = [&](double t) {
      ode_.dense(t, x_tmp_);
      normalize(x_tmp_);
      guards(x_tmp_, g);
      return g[j];
    };
    double a = ta, fa = ga, b = tb, fb = gb, c = a, fc = fa, d = b - a, e = d;
    for (int it = 0; it < 100; ++it) {
      if ((fb > 0) == (fc > 0)) {  // keep b and c on opposite sides of the crossing
        c = a;
        fc = fa;
        d = e = b - a;
      }
      if (std::abs(fc) < std::abs(fb)) {  // b is the best estimate so far
        a = b, fa = fb;
        b = c, fb = fc;
        c = a, fc = fa;
      }
      const double m = 0.5 * (c - b);
      if (std::abs(m) <= 0.5 * tol || fb == 0) break;
      if (std::abs(e) >= tol && std::abs(fa) > std::abs(fb)) {
        double p, q, r, sb = fb / fa;
        if (a == c) {  // secant
          p = 2 * m * sb;
          q = 1 - sb;
        } else {  // inverse quadratic interpolation
          q = fa / fc;
          r = fb / fc;
          p = sb * (2 * m * q * (q - r) - (b - a) * (r - 1));
          q = (q - 1) * (r - 1) * (sb - 1);
        }
        if (p > 0) q = -q;
        else p = -p;
        if (2 * p < std::min(3 * m * q - std::abs(0.5 * tol * q), std::abs(e * q))) {
          e = d;
          d = p / q;
        } else {
          d = e = m;
        }
      } else {
        d = e = m;
      }
      a = b, fa = fb;
      b += std::abs(d) > 0.5 * tol ? d : (m > 0 ? 0.5 * tol : -0.5 * tol);
      fb = guard_at(b);
    }
    // The fired side: of b and c, the one with g <= 0.
    return fb <= 0 ? b : c;
  }

  void emit(const SampleSink& sink, double t, const Eigen::VectorXd& x) {
    if (!sink) return;
    q_out_ = x.head(nq_);
    v_out_ = x.tail(nv_);
    normalize(q_out_);
    update_kinematics(model_, q_out_, kin_);
    update_velocities(model_, q_out_, v_out_, kin_);
    sink(Sample{t, q_out_, v_out_, kinetic_energy(model_, kin_), potential_energy(model_, kin_)});
    ++stats_.samples;
    record_min_phi();
  }

  // Rest: with v = 0 and vdot = 0 in the current mode the state is a fixed point of the phase's
  // ODE, and every guard (phi, lambda, friction margin) is a function of the state alone, so
  // nothing happens until t_end. "Zero" is what the skip cannot notice: over the remaining time T,
  // |v| T and |vdot| T^2 / 2 within the distance tolerance and |vdot| T within the velocity
  // tolerance. (vdot is not exactly 0: Baumgarte terms still pull the last ~1e-11 m of drift.)
  bool at_rest(double t, const Eigen::VectorXd& x) {
    const double T = settings_.t_end - t;
    if (!cs_.detect_rest || T <= 0) return false;
    v_ = x.tail(nv_);
    if (v_.cwiseAbs().maxCoeff() * T > cs_.distance_tolerance) return false;
    q_ = x.head(nq_);
    dyn_.update(q_, v_, closed_);
    if (!dyn_.forward(modes_, vdot_, lambda_n_, lambda_t_)) return false;
    const double a = vdot_.cwiseAbs().maxCoeff();
    if (a * T > cs_.velocity_tolerance || 0.5 * a * T * T > cs_.distance_tolerance) return false;
    Event e;
    e.t = t;
    e.kind = "rest";
    for (int i = 0; i < m_; ++i)
      if (closed_[i]) e.contacts.push_back(i);
    e.kinetic_before = e.kinetic_after = 0.5 * v_.dot(dyn_.M() * v_);
    log(e);
    return true;
  }

  void track_penetration(const Eigen::VectorXd& x) {
    q_out_ = x.head(nq_);
    update_kinematics(model_, q_out_, kin_);
    record_min_phi();
  }

  // The deepest penetration so far, at the poses in kin_ (gated contacts pass through by design).
  void record_min_phi() {
    for (int i = 0; i < m_; ++i)
      if (!gated(i)) stats_.min_phi = std::min(stats_.min_phi, contacts_.frame(kin_.R, kin_.p, i).phi);
  }

  [[noreturn]] void fail(Dopri5::Status status) const {
    std::string why = status == Dopri5::Status::rhs_failed       ? "the mass matrix is not positive definite"
                      : status == Dopri5::Status::step_underflow ? "the step size fell below machine precision"
                                                                 : "the state is not finite";
    throw SimulationError(ode_.t(), "integration stopped at t = " + format_time(ode_.t()) + " s: " + why);
  }

  // ---- events -------------------------------------------------------------------------------

  // Rows just before and just after are written only when something was logged.
  void handle_event(double t, Eigen::VectorXd& x, const std::vector<int>& fired, const std::vector<GuardKind>& kinds) {
    const Eigen::VectorXd before = x;
    const long logged = stats_.events;
    q_ = x.head(nq_);
    v_ = x.tail(nv_);
    // q does not change during the event: frames and Jacobians of the touching contacts hold for
    // every impact of it; only mode selection needs C and Jdot v at the new velocity.
    dyn_.update_dynamics(q_, v_);
    dyn_.update_jacobians(touching(), false);
    resolve_impacts(t);
    choose_modes(t, fired, kinds);
    x.tail(nv_) = v_;
    if (stats_.events == logged) return;
    emit(cb_.event_sample, t, before);
    emit(cb_.event_sample, t, x);
  }

  void count_event(double t) {
    if (++stats_.events > cs_.max_events)
      throw SimulationError(t, "more than " + std::to_string(cs_.max_events) + " events by t = " + format_time(t) +
                                   " s; if impacts accumulate (Zeno), raise simulation.contact.v_zeno");
  }

  void log(const Event& e) {
    count_event(e.t);
    if (cb_.event) cb_.event(e);
  }

  // Contacts with only_ahead_of (collision/contact.hpp) pass through the surface while behind the
  // other contact, and may come out ahead of it still below the surface.
  bool gated(int i) const { return contacts_.contact(i).only_ahead_of >= 0; }

  bool behind(int i) const {
    const int j = contacts_.contact(i).only_ahead_of;
    if (j < 0 || modes_.mode[i] != ContactMode::open) return false;
    return (dyn_.feature_point(i) - dyn_.feature_point(j)).dot(dyn_.frame(j).tangent1) <= 0;
  }

  bool touches(int i) const {
    const double phi = dyn_.frame(i).phi;
    if (phi > cs_.distance_tolerance) return false;
    return !gated(i) || (!behind(i) && phi >= -cs_.distance_tolerance);
  }

  std::vector<bool> touching() const {
    std::vector<bool> out(m_);
    for (int i = 0; i < m_; ++i) out[i] = touches(i);
    return out;
  }

  // J_n,i v at the loop's current velocity (the Jacobians of touching contacts are up to date).
  double normal_velocity(int i) const { return dyn_.J(i).row(0).dot(v_); }

  // Contacts touching (phi within tolerance) and approaching faster than the velocity tolerance.
  std::vector<int> impacting() const {
    std::vector<int> out;
    for (int i = 0; i < m_; ++i)
      if (touches(i) && normal_velocity(i) < -cs_.velocity_tolerance) out.push_back(i);
    return out;
  }

  // The impact set is every touching contact that is not separating: the approaching ones and the
  // closed ones, which are coupled to them through M^-1.
  std::vector<int> touching_not_separating() const {
    std::vector<int> out;
    for (int i = 0; i < m_; ++i)
      if (touches(i) && normal_velocity(i) <= cs_.velocity_tolerance) out.push_back(i);
    return out;
  }

  // The Zeno rule: every contact of the set closes, J_i v+ = 0 (normal and tangential), by the
  // projection in the kinetic metric, v+ = v- - M^-1 J^T (J M^-1 J^T)^+ J v-, which never adds energy.
  // Impulses are those of that projection (they may leave the friction cone by at most the tiny
  // amount an impact slower than v_zeno carries).
  void close_contacts(double t, const std::vector<int>& set) {
    const int r = dyn_.rows_per_contact();
    Eigen::MatrixXd J(r * static_cast<int>(set.size()), nv_);
    for (size_t a = 0; a < set.size(); ++a) J.middleRows(a * r, r) = dyn_.J(set[a]);
    const Eigen::MatrixXd Minv_JT = dyn_.M().llt().solve(J.transpose());
    const Eigen::VectorXd impulse = -(J * Minv_JT).completeOrthogonalDecomposition().solve(J * v_);
    Event e;
    e.t = t;
    e.kind = "zeno";
    e.contacts = set;
    e.law = "close";
    e.kinetic_before = 0.5 * v_.dot(dyn_.M() * v_);
    v_ += Minv_JT * impulse;
    e.kinetic_after = 0.5 * v_.dot(dyn_.M() * v_);
    for (size_t a = 0; a < set.size(); ++a) e.impulse_n.push_back(impulse[a * r]);
    ++stats_.impacts;
    log(e);
  }

  void apply_impact(double t, const std::vector<int>& set, const std::string& kind, const ImpactLaw& law) {
    const ImpactResult r = law.resolve(dyn_.contact_space(set), v_, rng_);
    if (!r.ok) throw SimulationError(t, "impact at t = " + format_time(t) + " s (" + law_name(law) + "): " + r.diagnostic);
    Event e;
    e.t = t;
    e.kind = kind;
    e.contacts = set;
    e.law = std::string(law.name());
    e.kinetic_before = r.kinetic_energy_minus;
    e.kinetic_after = r.kinetic_energy_plus;
    e.impulse_n.assign(r.impulse_n.data(), r.impulse_n.data() + r.impulse_n.size());
    for (int k : r.ordering) e.ordering.push_back(set[k]);
    v_ = r.v_plus;
    ++stats_.impacts;
    log(e);
  }

  static std::string law_name(const ImpactLaw& law) { return std::string(law.name()); }

  void resolve_impacts(double t) {
    for (int round = 0;; ++round) {
      const std::vector<int> hitting = impacting();
      if (hitting.empty()) return;
      if (round > 100) throw SimulationError(t, "impacts at t = " + format_time(t) + " s do not terminate");
      double fastest = 0;
      for (int i : hitting) fastest = std::max(fastest, -normal_velocity(i));
      const std::vector<int> set = touching_not_separating();
      if (fastest < cs_.v_zeno) close_contacts(t, set);
      else apply_impact(t, set, "impact", law_);
    }
  }

  void choose_modes(double t, const std::vector<int>& fired, const std::vector<GuardKind>& kinds) {
    const ContactModes before = modes_;
    std::vector<bool> prefer_open(m_, false), prefer_slide(m_, false);
    // A fired lift-off guard means the load reached zero; a fired friction guard of a sticking
    // contact means friction reached the cone's edge. (A sliding contact's friction guard is its
    // slip stopping: the LCP alone decides whether it sticks or slides back.)
    for (size_t k = 0; k < fired.size(); ++k) {
      const ContactMode was = before.mode[fired[k]];
      if (kinds[k] == GuardKind::touch_or_liftoff && was != ContactMode::open) prefer_open[fired[k]] = true;
      if (kinds[k] == GuardKind::friction && was == ContactMode::stick) prefer_slide[fired[k]] = true;
    }
    for (int attempt = 0;; ++attempt) {
      const std::vector<int> candidates = touching_not_separating();
      if (candidates.empty() && !any_closed_) break;  // free flight before and after: nothing to choose
      dyn_.update_dynamics(q_, v_);
      dyn_.update_jacobians(touching(), true);
      std::string why;
      ContactModes chosen = modes_;
      if (dyn_.select_modes(candidates, prefer_open, prefer_slide, chosen, why) && consistent(chosen, why)) {
        set_modes(chosen);
        break;
      }
      if (attempt > 0) throw SimulationError(t, "no contact forces at t = " + format_time(t) + " s (" + why + ")");
      // Painleve: no consistent contact forces; an impact without collision resolves it.
      apply_impact(t, candidates, "iwc", law_);
    }
    log_mode_changes(t, before);
  }

  // The chosen mode must give every closed contact a pushing normal force; a slide in a Painleve
  // direction can fail that even when the acceleration LCP was solvable.
  bool consistent(const ContactModes& chosen, std::string& why) {
    std::vector<bool> closed(m_);
    for (int i = 0; i < m_; ++i) closed[i] = chosen.mode[i] != ContactMode::open;
    dyn_.update(q_, v_, closed);
    if (!dyn_.forward(chosen, vdot_, lambda_n_, lambda_t_)) {
      why = "the mass matrix is not positive definite";
      return false;
    }
    const double tol = 1e-9 * (1.0 + lambda_n_.cwiseAbs().maxCoeff());
    for (int i = 0; i < m_; ++i)
      if (closed[i] && lambda_n_[i] < -tol) {
        why = "contact '" + contacts_.contact(i).name + "' would need a pulling normal force (Painleve)";
        return false;
      }
    return true;
  }

  void log_mode_changes(double t, const ContactModes& before) {
    Event liftoff, stick, slip;
    for (int i = 0; i < m_; ++i) {
      const ContactMode a = before.mode[i], b = modes_.mode[i];
      if (a != ContactMode::open && b == ContactMode::open) liftoff.contacts.push_back(i);
      if (a == ContactMode::slide && b == ContactMode::stick) stick.contacts.push_back(i);
      const bool reversed = a == ContactMode::slide && b == ContactMode::slide && before.slip[i].dot(modes_.slip[i]) < 0;
      if ((a == ContactMode::stick && b == ContactMode::slide) || reversed) slip.contacts.push_back(i);
    }
    const double K = 0.5 * v_.dot(dyn_.M() * v_);
    for (auto [e, kind] : {std::pair{&liftoff, "liftoff"}, {&stick, "stick"}, {&slip, "slip"}}) {
      if (e->contacts.empty()) continue;
      e->t = t;
      e->kind = kind;
      e->kinetic_before = e->kinetic_after = K;
      log(*e);
    }
  }

  const Model& model_;
  const ContactModel& contacts_;
  const ImpactLaw& law_;
  const SimulationSettings& settings_;
  const ContactSettings& cs_;
  Rng& rng_;
  const HybridCallbacks& cb_;
  ContactDynamics dyn_;
  Kinematics kin_;
  int m_, nq_, nv_;
  Dopri5 ode_;
  bool has_quaternions_ = false;
  ContactModes modes_;
  std::vector<bool> armed_, closed_;
  bool any_closed_ = false;
  std::vector<double> phi_floor_;
  std::vector<bool> passing_;  // gated contacts that went behind (or started the phase below) this phase
  std::vector<GuardKind> fired_kinds_;
  Eigen::VectorXd g_prev_, x_tmp_, q_, v_, vdot_, lambda_n_, q_out_, v_out_;
  Eigen::MatrixXd lambda_t_;
  HybridStats stats_;
};

}  // namespace

HybridStats simulate_hybrid(const Model& model, const ContactModel& contacts, const ImpactLaw& law,
                            const SimulationSettings& settings, const ContactSettings& contact_settings,
                            const State& initial, Rng& rng, const HybridCallbacks& callbacks) {
  HybridLoop loop(model, contacts, law, settings, contact_settings, rng, callbacks);
  return loop.run(initial);
}

SimulationStats simulate_smooth(const Model& model, const SimulationSettings& settings, const State& initial,
                                const SampleSink& sink) {
  const ContactModel none({}, {}, model.planar);
  const AnitescuPotraLaw law;
  const ContactSettings contact_settings;
  Rng rng(0);
  const HybridStats h = simulate_hybrid(model, none, law, settings, contact_settings, initial, rng, {sink, {}, {}, {}});
  return {h.accepted_steps, h.rejected_steps, h.rhs_evaluations, h.samples};
}

}  // namespace impactsim
