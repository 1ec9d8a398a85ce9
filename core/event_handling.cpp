#include "core/event_handling.hpp"

#include <algorithm>

#include <Eigen/QR>

#include "core/event_locate.hpp"
#include "core/guards.hpp"
#include "core/slip_start.hpp"
#include "impact/anitescu_potra.hpp"

namespace impactsim {
namespace {

bool touches(const System& sys, const ContactModes& modes, const ContactData& data, int i) {
  const double phi = data.frames[i].phi, tol = sys.contact.distance_tolerance;
  if (phi > tol) return false;
  return !gated(sys.contacts, i) || (!behind(sys.contacts, modes, data.body.kin, data.frames, i) && phi >= -tol);
}

// Contact i touches and is not deferred (deferred_contacts; empty: none is).
bool in_event(const System& sys, const ContactModes& modes, const ContactData& data, const std::vector<bool>& deferred,
              int i) {
  return touches(sys, modes, data, i) && !(i < static_cast<int>(deferred.size()) && deferred[i]);
}

// The contacts touching() flags, ascending.
std::vector<int> touching_contacts(const System& sys, const ContactModes& modes, const ContactData& data,
                                   const std::vector<bool>& deferred) {
  std::vector<int> out;
  for (int i : data.near.contacts)
    if (in_event(sys, modes, data, deferred, i)) out.push_back(i);
  return out;
}

// Contacts touching and approaching faster than the velocity tolerance.
std::vector<int> impacting(const System& sys, const ContactModes& modes, const ContactData& data,
                           const std::vector<bool>& deferred, const Eigen::VectorXd& v) {
  std::vector<int> out;
  for (int i : data.near.contacts)
    if (in_event(sys, modes, data, deferred, i) && data.jac.normal_velocity(i, v) < -sys.contact.velocity_tolerance) out.push_back(i);
  return out;
}

// The candidates of mode selection and the Zeno projection: every touching contact that is not separating.
std::vector<int> touching_not_separating(const System& sys, const ContactModes& modes, const ContactData& data,
                                         const std::vector<bool>& deferred, const Eigen::VectorXd& v) {
  std::vector<int> out;
  for (int i : data.near.contacts)
    if (in_event(sys, modes, data, deferred, i) && data.jac.normal_velocity(i, v) <= sys.contact.velocity_tolerance) out.push_back(i);
  return out;
}

// What each contact of the event does after it, J_n v+: which contacts lift off (scene outcomes count them).
void record_normal_velocities(const ContactData& data, const Eigen::VectorXd& v_plus, Event& e) {
  e.normal_velocity_after.clear();
  for (int i : e.contacts) e.normal_velocity_after.push_back(data.jac.normal_velocity(i, v_plus));
}

// Brings the contacts in `set` to rest by the projection in the kinetic metric,
// v+ = v - M^-1 J^T (J M^-1 J^T)^+ J v, which never adds energy: each contact's normal row, and its
// tangent rows where `tangential` says (empty: every contact's). Returns the impulses,
// rows_per_contact per contact in set's order, zero in the rows left out; `rowwise_loss`, if given,
// gets the energy stopping each row alone would remove, sum of b_k^2 / (2 W_kk) with b = J v
// (Event::rowwise_loss). M^-1 is applied block by block (numerics/mass_factor.hpp): a pile's
// velocities are a block of 6 per body, and a dense factorization per Zeno event would cost the
// cube of their number.
Eigen::VectorXd project_to_rest(const ContactData& data, const std::vector<int>& set, const std::vector<bool>& tangential,
                                Eigen::VectorXd& v, double* rowwise_loss = nullptr) {
  const int r = data.jac.rows_per_contact;
  std::vector<int> rows;  // into the r-per-contact layout of the result
  for (size_t a = 0; a < set.size(); ++a)
    for (int k = 0; k < (tangential.empty() || tangential[a] ? r : 1); ++k) rows.push_back(static_cast<int>(a) * r + k);
  Eigen::MatrixXd J(static_cast<int>(rows.size()), v.size());
  for (size_t j = 0; j < rows.size(); ++j) J.row(j) = data.jac.of(set[rows[j] / r]).row(rows[j] % r);
  Eigen::MatrixXd Minv_JT, W;
  block_delassus(data.body.M_llt, J, J, W, &Minv_JT);
  const Eigen::VectorXd b = J * v;
  const Eigen::VectorXd P = -W.completeOrthogonalDecomposition().solve(b);
  if (rowwise_loss) {
    *rowwise_loss = 0.0;
    for (int k = 0; k < b.size(); ++k)
      if (W(k, k) > 0) *rowwise_loss += b[k] * b[k] / (2 * W(k, k));
  }
  v += Minv_JT * P;
  Eigen::VectorXd impulse = Eigen::VectorXd::Zero(r * static_cast<Eigen::Index>(set.size()));
  for (size_t j = 0; j < rows.size(); ++j) impulse[rows[j]] = P[j];
  return impulse;
}

// Whether every frictional contact of `set` slips slower than v_zeno.
bool slips_slow(const System& sys, const ContactData& data, const std::vector<int>& set, const Eigen::VectorXd& v) {
  const int r = data.jac.rows_per_contact;
  for (int i : set)
    if (sys.contacts.contact(i).mu > 0 && (data.jac.of(i).bottomRows(r - 1) * v).norm() > sys.contact.v_zeno) return false;
  return true;
}

// An impact over `set` resolved island by island (contact_islands) by `resolve` (ContactSpace&, v
// over its velocities -> ImpactResult), the outcomes joined into one over `set`; a single island
// is resolved whole over every velocity. A pile's resting bodies are each an island, and one LCP
// over all their contacts would cost every impact the cube of their number.
template <class Resolve>
ImpactResult resolve_by_island(const System& sys, const ContactData& data, const std::vector<int>& set,
                               const Eigen::VectorXd& v, Resolve resolve) {
  const ContactIslands islands = contact_islands(data.body, data.jac, set);
  if (islands.contacts.size() <= 1) {
    ContactSpace space = contact_space(sys.contacts, sys.contact.friction_directions, data.body, data.jac, set);
    return resolve(space, v);
  }
  const int td = sys.contacts.tangent_dim();
  ImpactResult out;
  out.v_plus = v;
  out.impulse_n = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(set.size()));
  out.impulse_t = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(set.size()) * td);
  for (size_t k = 0; k < islands.contacts.size(); ++k) {
    const std::vector<int>& island = islands.contacts[k];
    std::vector<int> contacts;
    for (int a : island) contacts.push_back(set[a]);
    ContactSpace space = contact_space(sys.contacts, sys.contact.friction_directions, data.body, data.jac, contacts,
                                       islands.blocks[k]);
    const std::vector<int> cols = block_columns(data.body, islands.blocks[k]);
    const ImpactResult r = resolve(space, Eigen::VectorXd(v(cols)));
    if (!r.ok) return r;
    for (size_t a = 0; a < island.size(); ++a) {
      out.impulse_n[island[a]] = r.impulse_n[static_cast<Eigen::Index>(a)];
      out.impulse_t.segment(island[a] * td, td) = r.impulse_t.segment(static_cast<Eigen::Index>(a) * td, td);
    }
    out.v_plus(cols) = r.v_plus;
    for (int a : r.ordering) out.ordering.push_back(island[a]);
    out.lcp_solves += r.lcp_solves;
    out.lcp_residual = std::max(out.lcp_residual, r.lcp_residual);
    out.steps += r.steps;
    out.terminated = out.terminated && r.terminated;
  }
  out.kinetic_energy_minus = kinetic_energy(data.body, v);
  out.kinetic_energy_plus = kinetic_energy(data.body, out.v_plus);
  return out;
}

