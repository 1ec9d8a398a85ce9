#include "core/near_follow.hpp"

#include <algorithm>
#include <iterator>

#include "core/event_handling.hpp"

namespace impactsim {
namespace {

// Every body must be within kEndFraction of its budget at the step's end, which leaves the
// readings inside the step room to spare; the reaches of bodies that still go too far are raised
// fourfold, kWidenings times at most.
constexpr double kEndFraction = 0.5;
constexpr int kWidenings = 6;

}  // namespace

void narrow(const System& sys, LoopData& d, const Kinematics& kin) {
  if (!(sys.contact.broadphase_horizon > 0)) return;
  d.reach.assign(sys.model.bodies.size(), sys.contact.broadphase_horizon);
  NearSet& near = d.contact.near;
  d.contact.broadphase.select_near(sys.contacts, event_margin(sys.contact), d.reach, kin.R, kin.p, false, near);
  // Budgets that overflowed (bodies far beyond the scene's bounds) hold nothing: follow everything.
  if (!d.contact.broadphase.holds(near, kin.R, kin.p, 1.0)) near = d.contact.broadphase.everything(sys.contacts);
}

// The guards of the contacts the near set gained since d.scratch.near_before, inserted in contact
// order, each with its value at the poses kin (the reading g_prev holds) in g_prev. Such a contact
// was left out since its phase started, so every guard of the whole set would have read it far
// (phi its positive bound above the margin): open, floored at -kPhiMargin, not bounced nor
// passing (gated contacts are always near), armed at the phase's first reading, risen once a step
// was scanned. So it reads what it would have read had it been followed all along.
void follow_added(const System& sys, LoopData& d, const Kinematics& kin) {
  std::vector<int> added;
  const std::vector<int>& before = d.scratch.near_before;
  const std::vector<int>& now = d.contact.near.contacts;
  std::set_difference(now.begin(), now.end(), before.begin(), before.end(), std::back_inserter(added));
  if (added.empty()) return;
  Phase& ph = d.phase;
  std::vector<Guard> guards;
  guards.reserve(ph.guards.size() + added.size());
  Eigen::VectorXd g(static_cast<Eigen::Index>(ph.guards.size() + added.size()));
  Eigen::Index n = 0;
  size_t a = 0;
  const auto follow = [&](int i) {
    Guard guard{i, GuardKind::impact};
    guard.floor = -kPhiMargin;
    guard.armed = true;
    guard.risen = ph.scanned;
    const double phi = d.contact.broadphase.phi(sys.contacts, sys.contact.broadphase_margin, kin.R, kin.p, i);
    ph.phi_start[static_cast<size_t>(i)] = phi;  // far at the start, as at every reading since
    guards.push_back(guard);
    g[n++] = phi - guard.floor;
  };
  for (size_t k = 0; k < ph.guards.size(); ++k) {
    for (; a < added.size() && added[a] < ph.guards[k].contact; ++a) follow(added[a]);
    guards.push_back(ph.guards[k]);
    g[n++] = ph.g_prev[static_cast<Eigen::Index>(k)];
  }
  for (; a < added.size(); ++a) follow(added[a]);
  ph.guards.swap(guards);
  ph.g_prev.swap(g);
}

void follow_everything(const System& sys, LoopData& d) {
  d.scratch.near_before = d.contact.near.contacts;
  d.contact.near = d.contact.broadphase.everything(sys.contacts);
  update_kinematics(sys.model, d.scratch.q_step, d.scratch.reading_kin);
  follow_added(sys, d, d.scratch.reading_kin);
}

void keep_near(const System& sys, LoopData& d, const Eigen::VectorXd& x_end) {
  ContactData& c = d.contact;
  if (c.near.all) return;
  d.scratch.q_check = x_end.head(sys.model.nq);
  update_kinematics(sys.model, d.scratch.q_check, d.scratch.near_kin);
  const Kinematics& end = d.scratch.near_kin;
  if (c.broadphase.holds(c.near, end.R, end.p, kEndFraction)) return;
  d.scratch.near_before = c.near.contacts;
  update_kinematics(sys.model, d.scratch.q_reading, d.scratch.reading_kin);
  const Kinematics& start = d.scratch.reading_kin;
  for (int round = 0;; ++round) {
    c.broadphase.select_near(sys.contacts, event_margin(sys.contact), d.reach, start.R, start.p, true, c.near);
    std::vector<int>& over = d.scratch.over;
    over.clear();
    if (c.broadphase.holds(c.near, end.R, end.p, kEndFraction, &over)) break;
    if (round == kWidenings) {
      c.near = c.broadphase.everything(sys.contacts);
      break;
    }
    for (int b : over) d.reach[static_cast<size_t>(b)] *= 4;
  }
  follow_added(sys, d, start);
}

}  // namespace impactsim
