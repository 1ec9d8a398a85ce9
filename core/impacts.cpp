#include "core/impacts.hpp"

#include <algorithm>
#include <numeric>

#include <Eigen/QR>

#include "numerics/lcp.hpp"

#include "impact/anitescu_potra.hpp"
#include "impact/circular_cone.hpp"

namespace impactsim {
namespace {

// What each contact of the event does after it, J_n v+: which contacts lift off (scene outcomes count them).
void record_normal_velocities(const ContactData& data, const Eigen::VectorXd& v_plus, Event& e) {
  e.normal_velocity_after.clear();
  for (int i : e.contacts) e.normal_velocity_after.push_back(data.jac.normal_velocity(i, v_plus));
}


// The energy stopping each row of J alone would remove, sum of b_k^2 / (2 W_kk), b = J v and
// W = J M^-1 J^T (Event::rowwise_loss).
double rowwise_loss(const Eigen::VectorXd& b, const Eigen::MatrixXd& W) {
  double loss = 0.0;
  for (int k = 0; k < b.size(); ++k)
    if (W(k, k) > 0) loss += b[k] * b[k] / (2 * W(k, k));
  return loss;
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
    ContactSpace space = contact_space(sys.contacts, sys.contact, data.body, data.jac, set);
    return resolve(space, v);
  }
  const int td = sys.contacts.tangent_dim();
  ImpactResult out;
  out.v_plus = v;
  out.impulse_n = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(set.size()));
  out.impulse_t = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(set.size()) * td);
  for (size_t k = 0; k < islands.contacts.size(); ++k) {
    const std::vector<int>& island = islands.contacts[k];
    ContactSpace space = contact_space(sys.contacts, sys.contact, data.body, data.jac, members(set, island),
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

// The close over the contacts that push: the projection of v, in the kinetic metric, onto
//   {J_n,i v >= 0 for every contact of the set, J_t,i v = 0 for the frictional ones that stay},
// which never adds energy. Its normal impulses solve the LCP of the Schur complement
//   0 <= lambda _|_ S lambda + q >= 0,  S = W_nn - W_nt W_tt^+ W_tn,  q = b_n - W_nt W_tt^+ b_t,
// (W = J M^-1 J^T, b = J v; PSD, so Lemke solves it), its tangential ones follow from J_t v+ = 0.
// A contact that lifts off (lambda = 0, J_n v+ above the velocity tolerance) needs no rest of its
// slip: its tangent rows are released and the projection taken again. Where the slow closes of a
// rocking block would pull on the lifting corner (-2e-5 N s), that corner now lifts. Returns
// false, v unchanged, where Lemke fails.
bool close_without_pulling(const System& sys, const ContactData& data, const std::vector<int>& set,
                           Eigen::VectorXd& v, Event& e) {
  const int m = static_cast<int>(set.size()), td = data.jac.rows_per_contact - 1;
  std::vector<bool> held(set.size());
  for (int a = 0; a < m; ++a) held[a] = sys.contacts.contact(set[a]).mu > 0;
  for (int round = 0; round <= m; ++round) {
    std::vector<std::pair<int, int>> tangents;  // (position in set, tangent row)
    for (int a = 0; a < m; ++a)
      for (int k = 0; held[a] && k < td; ++k) tangents.emplace_back(a, 1 + k);
    const int nt = static_cast<int>(tangents.size());
    Eigen::MatrixXd J(m + nt, v.size());
    for (int a = 0; a < m; ++a) J.row(a) = data.jac.of(set[a]).row(0);
    for (int j = 0; j < nt; ++j) J.row(m + j) = data.jac.of(set[tangents[j].first]).row(tangents[j].second);
    Eigen::MatrixXd W, Minv_JT;
    block_delassus(data.body.M_llt, J, J, W, &Minv_JT);
    const Eigen::VectorXd b = J * v;
    Eigen::MatrixXd W_tt_W_tn = Eigen::MatrixXd::Zero(nt, m);  // W_tt^+ W_tn and W_tt^+ b_t
    Eigen::VectorXd W_tt_b_t = Eigen::VectorXd::Zero(nt);
    if (nt) {
      const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> W_tt(W.bottomRightCorner(nt, nt));
      W_tt_W_tn = W_tt.solve(W.bottomLeftCorner(nt, m));
      W_tt_b_t = W_tt.solve(b.tail(nt));
    }
    const Eigen::MatrixXd S = W.topLeftCorner(m, m) - W.topRightCorner(m, nt) * W_tt_W_tn;
    const LcpSolution sol = solve_lemke(0.5 * (S + S.transpose()), b.head(m) - W.topRightCorner(m, nt) * W_tt_b_t);
    if (!sol.ok()) return false;
    Eigen::VectorXd P(m + nt);
    P.head(m) = sol.z.cwiseMax(0.0);
    P.tail(nt) = -(W_tt_W_tn * P.head(m) + W_tt_b_t);
    const Eigen::VectorXd trial = v + Minv_JT * P;
    bool released = false;
    for (int a = 0; a < m; ++a)
      if (held[a] && P[a] == 0 && data.jac.normal_velocity(set[a], trial) > sys.contact.velocity_tolerance)
        held[a] = !(released = true);
    if (released && round < m) continue;
    e.rowwise_loss = rowwise_loss(b, W);
    e.impulse_n.assign(P.data(), P.data() + m);
    v = trial;
    return true;
  }
  return false;
}

// close_without_pulling island by island (contact_islands). Islands share no velocity, so M is
// block diagonal across them and each contact's rows touch one island's blocks: the projection
// onto the product of the islands' sets is the product of their projections, and each island's
// contacts lift off by its own trial alone. The same close, at a cost linear in the islands
// rather than cubic in all the touching contacts of a pile (an LCP and a complete orthogonal
// decomposition over every one at every Zeno event). Returns false, v unchanged, where any
// island's Lemke fails.
bool close_by_island(const System& sys, const ContactData& data, const std::vector<int>& set, Eigen::VectorXd& v,
                     Event& e) {
  const ContactIslands islands = contact_islands(data.body, data.jac, set);
  if (islands.contacts.size() <= 1) return close_without_pulling(sys, data, set, v, e);
  Eigen::VectorXd v_closed = v;
  std::vector<double> impulse_n(set.size(), 0.0);
  double loss = 0.0;
  for (const std::vector<int>& island : islands.contacts) {
    Event part;
    if (!close_without_pulling(sys, data, members(set, island), v_closed, part)) return false;
    for (size_t a = 0; a < island.size(); ++a) impulse_n[static_cast<size_t>(island[a])] = part.impulse_n[a];
    loss += part.rowwise_loss;
  }
  v = v_closed;
  e.impulse_n = std::move(impulse_n);
  e.rowwise_loss = loss;
  return true;
}

// The Zeno rule: an impact slower than v_zeno is plastic and ends the accumulation by closing its
// contacts. Where every frictional contact also slips slower than v_zeno, it brings them to rest:
// the projection, on the normal rows and the frictional contacts' tangent rows (a frictionless
// contact keeps its slip, and no spin is added), over the contacts it need not pull on
// (close_without_pulling). Its friction impulses may leave the cone by what such slow velocities
// carry; over nearly dependent normal rows (a coin's curved contact and the rim point beside it)
// they come in large opposite pairs that cancel, and then remove energy the slow contact velocities
// do not carry (closes_dependent_rows flags them; docs/validation.md, "Known limitations"). Where a
// contact slides faster (a corner landing at 0.5 mm/s while it slides at 1 m/s), stopping it would
// take a friction impulse far outside the cone, and where releasing the pulled contacts leaves one
// approaching, closing needs a push the projection cannot size; the impact is then the plastic
// Anitescu-Potra LCP (e = 0), friction in its cone, and sliding contacts land sliding; in a model
// of kBlockwiseFrom velocities or more it is solved in the circular cone directly, as the steps
// are (solve_directly_in_circular_cone), the polygon's LCP only where that fails. Both are taken
// island by island (close_by_island, resolve_by_island). False, v kept, where the plastic impact
// fails in a model the event loop steps through (steps_where_impacts_fail).
bool close_contacts(const System& sys, const ContactData& data, double t, const std::vector<int>& set,
                    Eigen::VectorXd& v, const EventLog& log) {
  Event e{.t = t, .kind = EventKind::zeno, .contacts = set, .law = "close", .kinetic_before = kinetic_energy(data.body, v)};
  if (!slips_slow(sys, data, set, v) || !close_by_island(sys, data, set, v, e)) {
    const ImpactResult plastic =
        resolve_by_island(sys, data, set, v, [&sys](ContactSpace& space, const Eigen::VectorXd& v_minus) {
          space.e.setZero();
          const MassFactor M_llt = mass_factor(space);
          // (a large island's law solves so itself: solved_directly_in_circular_cone)
          if (sys.model.nv >= kBlockwiseFrom && uses_circular_cone(space) && !solved_directly_in_circular_cone(space))
            if (ImpactResult r = solve_directly_in_circular_cone(space, M_llt, v_minus); r.ok) return r;
          return solve_anitescu_potra(space, M_llt, v_minus);
        });
    if (!plastic.ok && steps_where_impacts_fail(sys)) return false;
    if (!plastic.ok)
      throw SimulationError(t, StopReason::impact_failed,
                            "plastic impact of the Zeno rule at t = " + format_time(t) + " s: " + plastic.diagnostic);
    v = plastic.v_plus;
    e.law = "plastic";
    e.rowwise_loss = 0.0;
    e.impulse_n.assign(plastic.impulse_n.data(), plastic.impulse_n.data() + plastic.impulse_n.size());
    e.impulse_t.assign(plastic.impulse_t.data(), plastic.impulse_t.data() + plastic.impulse_t.size());
  }
  e.kinetic_after = kinetic_energy(data.body, v);
  record_normal_velocities(data, v, e);
  log(e);
  return true;
}

// The event of an impact resolved to r over the contacts `set`.
Event impact_event(double t, EventKind kind, const std::vector<int>& set, std::string law, const ImpactResult& r) {
  return Event{.t = t, .kind = kind, .contacts = set, .law = std::move(law),
               .kinetic_before = r.kinetic_energy_minus, .kinetic_after = r.kinetic_energy_plus,
               .impulse_n = std::vector<double>(r.impulse_n.data(), r.impulse_n.data() + r.impulse_n.size()),
               .impulse_t = std::vector<double>(r.impulse_t.data(), r.impulse_t.data() + r.impulse_t.size())};
}

// The law's impact over `set`; false, v kept, where it fails in a model the event loop steps
// through (steps_where_impacts_fail).
bool apply_impact(const System& sys, const ImpactLaw& law, Rng& rng, const ContactData& data, double t,
                  const std::vector<int>& set, EventKind kind, Eigen::VectorXd& v, const EventLog& log) {
  const ImpactResult r = resolve_by_island(
      sys, data, set, v, [&](ContactSpace& space, const Eigen::VectorXd& v_minus) { return law.resolve(space, v_minus, rng); });
  if (!r.ok && steps_where_impacts_fail(sys)) return false;
  if (!r.ok)
    throw SimulationError(t, StopReason::impact_failed, "impact at t = " + format_time(t) + " s (" + std::string(law.name()) + "): " + r.diagnostic);
  Event e = impact_event(t, kind, set, std::string(law.name()), r);
  for (int k : r.ordering) e.ordering.push_back(set[k]);
  v = r.v_plus;
  record_normal_velocities(data, v, e);
  log(e);
  return true;
}

// project_to_rest over contacts that form one island (or none to split).
Eigen::VectorXd project_island_to_rest(const ContactData& data, const std::vector<int>& set,
                                       const std::vector<bool>& tangential, Eigen::VectorXd& v, double* loss) {
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
  if (loss) *loss = rowwise_loss(b, W);
  v += Minv_JT * P;
  Eigen::VectorXd impulse = Eigen::VectorXd::Zero(r * static_cast<Eigen::Index>(set.size()));
  for (size_t j = 0; j < rows.size(); ++j) impulse[rows[j]] = P[j];
  return impulse;
}

}  // namespace

// Island by island: each island's projection moves its own velocities alone, so the projection
// over all is the product of theirs, without one decomposition over every contact of a pile.
Eigen::VectorXd project_to_rest(const ContactData& data, const std::vector<int>& set, const std::vector<bool>& tangential,
                                Eigen::VectorXd& v, double* loss) {
  const ContactIslands islands = contact_islands(data.body, data.jac, set);
  if (islands.contacts.size() <= 1) return project_island_to_rest(data, set, tangential, v, loss);
  const int r = data.jac.rows_per_contact;
  Eigen::VectorXd impulse = Eigen::VectorXd::Zero(r * static_cast<Eigen::Index>(set.size()));
  if (loss) *loss = 0.0;
  std::vector<bool> island_tangential;
  for (const std::vector<int>& island : islands.contacts) {
    island_tangential.clear();
    if (!tangential.empty())
      for (int a : island) island_tangential.push_back(tangential[static_cast<size_t>(a)]);
    double island_loss = 0.0;
    const Eigen::VectorXd part =
        project_island_to_rest(data, members(set, island), island_tangential, v, loss ? &island_loss : nullptr);
    for (size_t a = 0; a < island.size(); ++a)
      impulse.segment(island[a] * r, r) = part.segment(static_cast<Eigen::Index>(a) * r, r);
    if (loss) *loss += island_loss;
  }
  return impulse;
}

ImpactResult stick_where_possible(const System& sys, const ContactData& data, const std::vector<int>& candidates,
                                  const Eigen::VectorXd& v, std::vector<int>& sticking) {
  std::vector<bool> kept(static_cast<size_t>(sys.contacts.size()), false);
  // The jam over the contacts of `space` that can stick, its impulses over all of them (zero where
  // one is left out); ok where every contact of the space is left out, for the others' islands.
  const auto stick = [&](ContactSpace& space, const Eigen::VectorXd& v_minus) {
    std::vector<int> which(static_cast<size_t>(space.contacts()));
    std::iota(which.begin(), which.end(), 0);
    ImpactResult r;
    r.v_plus = v_minus;
    while (!which.empty()) {
      r = solve_sticking_impact(contact_subspace(space, which), v_minus);
      Eigen::Index pulling = 0;
      if (r.ok || r.impulse_n.minCoeff(&pulling) >= 0) break;  // stuck, or friction beyond a cone: no jam
      which.erase(which.begin() + pulling);
    }
    if (which.empty()) {  // every contact separates
      r = ImpactResult{};
      r.v_plus = v_minus;
    }
    if (!r.ok) return r;
    const int td = space.tangent_dim;
    Eigen::VectorXd impulse_n = Eigen::VectorXd::Zero(space.contacts());
    Eigen::VectorXd impulse_t = Eigen::VectorXd::Zero(space.contacts() * td);
    for (size_t a = 0; a < which.size(); ++a) {
      kept[space.ids[which[a]]] = true;
      impulse_n[which[a]] = r.impulse_n[static_cast<Eigen::Index>(a)];
      impulse_t.segment(which[a] * td, td) = r.impulse_t.segment(static_cast<Eigen::Index>(a) * td, td);
    }
    r.impulse_n = impulse_n;
    r.impulse_t = impulse_t;
    return r;
  };
  ImpactResult r;
  if (sys.model.nv >= kBlockwiseFrom) {
    r = resolve_by_island(sys, data, candidates, v, stick);
  } else {
    ContactSpace space = contact_space(sys.contacts, sys.contact, data.body, data.jac, candidates);
    r = stick(space, v);
  }
  sticking.clear();
  std::vector<int> positions;  // of the contacts that stick, in candidates
  for (size_t a = 0; a < candidates.size(); ++a)
    if (kept[candidates[a]]) sticking.push_back(candidates[a]), positions.push_back(static_cast<int>(a));
  if (!r.ok || sticking.empty()) {
    r.ok = false;
    r.v_plus = v;
    return r;
  }
  const int td = sys.contacts.tangent_dim();
  r.impulse_n = Eigen::VectorXd(r.impulse_n(positions));
  r.impulse_t = Eigen::MatrixXd(r.impulse_t.reshaped(td, candidates.size())(Eigen::all, positions)).reshaped();
  return r;
}

bool apply_impact_without_collision(const System& sys, const ContactData& data, double t, const std::vector<int>& set,
                                    const std::vector<int>& candidates, Eigen::VectorXd& v, const EventLog& log,
                                    const LcpOptions& options) {
  const double approach = 1e-3 * sys.contact.velocity_tolerance;
  const bool large = sys.model.nv >= kBlockwiseFrom;
  ImpactResult r = large ? resolve_by_island(sys, data, set, v,
                                             [&](ContactSpace& space, const Eigen::VectorXd& v_minus) {
                                               return solve_without_collision(space, v_minus, approach, options);
                                             })
                         : solve_without_collision(contact_space(sys.contacts, sys.contact, data.body, data.jac, set), v,
                                                   approach, options);
  if (!r.ok && steps_where_impacts_fail(sys)) return false;
  if (!r.ok) throw SimulationError(t, StopReason::impact_failed, "at t = " + format_time(t) + " s: " + r.diagnostic);
  const std::vector<int>* logged = &set;
  const char* law = "anitescu-potra";
  std::vector<int> sticking;
  if ((r.v_plus - v).cwiseAbs().maxCoeff() <= approach && !candidates.empty()) {
    if (ImpactResult stick = stick_where_possible(sys, data, candidates, v, sticking); stick.ok) {
      r = std::move(stick);
      logged = &sticking;
      law = "sticking";
    }
  }
  v = r.v_plus;
  Event e = impact_event(t, EventKind::iwc, *logged, law, r);
  record_normal_velocities(data, v, e);
  log(e);
  return true;
}

bool steps_where_impacts_fail(const System& sys) {
  return sys.model.nv >= kBlockwiseFrom && sys.contact.painleve_step > 0;
}

bool resolve_impacts(const System& sys, const ImpactLaw& law, Rng& rng, double t, const ContactModes& modes,
                     const std::vector<bool>& deferred, Eigen::VectorXd& v, const ContactData& data,
                     const EventLog& log, double* fastest_collision) {
  for (int round = 0;; ++round) {
    const std::vector<int> hitting = impacting(sys, modes, data, deferred, v);
    if (hitting.empty()) return true;
    if (round > 100) throw SimulationError(t, StopReason::impacts_unending, "impacts at t = " + format_time(t) + " s do not terminate");
    double fastest = 0;
    for (int i : hitting) fastest = std::max(fastest, -data.jac.normal_velocity(i, v));
    if (fastest < sys.contact.v_zeno) {
      // Over the contacts not separating: it would pull separating ones back.
      if (!close_contacts(sys, data, t, touching_not_separating(sys, modes, data, deferred, v), v, log)) return false;
      continue;
    }
    if (fastest_collision) *fastest_collision = std::max(*fastest_collision, fastest);
    // Every touching contact, separating ones too: an impulse elsewhere may turn them round.
    if (!apply_impact(sys, law, rng, data, t, touching_contacts(sys, modes, data, deferred), EventKind::impact, v, log))
      return false;
  }
}

}  // namespace impactsim