// The Zeno rule: an impact slower than v_zeno is plastic and ends the accumulation by closing its
// contacts. Where every frictional contact also slips slower than v_zeno, it brings them to rest:
// the projection, on the normal rows and the frictional contacts' tangent rows (a frictionless
// contact keeps its slip, and no spin is added). Its impulses may pull, and leave the friction
// cone, by what such slow velocities carry; over nearly dependent normal rows (a coin's curved
// contact and the rim point beside it) they come in large opposite pairs that cancel (-207 and
// +207 N s in coin_spin), and then remove energy the slow contact velocities do not carry
// (closes_dependent_rows flags them; README, "Not fixed yet"). Where a contact slides faster (a corner landing at
// 0.5 mm/s while it slides at 1 m/s), stopping it would take a friction impulse far outside the
// cone; the impact is then the plastic Anitescu-Potra LCP (e = 0), friction in its polygon, and
// the contact lands sliding.
void close_contacts(const System& sys, const ContactData& data, double t, const std::vector<int>& set,
                    Eigen::VectorXd& v, const EventLog& log) {
  const int r = data.jac.rows_per_contact;
  Event e{.t = t, .kind = EventKind::zeno, .contacts = set, .law = "close", .kinetic_before = kinetic_energy(data.body, v)};
  if (slips_slow(sys, data, set, v)) {
    std::vector<bool> frictional(set.size());
    for (size_t a = 0; a < set.size(); ++a) frictional[a] = sys.contacts.contact(set[a]).mu > 0;
    const Eigen::VectorXd impulse = project_to_rest(data, set, frictional, v, &e.rowwise_loss);
    for (size_t a = 0; a < set.size(); ++a) e.impulse_n.push_back(impulse[a * r]);
  } else {
    const ImpactResult plastic =
        resolve_by_island(sys, data, set, v, [](ContactSpace& space, const Eigen::VectorXd& v_minus) {
          space.e.setZero();
          return solve_anitescu_potra(space, anitescu_potra_operator(space), v_minus);
        });
    if (!plastic.ok)
      throw SimulationError(t, StopReason::impact_failed,
                            "plastic impact of the Zeno rule at t = " + format_time(t) + " s: " + plastic.diagnostic);
    v = plastic.v_plus;
    e.law = "plastic";
    e.impulse_n.assign(plastic.impulse_n.data(), plastic.impulse_n.data() + plastic.impulse_n.size());
  }
  e.kinetic_after = kinetic_energy(data.body, v);
  record_normal_velocities(data, v, e);
  log(e);
}

