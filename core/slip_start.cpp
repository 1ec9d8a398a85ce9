#include "core/slip_start.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/QR>

#include "numerics/coulomb_cone.hpp"
#include "numerics/mass_factor.hpp"

namespace impactsim {
namespace {

// The mode's forces without drift correction, as the acceleration LCP judges them: over `closed`
// where given (islands of the closed contacts), else over every closed contact.
bool accelerate(const System& sys, const ContactData& data, const ContactModes& modes, ModeForces& forces,
                const std::vector<int>* closed) {
  return constrained_acceleration(sys.contacts, 0.0, data.body, data.frames, data.jac, modes, forces, closed);
}

std::vector<int> sliding_from_rest(const System& sys, const ContactData& data, const Eigen::VectorXd& v,
                                   const ContactModes& modes, const std::vector<int>* closed) {
  std::vector<int> out;
  const int td = data.jac.rows_per_contact - 1;
  if (td != 2) return out;
  for (int i : closed ? *closed : data.near.contacts)  // a sliding contact touches: it is near
    if (modes.mode[i] == ContactMode::slide && sys.contacts.contact(i).mu > 0 &&
        data.jac.rows_times(i, 1, td, v).norm() <= sys.contact.velocity_tolerance)
      out.push_back(i);
  return out;
}

bool inside_cones(const System& sys, const std::vector<int>& contacts, const ModeForces& forces) {
  for (int i : contacts)
    if (!(forces.lambda_t.row(i).norm() < sys.contacts.contact(i).mu * forces.lambda_n[i] * (1 - 1e-9))) return false;
  return true;
}

// s x a_t and k = s . a_t per contact, for slips at the given angles [rad] (set into modes).
class SlipResidual {
 public:
  SlipResidual(const System& sys, const ContactData& data, const std::vector<int>& contacts, ContactModes& modes,
               ModeForces& forces, const std::vector<int>* closed)
      : sys_(sys), data_(data), contacts_(contacts), modes_(modes), forces_(forces), closed_(closed) {}

  bool operator()(const Eigen::VectorXd& angles, Eigen::VectorXd& r, Eigen::VectorXd& k) {
    for (size_t a = 0; a < contacts_.size(); ++a)
      modes_.slip[contacts_[a]] = Eigen::Vector2d(std::cos(angles[a]), std::sin(angles[a]));
    if (!accelerate(sys_, data_, modes_, forces_, closed_)) return false;
    for (size_t a = 0; a < contacts_.size(); ++a) {
      const int i = contacts_[a];
      const Eigen::Vector2d a_t = tangential_acceleration(data_.jac, i, forces_.vdot);
      const Eigen::Vector2d& s = modes_.slip[i];
      r[a] = s[0] * a_t[1] - s[1] * a_t[0];
      k[a] = s.dot(a_t);
    }
    return true;
  }

  // dr/d angles at the angles evaluated last (forces_ holds their forces), column a from how the
  // acceleration turns with slip a: dr_b = s_b x J_t,b dvdot, and -k_b d theta_b from s_b's own turn.
  bool jacobian(const Eigen::VectorXd& k, Eigen::MatrixXd& out) {
    const auto m = static_cast<Eigen::Index>(contacts_.size());
    out.resize(m, m);
    for (Eigen::Index a = 0; a < m; ++a) {
      if (!slip_turn_acceleration(sys_.contacts, data_.body, data_.jac, modes_, contacts_[a], forces_, dvdot_))
        return false;
      for (Eigen::Index b = 0; b < m; ++b) {
        const int i = contacts_[b];
        const TangentVector da_t = data_.jac.rows_times(i, 1, 2, dvdot_);
        const Eigen::Vector2d& s = modes_.slip[i];
        out(b, a) = s[0] * da_t[1] - s[1] * da_t[0] - (a == b ? k[b] : 0.0);
      }
    }
    return true;
  }

