#include "core/impacts.hpp"

#include <algorithm>

#include <Eigen/QR>

#include "impact/anitescu_potra.hpp"

namespace impactsim {
namespace {

// What each contact of the event does after it, J_n v+: which contacts lift off (scene outcomes count them).
void record_normal_velocities(const ContactData& data, const Eigen::VectorXd& v_plus, Event& e) {
  e.normal_velocity_after.clear();
  for (int i : e.contacts) e.normal_velocity_after.push_back(data.jac.normal_velocity(i, v_plus));
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
// contact and the rim point beside it) they come in large opposite pairs that cancel, and then
// remove energy the slow contact velocities do not carry (closes_dependent_rows flags them;
// docs/validation.md, "Known limitations"). Where a contact slides faster (a corner landing at
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


}  // namespace

Eigen::VectorXd project_to_rest(const ContactData& data, const std::vector<int>& set, const std::vector<bool>& tangential,
                                Eigen::VectorXd& v, double* rowwise_loss) {
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

}  // namespace impactsim