// The event of an impact resolved to r over the contacts `set`.
Event impact_event(double t, EventKind kind, const std::vector<int>& set, std::string law, const ImpactResult& r) {
  return Event{.t = t, .kind = kind, .contacts = set, .law = std::move(law),
               .kinetic_before = r.kinetic_energy_minus, .kinetic_after = r.kinetic_energy_plus,
               .impulse_n = std::vector<double>(r.impulse_n.data(), r.impulse_n.data() + r.impulse_n.size())};
}

void apply_impact(const System& sys, const ImpactLaw& law, Rng& rng, const ContactData& data, double t,
                  const std::vector<int>& set, EventKind kind, Eigen::VectorXd& v, const EventLog& log) {
  const ImpactResult r = resolve_by_island(
      sys, data, set, v, [&](ContactSpace& space, const Eigen::VectorXd& v_minus) { return law.resolve(space, v_minus, rng); });
  if (!r.ok)
    throw SimulationError(t, StopReason::impact_failed, "impact at t = " + format_time(t) + " s (" + std::string(law.name()) + "): " + r.diagnostic);
  Event e = impact_event(t, kind, set, std::string(law.name()), r);
  for (int k : r.ordering) e.ordering.push_back(set[k]);
  v = r.v_plus;
  record_normal_velocities(data, v, e);
  log(e);
}