 private:
  Eigen::VectorXd dvdot_;
  const System& sys_;
  const ContactData& data_;
  const std::vector<int>& contacts_;
  ContactModes& modes_;
  ModeForces& forces_;
  const std::vector<int>* closed_;
};

}  // namespace

bool cone_slips(const System& sys, const ContactData& data, const std::vector<int>& from_rest,
                const ModeForces& stuck_forces, const std::vector<int>* closed, ContactModes& modes,
                std::vector<int>& sliding, std::vector<int>& stuck, Eigen::VectorXd& theta) {
  const auto m = static_cast<Eigen::Index>(from_rest.size());
  ContactModes open = modes;
  for (int i : from_rest) open.mode[i] = ContactMode::open;
  std::vector<int> kept;
  if (closed)
    for (int i : *closed)
      if (open.is_closed(i)) kept.push_back(i);
  ModeForces base;
  if (!accelerate(sys, data, open, base, closed ? &kept : nullptr)) return false;
  const ModeForceScratch& w = base.scratch;
  const auto rows = static_cast<Eigen::Index>(w.closed.empty() ? 0 : w.lambda.size());
  Eigen::MatrixXd W(3 * m, 3 * m), J_R(3 * m, data.jac.nv), D(rows, 3 * m);
  Eigen::VectorXd b(3 * m), mu(m), start(3 * m), f, dvdot, dlambda;
  for (Eigen::Index a = 0; a < m; ++a) {
    const int i = from_rest[a];
    J_R.middleRows(3 * a, 3) = data.jac.of(i);
    b.segment(3 * a, 3) = data.jac.of(i) * base.vdot + data.jac.jdot_v_of(i);
    mu[a] = sys.contacts.contact(i).mu;
    const Eigen::Vector2d p = stuck_forces.lambda_t.row(i).transpose();
    const double lambda = std::max(0.0, stuck_forces.lambda_n[i]), edge = mu[a] * lambda;
    start.segment(3 * a, 3) << lambda, p.norm() > edge ? Eigen::Vector2d(p * (edge / p.norm())) : p;
  }
  for (Eigen::Index c = 0; c < 3 * m; ++c) {
    f = J_R.row(c).transpose();
    force_response(data.body, base, f, dvdot, dlambda);
    W.col(c) = J_R * dvdot;
    if (rows > 0) D.col(c) = dlambda;
  }
  const ConeSolution cone = solve_coulomb_cone(W, b, mu, start, 1e-10 * impulse_scale(W, b, start));
  if (!cone.converged) return false;
  // The answer's forces, every closed contact's, become the references: where redundant contacts
  // leave a mode's forces undetermined, the mode's are then the cone's, not a distribution that
  // puts a stuck contact's friction outside its cone.
  const int contacts = sys.contacts.size();
  if (static_cast<int>(modes.reference_n.size()) != contacts) {
    modes.reference_n.assign(static_cast<size_t>(contacts), 0.0);
    modes.reference_t.assign(static_cast<size_t>(contacts), Eigen::Vector2d::Zero());
  }
  if (rows > 0) {
    const Eigen::VectorXd lambda = w.lambda + D * cone.r;
    Eigen::Index row = static_cast<Eigen::Index>(w.closed.size());
    for (size_t k = 0; k < w.closed.size(); ++k) {
      const int i = w.closed[k];
      modes.reference_n[i] = lambda[static_cast<Eigen::Index>(k)];
      if (open.mode[i] != ContactMode::stick) continue;
      modes.reference_t[i] = lambda.segment(row, 2);
      row += 2;
    }
  }
  const Eigen::VectorXd acceleration = W * cone.r + b;
  const double negligible = 1e-6 * (1.0 + b.cwiseAbs().maxCoeff());
  std::vector<double> angles;
  for (Eigen::Index a = 0; a < m; ++a) {
    const int i = from_rest[a];
    modes.reference_n[i] = cone.r[3 * a];
    modes.reference_t[i] = cone.r.segment(3 * a + 1, 2);
    const Eigen::Vector2d a_t = acceleration.segment(3 * a + 1, 2), p = cone.r.segment(3 * a + 1, 2);
    if (a_t.norm() > negligible) {
      sliding.push_back(i);
      angles.push_back(std::atan2(a_t[1], a_t[0]));
    } else if (cone.r[3 * a] > 0 && p.norm() >= mu[a] * cone.r[3 * a] * (1 - 1e-7)) {
      sliding.push_back(i);  // on the cone's edge with a_t = 0: k = 0, step 3's case
      angles.push_back(std::atan2(-p[1], -p[0]));
    } else if (cone.r[3 * a] > 0) {
      stuck.push_back(i);
    } else {
      return false;  // unloaded and at rest: no slip to start, no friction to stick with
    }
  }
  theta = Eigen::Map<const Eigen::VectorXd>(angles.data(), static_cast<Eigen::Index>(angles.size()));
  return true;
}

bool solve_slip_angles(SlipAngleResidual residual, SlipAngleJacobian jacobian_of, Eigen::VectorXd& theta,
                       Eigen::VectorXd& r, Eigen::VectorXd& k, double tolerance) {
  const Eigen::Index m = theta.size();
  Eigen::VectorXd trial(m), r_trial(m), k_trial(m), column(m), unused(m);
  Eigen::MatrixXd jacobian(m, m);
  if (!residual(theta, r, k)) return false;
  constexpr int kIterations = 50, kStalled = 3;
  constexpr double kDelta = 1e-7;  // rad
  int stalled = 0;
  for (int iteration = 0; iteration < kIterations && r.norm() > tolerance && stalled < kStalled; ++iteration) {
    const bool closed_form = jacobian_of(k, jacobian);  // before any trial moves the forces
    for (Eigen::Index a = 0; !closed_form && a < m; ++a) {
      trial = theta;
      trial[a] += kDelta;
      if (!residual(trial, column, unused)) return false;
      jacobian.col(a) = (column - r) / kDelta;
    }
    const Eigen::VectorXd step = jacobian.colPivHouseholderQr().solve(-r);
    double scale = 1.0;
    for (int halving = 0; halving < 30; ++halving, scale *= 0.5) {
      trial = theta + scale * step;
      if (!residual(trial, r_trial, k_trial)) return false;
      if (r_trial.norm() < r.norm()) break;
    }
    stalled = r_trial.norm() > 0.999 * r.norm() ? stalled + 1 : 0;
    theta = trial;
    r = r_trial;
    k = k_trial;
  }
  return true;
}

void hold_slow_slides(const System& sys, const ContactData& data, const Eigen::VectorXd& v, ContactModes& modes) {
  modes.held.assign(static_cast<size_t>(sys.contacts.size()), false);
  const int td = data.jac.rows_per_contact - 1;
  if (td != 2 || !(sys.contact.slow_slip_speed > 0)) return;
  for (int i : data.near.contacts)  // a sliding contact touches: it is near
    modes.held[i] = modes.mode[i] == ContactMode::slide && sys.contacts.contact(i).mu > 0 &&
                    data.jac.rows_times(i, 1, td, v).norm() < kHeldSlipFraction * sys.contact.slow_slip_speed;
}

namespace {

// The end of a search that found slips with every k >= 0 (r, k at theta over `sliding`, `stuck`
// held strictly inside their cones): steps 2 and 3 of start_slip_from_rest.
bool finish_slips(const System& sys, const std::vector<bool>& slip_fired, const ContactData& data,
                  const std::vector<int>& sliding, const std::vector<int>& stuck, const Eigen::VectorXd& k,
                  double tolerance, ContactModes& modes, ModeForces& forces, const std::vector<int>* closed) {
  for (int i : stuck) {  // the distribution they stick at, for the phase's redundant contacts
    modes.reference_n[i] = forces.lambda_n[i];
    modes.reference_t[i] = forces.lambda_t.row(i).transpose();
  }
  if (k.minCoeff() > tolerance) return true;
  for (int i : sliding)
    if (i < static_cast<int>(slip_fired.size()) && slip_fired[i]) return true;
  for (int i : sliding) {
    modes.mode[i] = ContactMode::stick;
    modes.reference_n[i] = forces.lambda_n[i];
    modes.reference_t[i] = -sys.contacts.contact(i).mu * forces.lambda_n[i] * modes.slip[i];
  }
  return accelerate(sys, data, modes, forces, closed);
}

// Step 3 for contacts that all stick: each strictly inside its cone, or on its edge (to 1e-9)
// where its slip guard did not fire.
bool held_at_edges(const System& sys, const std::vector<bool>& slip_fired, const std::vector<int>& stuck,
                   const ModeForces& forces) {
  for (int i : stuck) {
    const double friction = forces.lambda_t.row(i).norm(), edge = sys.contacts.contact(i).mu * forces.lambda_n[i];
    const bool fired = i < static_cast<int>(slip_fired.size()) && slip_fired[i];
    if (!(friction < edge * (1 - 1e-9)) && (fired || !(friction <= edge * (1 + 1e-9)))) return false;
  }
  return true;
}

// Slips solved (|r| within tolerance) with none against its acceleration (every k >= -tolerance).
bool slips_solved(const Eigen::VectorXd& r, const Eigen::VectorXd& k, double tolerance) {
  return r.norm() <= tolerance && k.minCoeff() >= -tolerance;
}

// Step 2 from the cone's answer (cone_slips: `coned`, sliding at theta, stuck): true where that
// answer holds, with `done` what start_slip_from_rest returns and modes and forces its result;
// false where it does not (modes and forces then hold neither the chosen modes nor their forces).
bool settle_cone_slips(const System& sys, const std::vector<bool>& slip_fired, const ContactData& data,
                       const std::vector<int>& sliding, const std::vector<int>& stuck, Eigen::VectorXd& theta,
                       double tolerance, const ContactModes& coned, ContactModes& modes, ModeForces& forces,
                       const std::vector<int>* closed, bool& done) {
  modes = coned;
  for (int i : stuck) modes.mode[i] = ContactMode::stick;
  if (sliding.empty()) {  // all stick: strictly inside their cones, or on an edge (step 3)
    done = accelerate(sys, data, modes, forces, closed);
    return !done || held_at_edges(sys, slip_fired, stuck, forces);
  }
  SlipResidual residual(sys, data, sliding, modes, forces, closed);
  const auto jacobian = [&residual](const Eigen::VectorXd& k_at, Eigen::MatrixXd& out) {
    return residual.jacobian(k_at, out);
  };
  Eigen::VectorXd r(theta.size()), k(theta.size());
  done = solve_slip_angles(residual, jacobian, theta, r, k, tolerance);
  if (done && !(slips_solved(r, k, tolerance) && held_at_edges(sys, slip_fired, stuck, forces)))
    return false;
  if (done) done = finish_slips(sys, slip_fired, data, sliding, stuck, k, tolerance, modes, forces, closed);
  return true;
}

}  // namespace

// In frictional piles the searches that found slips (m 1 to 6, in a 20-sphere pile and a 50-box
// pile) needed 4 to 6 residuals; those that found none were the cost: 48 of them in a 20-sphere
// pile at mu 0.34 (m 5 to 17) took 6.8 s of its 15, 200 to 500 residuals each for the largest.
constexpr long kSearchResidualsPerSlip = 2;
constexpr long kSearchResidualsMore = 8;

long slip_search_budget(int nv, int m) {
  return nv >= kBlockwiseFrom ? kSearchResidualsPerSlip * m + kSearchResidualsMore : 0;
}

bool ResidualBudget::operator()(const Eigen::VectorXd& angles, Eigen::VectorXd& r, Eigen::VectorXd& k) {
  if (budget_ > 0 && used_ == budget_) {
    exhausted_ = true;
    return false;
  }
  ++used_;
  return residual_(angles, r, k);
}

bool start_slip_from_rest(const System& sys, const std::vector<bool>& slip_fired, const Eigen::VectorXd& v,
                          const ContactData& data, ContactModes& modes, ModeForces& forces,
                          const std::vector<int>* closed) {
  const std::vector<int> from_rest = sliding_from_rest(sys, data, v, modes, closed);
  if (from_rest.empty()) return accelerate(sys, data, modes, forces, closed);
  const ContactModes chosen = modes;
  for (int i : from_rest) modes.mode[i] = ContactMode::stick;
  if (!accelerate(sys, data, modes, forces, closed)) return false;
  if (inside_cones(sys, from_rest, forces)) return true;

  // The search's start (below): slips against the friction that sticking would need, the limit as
  // that friction reaches the cone's edge.
  const auto m = static_cast<Eigen::Index>(from_rest.size());
  Eigen::VectorXd against(m);
  for (Eigen::Index a = 0; a < m; ++a) {
    const Eigen::Vector2d f = forces.lambda_t.row(from_rest[a]).transpose();
    const Eigen::Vector2d s = f.norm() > 0 ? Eigen::Vector2d(-f.normalized()) : chosen.slip[from_rest[a]];
    against[a] = std::atan2(s[1], s[0]);
  }
  // First the slips the circular cone gives (with its forces as the references), polished by
  // Newton's method on their angles.
  std::vector<int> sliding, stuck;
  Eigen::VectorXd theta, r, k;
  ContactModes coned = chosen;
  const bool cone = cone_slips(sys, data, from_rest, forces, closed, coned, sliding, stuck, theta);
  modes = chosen;
  if (!accelerate(sys, data, modes, forces, closed)) return false;
  const double tolerance = 1e-9 * (1.0 + forces.vdot.cwiseAbs().maxCoeff());
  bool done = false;
  if (cone) {
    if (settle_cone_slips(sys, slip_fired, data, sliding, stuck, theta, tolerance, coned, modes, forces, closed, done))
      return done;
    modes = chosen;  // the search's first residual solves its forces
  }

  // Else a search from `against`: contacts stick one by one until the rest are consistent.
  theta = against;
  r.resize(m);
  k.resize(m);
  sliding = from_rest;
  stuck.clear();
  SlipResidual residual(sys, data, sliding, modes, forces, closed);
  const auto jacobian = [&residual](const Eigen::VectorXd& k_at, Eigen::MatrixXd& out) {
    return residual.jacobian(k_at, out);
  };
  ResidualBudget budgeted(residual, slip_search_budget(static_cast<int>(data.body.v.size()), static_cast<int>(m)));
  const auto as_chosen = [&] {  // no consistent slips: the modes as the LCP chose them
    modes = chosen;
    return accelerate(sys, data, modes, forces, closed);
  };
  const auto unsolved = [&] { return budgeted.exhausted() && as_chosen(); };  // ran out, or the forces failed
  if (!solve_slip_angles(budgeted, jacobian, theta, r, k, tolerance)) return unsolved();
  // Slips that run against their acceleration (k < 0) while the others slide, or no consistent
  // slips at all: the contact with the most negative k (else the largest residual) sticks and the
  // rest are solved again (a pile's contacts that start to slide together).
  while ((!(r.norm() <= tolerance) || k.minCoeff() < -tolerance) && sliding.size() > 1) {
    Eigen::Index worst = 0;
    if (k.minCoeff(&worst) >= -tolerance) r.cwiseAbs().maxCoeff(&worst);
    const int i = sliding[static_cast<size_t>(worst)];
    modes.mode[i] = ContactMode::stick;
    stuck.push_back(i);
    sliding.erase(sliding.begin() + worst);
    const Eigen::Index n = static_cast<Eigen::Index>(sliding.size());
    Eigen::VectorXd kept(n);
    for (Eigen::Index a = 0, b = 0; a <= n; ++a)
      if (a != worst) kept[b++] = theta[a];
    theta = kept;
    r.resize(n);
    k.resize(n);
    if (!solve_slip_angles(budgeted, jacobian, theta, r, k, tolerance)) return unsolved();
  }
  if (!(slips_solved(r, k, tolerance) && inside_cones(sys, stuck, forces))) return as_chosen();
  return finish_slips(sys, slip_fired, data, sliding, stuck, k, tolerance, modes, forces, closed);
}

}  // namespace impactsim