// Painleve: an impact without collision, whatever the law. The laws resolve approach (Routh's
// process, the sequential and propagative orderings all start from J_n v < 0 and return the zero
// impulse here); the jam that stops the slip is the Anitescu-Potra LCP's nonzero solution, reached
// by a virtual approach far below the velocity tolerance, so that the contacts stay candidates.
// Where that LCP's answer is the zero impulse, to within the virtual approach (an earlier jam left
// the contacts sliding at the virtual approach, which its polygon allows), the candidates are
// brought to rest by the sticking impact instead (impact/anitescu_potra.hpp), leaving out any it
// would have to pull shut; without it the same Painleve slide would come back unchanged.
void apply_impact_without_collision(const System& sys, const ContactData& data, double t, const std::vector<int>& set,
                                    const std::vector<int>& candidates, Eigen::VectorXd& v, const EventLog& log) {
  const ContactSpace space = contact_space(sys.contacts, sys.contact.friction_directions, data.body, data.jac, set);
  const double approach = 1e-3 * sys.contact.velocity_tolerance;
  ImpactResult r = solve_without_collision(space, v, approach);
  if (!r.ok) throw SimulationError(t, StopReason::impact_failed, "at t = " + format_time(t) + " s: " + r.diagnostic);
  const std::vector<int>* logged = &set;
  const char* law = "anitescu-potra";
  std::vector<int> sticking = candidates;
  while ((r.v_plus - v).cwiseAbs().maxCoeff() <= approach && !sticking.empty()) {
    ImpactResult stick = solve_sticking_impact(
        contact_space(sys.contacts, sys.contact.friction_directions, data.body, data.jac, sticking), v);
    if (stick.ok) {
      r = std::move(stick);
      logged = &sticking;
      law = "sticking";
      break;
    }
    // A contact it would have to pull shut is left out (it separates), as in consistent().
    Eigen::Index pulling = 0;
    if (stick.impulse_n.minCoeff(&pulling) >= 0) break;  // friction beyond a cone: no sticking jam
    sticking.erase(sticking.begin() + pulling);
  }
  v = r.v_plus;
  Event e = impact_event(t, EventKind::iwc, *logged, law, r);
  record_normal_velocities(data, v, e);
  log(e);
}

// The chosen mode must give every closed contact a pushing normal force; a slide in a Painleve
// direction can fail that even when the acceleration LCP was solvable. Judged at the acceleration
// level like the LCP, without drift correction: a touching contact 0.2 um open that the LCP leaves
// unloaded would need a pull of 1e-7 N to be drawn shut, which is numerics, not Painleve. A contact
// the LCP left unloaded at zero acceleration may go either way; where holding it shut takes a pull
// (a nearly redundant pair, such as two leaning dominoes' corners on each other, amplifies the
// LCP's rounding into one), it opens instead. Contacts that start to slide from rest in 3-D first
// get a slip consistent with the circular cone (core/slip_start.hpp). That slip is not the
// polygon's, and a loaded contact the LCP kept closed may then need a pull (a cube's edge, one end
// sliding fast on 0.4 N, the other starting to slide from rest): it lifts off if, opened, it
// accelerates away (a consistent mode); only if it would then sink is it a Painleve case.
bool consistent(const System& sys, const std::vector<bool>& slip_fired, ContactModes& chosen, const Eigen::VectorXd& q,
                const Eigen::VectorXd& v, ContactData& data, ModeForces& forces, std::string& why) {
  std::vector<int> closed, need;
  std::vector<int> lifted;  // loaded contacts opened because the mode would pull them
  for (int round = 0; round <= sys.contacts.size(); ++round) {
    closed.clear();
    for (int i : data.near.contacts)  // closed contacts touch: they are near
      if (chosen.is_closed(i)) closed.push_back(i);
    need = closed;
    need.insert(need.end(), lifted.begin(), lifted.end());  // open now, so none is in closed
    std::sort(need.begin(), need.end());
    compute_body_dynamics(sys.model, q, v, data.body);  // data.frames are choose_modes' at q
    compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, need, data.jac);
    compute_contact_jdot_v(sys.model, sys.contacts, data.body, data.frames, need, data.jac);
    if (!start_slip_from_rest(sys, slip_fired, v, data, chosen, forces)) {
      why = "the mass matrix is not positive definite";
      return false;
    }
    const double accel_tol = 1e-9 * (1.0 + forces.vdot.cwiseAbs().maxCoeff());
    for (int i : lifted) {
      if (data.jac.of(i).row(0).dot(forces.vdot) + data.jac.jdot_v_of(i)[0] >= -accel_tol) continue;
      why = "contact '" + sys.contacts.contact(i).name + "' would need a pulling normal force (Painleve)";
      return false;
    }
    const double tol = 1e-9 * (1.0 + forces.lambda_n.cwiseAbs().maxCoeff());
    int pulling = -1;
    for (int i : closed)
      if (forces.lambda_n[i] < -tol && (pulling < 0 || forces.lambda_n[i] < forces.lambda_n[pulling])) pulling = i;
    if (pulling < 0) return true;
    const bool unloaded = static_cast<int>(chosen.reference_n.size()) == sys.contacts.size() &&
                          chosen.reference_n[pulling] <= tol;
    if (!unloaded) lifted.push_back(pulling);
    chosen.mode[pulling] = ContactMode::open;
  }
  why = "no mode of the contacts gives pushing forces";
  return false;
}

// Mode selection counts a slip within the velocity tolerance as none (trial_modes: such a contact
// may stick, or slide from rest along the acceleration LCP's direction). In a 3-D tangent plane
// the slip left over is not harmless: a contact "sliding from rest" along s while its slip of
// 8e-7 m/s points elsewhere gets a friction direction that turns with that slip, stiff as
// 1/velocity tolerance, and the phase's forces jump where the slip crosses s's normal (a cube at
// rest on a face would alternate lift-off and touch-down of one corner at one instant).
// So the touching, non-separating frictional contacts of such slips are brought exactly to rest
// first by the Zeno rule's projection (project_to_rest); the velocity changes by about the
// tolerance. Nearly dependent rows (a pile's jammed contacts) can make its least-norm impulses
// large, and then it moves the other contacts by far more than the slips it removes (in a pile,
// sub-micrometre-per-second slips can give a fast-sliding contact an approach that sinks it into
// its neighbour before the next event). A projection that
// would move any touching contact by more than 10 velocity tolerances is not taken; those slips
// are left as they are. Planar slips are left as they are too (a planar slip has no direction to
// turn, and the paper scenes stay exact).
void rest_slow_slips(const System& sys, const ContactData& data, const std::vector<int>& candidates, Eigen::VectorXd& v) {
  const int r = data.jac.rows_per_contact;
  if (r < 3) return;
  std::vector<int> slow;
  double largest = 0.0;
  for (int i : candidates) {
    if (sys.contacts.contact(i).mu <= 0) continue;
    const Eigen::VectorXd u = data.jac.rows_times(i, 0, r, v);
    if (u.tail(r - 1).norm() > sys.contact.velocity_tolerance) continue;
    slow.push_back(i);
    largest = std::max(largest, u.cwiseAbs().maxCoeff());
  }
  if (slow.empty() || largest == 0.0) return;
  Eigen::VectorXd rested = v;
  project_to_rest(data, slow, {}, rested);
  const double limit = 10 * sys.contact.velocity_tolerance;
  for (int i : candidates)
    if ((data.jac.of(i) * (rested - v)).cwiseAbs().maxCoeff() > limit) return;
  v = rested;
}

// The acceleration LCP's solution is degenerate for a touching contact with no load that does not
// accelerate (lambda_n = 0, a_n = 0): its pivots close it as readily as they leave it open. One
// that was resting open at the surface (`resting_open`), is not approaching, and gets no load stays
// open. Else two unloaded contacts in a pile take turns: at each one's lift-off the other is
// closed again with a rounding-sized force, and lifts off when rounding takes that below zero,
// over and over until the chatter rule steps through.
// Contacts that land at the event are left to the LCP: a box landing flat keeps all four corners.
void keep_unloaded_open(const System& sys, const std::vector<bool>& resting_open, const ContactData& data,
                        const Eigen::VectorXd& v, ContactModes& chosen) {
  if (static_cast<int>(chosen.reference_n.size()) != sys.contacts.size()) return;
  double largest = 0.0;
  for (double f : chosen.reference_n) largest = std::max(largest, std::abs(f));
  const double tol = 1e-9 * (1.0 + largest);
  for (int i : data.near.contacts)  // a contact out of the near set is not touching
    if (static_cast<size_t>(i) < resting_open.size() && resting_open[i] && chosen.mode[i] != ContactMode::open &&
        chosen.reference_n[i] <= tol && data.jac.normal_velocity(i, v) >= -1e-3 * sys.contact.velocity_tolerance)
      chosen.mode[i] = ContactMode::open;
}

// Lift-off, stick and slip events, each listing the contacts that changed that way (only `near`
// ones can: the others are open before and after).
void log_mode_changes(double t, const ContactModes& before, const ContactModes& after, double kinetic_energy,
                      const std::vector<int>& near, const EventLog& log) {
  Event liftoff{.kind = EventKind::liftoff}, stick{.kind = EventKind::stick}, slip{.kind = EventKind::slip};
  for (int i : near) {
    const ContactMode a = before.mode[i], b = after.mode[i];
    if (a != ContactMode::open && b == ContactMode::open) liftoff.contacts.push_back(i);
    if (a == ContactMode::slide && b == ContactMode::stick) stick.contacts.push_back(i);
    const bool reversed = a == ContactMode::slide && b == ContactMode::slide && before.slip[i].dot(after.slip[i]) < 0;
    if ((a == ContactMode::stick && b == ContactMode::slide) || reversed) slip.contacts.push_back(i);
  }
  for (Event* e : {&liftoff, &stick, &slip}) {
    if (e->contacts.empty()) continue;
    e->t = t;
    e->kinetic_before = e->kinetic_after = kinetic_energy;
    log(*e);
  }
}

}  // namespace

double event_margin(const ContactSettings& settings) {
  return std::max(settings.broadphase_margin, settings.distance_tolerance);
}

std::vector<bool> touching(const System& sys, const ContactModes& modes, const ContactData& data,
                           const std::vector<bool>& deferred) {
  std::vector<bool> out(sys.contacts.size(), false);
  for (int i : touching_contacts(sys, modes, data, deferred)) out[i] = true;
  return out;
}

void compute_event_frames(const System& sys, const Kinematics& kin, const Broadphase& broadphase, const NearSet& near,
                          std::vector<ContactFrame>& frames) {
  broadphase.update(sys.contacts, event_margin(sys.contact), kin.R, kin.p, near, frames);
  for (int i : near.contacts) {  // gated contacts are always near
    const int j = sys.contacts.contact(i).only_ahead_of;
    if (j >= 0) frames[j] = sys.contacts.frame(kin.R, kin.p, j);  // behind() reads its tangent
  }
}

void compute_event_data(const System& sys, const ContactModes& modes, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& v, ContactData& data) {
  compute_body_dynamics(sys.model, q, v, data.body);
  compute_event_frames(sys, data.body.kin, data.broadphase, data.near, data.frames);
  compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, touching_contacts(sys, modes, data, {}),
                            data.jac);
}

bool simultaneous_contact(double phi, double vn, double t, const ContactSettings& settings) {
  const double precision = kEventTimePrecision * std::max(1.0, std::abs(t));  // locate_crossing's bracket
  return phi <= 1e-6 * settings.distance_tolerance + std::max(0.0, -vn) * precision;
}

std::vector<bool> deferred_contacts(const System& sys, const ContactModes& modes, const ContactData& data,
                                    const Eigen::VectorXd& v, double t) {
  std::vector<bool> out(sys.contacts.size(), false);
  for (int i : data.near.contacts) {
    if (modes.mode[i] != ContactMode::open || !touches(sys, modes, data, i)) continue;
    const double vn = data.jac.normal_velocity(i, v);
    out[i] = vn < -sys.contact.velocity_tolerance && !simultaneous_contact(data.frames[i].phi, vn, t, sys.contact);
  }
  return out;
}

void resolve_impacts(const System& sys, const ImpactLaw& law, Rng& rng, double t, const ContactModes& modes,
                     const std::vector<bool>& deferred, Eigen::VectorXd& v, ContactData& data, const EventLog& log) {
  for (int round = 0;; ++round) {
    const std::vector<int> hitting = impacting(sys, modes, data, deferred, v);
    if (hitting.empty()) return;
    if (round > 100) throw SimulationError(t, StopReason::impacts_unending, "impacts at t = " + format_time(t) + " s do not terminate");
    double fastest = 0;
    for (int i : hitting) fastest = std::max(fastest, -data.jac.normal_velocity(i, v));
    if (fastest < sys.contact.v_zeno) {
      close_contacts(sys, data, t, touching_not_separating(sys, modes, data, deferred, v), v, log);  // it would pull separating ones back
      continue;
    }
    // Every touching contact, separating ones too: an impulse elsewhere may turn them round.
    apply_impact(sys, law, rng, data, t, touching_contacts(sys, modes, data, deferred), EventKind::impact, v, log);
  }
}

bool choose_modes(const System& sys, double t, const std::vector<FiredGuard>& fired, const std::vector<bool>& deferred,
                  Eigen::VectorXd& v, ContactModes& modes, ContactData& data, ModeForces& forces, const EventLog& log,
                  const std::vector<bool>& resting_open) {
  const Eigen::VectorXd q = data.body.q;
  const ContactModes before = modes;
  rest_slow_slips(sys, data, touching_not_separating(sys, modes, data, deferred, v), v);
  // A fired lift-off guard means the load reached zero; a fired slip guard means friction reached
  // the cone's edge. (A sliding contact's stick guard is its slip stopping: the LCP alone decides
  // whether it sticks or slides back.)
  ModePreference prefer{std::vector<bool>(sys.contacts.size(), false), std::vector<bool>(sys.contacts.size(), false)};
  for (const FiredGuard& f : fired) {
    const ContactMode was = before.mode[f.contact];
    if (f.kind == GuardKind::liftoff && was != ContactMode::open) prefer.open[f.contact] = true;
    if (f.kind == GuardKind::slip && was == ContactMode::stick) prefer.slide[f.contact] = true;
  }
  // Frames depend on q alone, which no attempt changes.
  update_kinematics(sys.model, q, data.body.kin);
  compute_event_frames(sys, data.body.kin, data.broadphase, data.near, data.frames);
  for (int attempt = 0;; ++attempt) {
    const std::vector<int> candidates = touching_not_separating(sys, modes, data, deferred, v);
    if (candidates.empty() && modes.closed() == 0) break;  // free flight before and after: nothing to choose
    compute_body_dynamics(sys.model, q, v, data.body);
    const std::vector<int> need = touching_contacts(sys, modes, data, {});
    compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, need, data.jac);
    compute_contact_jdot_v(sys.model, sys.contacts, data.body, data.frames, need, data.jac);
    std::string why;
    ContactModes chosen = modes;
    const bool selected = select_modes(sys.contacts, sys.contact, data.body, data.jac, candidates, prefer, chosen, why);
    if (selected) keep_unloaded_open(sys, resting_open, data, v, chosen);
    if (selected && consistent(sys, prefer.slide, chosen, q, v, data, forces, why)) {
      modes = chosen;
      break;
    }
    if (attempt > 2) {
      if (sys.contact.painleve_step > 0) return false;
      throw SimulationError(t, StopReason::no_contact_forces, "no contact forces at t = " + format_time(t) + " s (" + why +
                                                                  "; simulation.contact.painleve_step > 0 would step through)");
    }
    // Painleve: no consistent contact forces; an impact without collision resolves it.
    // Over every touching contact, separating ones too: the jam must not leave one approaching.
    compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, need, data.jac);  // consistent() narrowed them
    apply_impact_without_collision(sys, data, t, touching_contacts(sys, modes, data, deferred), candidates, v, log);
  }
  log_mode_changes(t, before, modes, kinetic_energy(data.body, v), data.near.contacts, log);
  return true;
}

bool at_rest(const System& sys, const ContactModes& modes, const std::vector<bool>& closed, double t,
             const Eigen::VectorXd& q, const Eigen::VectorXd& v, ContactData& data, ModeForces& forces) {
  const double T = sys.simulation.t_end - t;
  const ContactSettings& cs = sys.contact;
  if (!cs.detect_rest || T <= 0) return false;
  // Every comparison with NaN is false: a non-finite state must not pass for rest.
  if (!q.allFinite() || !v.allFinite() || !(v.cwiseAbs().maxCoeff() * T <= cs.distance_tolerance)) return false;
  compute_contact_data(sys.model, sys.contacts, q, v, closed, data);
  if (!constrained_acceleration(sys.contacts, cs.baumgarte, data.body, data.frames, data.jac, modes, forces))
    return false;
  if (!forces.vdot.allFinite()) return false;
  const double a = forces.vdot.cwiseAbs().maxCoeff();
  return a * T <= cs.velocity_tolerance && 0.5 * a * T * T <= cs.distance_tolerance;
}

Event rest_event(double t, const ContactModes& modes, const Eigen::VectorXd& v, const ContactData& data) {
  Event e{.t = t, .kind = EventKind::rest};
  for (size_t i = 0; i < modes.mode.size(); ++i)
    if (modes.is_closed(static_cast<int>(i))) e.contacts.push_back(static_cast<int>(i));
  e.kinetic_before = e.kinetic_after = kinetic_energy(data.body, v);
  return e;
}

}  // namespace impactsim
