#include "core/painleve_step.hpp"

#include <algorithm>
#include <cmath>

#include "core/event_handling.hpp"
#include "core/event_sets.hpp"
#include "core/velocity_step.hpp"
#include "impact/circular_cone.hpp"
#include "numerics/lcp.hpp"
#include "numerics/mass_factor.hpp"

namespace impactsim {
namespace {

constexpr int kHalvings = 20;  // 2^-20 ~ 1e-6 of the step asked for
// Rounds of contacts joining the step's active set (close_within_step) before it halves instead.
constexpr int kCloseRounds = 4;

// The contact that sinks deepest at q1, deeper than the distance tolerance and deeper than it was
// at the start (phi0) by more than kSinkSlack of the tolerance, or -1: an open one ran past its
// collision, or a touching one left its first-order gap J_n y >= 0 far behind (a state without
// precision, an angle of 1e308 degrees). The slack spares a contact that starts a hair beyond the
// tolerance (phi0 = -1.00000000001e-6 m in a 50-body pile): the LCP holds its gap to first order,
// and the second order alone failed every halving of the step down to 1e-10 s.
constexpr double kSinkSlack = 1e-3;
// Every such contact into `all`.
int sinking(const System& sys, const std::vector<double>& phi0, const Eigen::VectorXd& q1, ContactData& data,
            std::vector<int>& all) {
  update_kinematics(sys.model, q1, data.body.kin);
  data.broadphase.update(sys.contacts, sys.contact.broadphase_margin, data.body.kin.R, data.body.kin.p, data.frames);
  int deepest = -1;
  all.clear();
  for (int i = 0; i < sys.contacts.size(); ++i) {
    const double phi = data.frames[i].phi;
    const double tol = sys.contact.distance_tolerance;
    if (gated(sys.contacts, i) || phi >= -tol || phi >= phi0[i] - kSinkSlack * tol) continue;
    all.push_back(i);
    if (deepest < 0 || phi < data.frames[deepest].phi) deepest = i;
  }
  return deepest;
}

// One island of the step's problem (or the whole active set, `cols` empty): its contacts'
// positions in the active set and its space, in the scene's cone, over its bodies' velocities.
struct StepIsland {
  std::vector<int> positions;
  std::vector<int> contacts, blocks, cols;
  ContactSpace space;
};

// The active set's islands (contact_islands): the LCP's W has no entries between them, so each is
// solved over its own bodies' velocities, and a body no contact moves takes y = M^-1 b. One LCP
// over a 50-body pile's whole active set (about 2,000 variables) took 95% of its run, each step
// 0.1 to 1 s; Lemke's cost grows with the cube of the LCP's size. A single island is one problem
// over every velocity, as before. Built once per step: halvings change only b.
std::vector<StepIsland> step_islands(const System& sys, const ContactData& data, const std::vector<int>& active) {
  const ContactIslands islands = contact_islands(data.body, data.jac, active);
  std::vector<StepIsland> out;
  if (islands.contacts.size() <= 1) {
    StepIsland whole{{}, active, {}, {}, contact_space(sys.contacts, sys.contact, data.body, data.jac, active)};
    for (size_t a = 0; a < active.size(); ++a) whole.positions.push_back(static_cast<int>(a));
    out.push_back(std::move(whole));
    return out;
  }
  for (size_t k = 0; k < islands.contacts.size(); ++k) {
    StepIsland island{islands.contacts[k], members(active, islands.contacts[k]), islands.blocks[k],
                      block_columns(data.body, islands.blocks[k]), {}};
    island.space = contact_space(sys.contacts, sys.contact, data.body, data.jac, island.contacts, island.blocks);
    out.push_back(std::move(island));
  }
  return out;
}

// One island's step for b over its velocities. A large model's island (kBlockwiseFrom velocities
// on, in the whole model) is first solved in the circular cone directly
// (solve_velocity_step_in_cone); small models keep the polygon's LCP as the start, whose answers
// their recorded outputs hold. Where the circular cone's Newton stops short of its
// tolerance, which is relative to the problem's own impulses (one light island's in a frictional
// sphere pile), the polygon's answer is taken: the scheme's own friction law (Anitescu and Potra's
// polyhedral cone), an exact LCP solution that never adds energy.
// The cone's equations are solved there to kStepConeTolerance of the step's impulses: the step's
// own error is O(h), and on an island of 122 contacts of a 50-box pile Newton stalled at 4e-7 of
// them, short of kConeTolerance, for 600 iterations (5 s), and then the polygon's LCP jammed.
constexpr double kStepConeTolerance = 1e-6;
// The contacts (positions) that the last step pressed, from its impulses `start` (3 per contact).
std::vector<int> pressed_before(const Eigen::VectorXd& start) {
  std::vector<int> pressed;
  for (Eigen::Index a = 0; 3 * a < start.size(); ++a)
    if (start[3 * a] > 0) pressed.push_back(static_cast<int>(a));  // NaN (unknown) is not pressed
  return pressed;
}

// start: the island's last impulses, 3 per contact (NaN where unknown), or empty.
VelocityStep island_step(const System& sys, const ContactData& data, const StepIsland& island, const Eigen::VectorXd& b,
                         const Eigen::VectorXd& start, const std::vector<double>& room_of) {
  Eigen::VectorXd room;
  if (!room_of.empty()) {
    room.resize(static_cast<Eigen::Index>(island.contacts.size()));
    for (size_t a = 0; a < island.contacts.size(); ++a) room[static_cast<Eigen::Index>(a)] = room_of[island.contacts[a]];
  }
  if (sys.model.nv >= kBlockwiseFrom && uses_circular_cone(island.space))
    if (VelocityStep s = solve_velocity_step_in_cone(island.space, b, kStepConeTolerance, start, room); s.ok) return s;
  const Eigen::MatrixXd no_joints(0, b.size());
  const std::vector<int> pressed = pressed_before(start);
  VelocityStep s = solve_velocity_step(island.space, no_joints, b, {}, start.size() > 0 ? &pressed : nullptr, room);
  if (s.ok || !sys.contact.circular_cone || sys.contacts.tangent_dim() < 2) return s;
  ContactSettings polygon = sys.contact;
  polygon.circular_cone = false;
  const ContactSpace space =
      island.cols.empty() ? contact_space(sys.contacts, polygon, data.body, data.jac, island.contacts)
                          : contact_space(sys.contacts, polygon, data.body, data.jac, island.contacts, island.blocks);
  VelocityStep p = solve_velocity_step(space, no_joints, b, {}, nullptr, room);
  return p.ok ? p : s;
}

// The island's last impulses from `start` (empty where none is known: Newton's own start).
Eigen::VectorXd island_start(const StepIsland& island, const StepStart* start) {
  if (!start || start->known.empty()) return {};  // none kept
  Eigen::VectorXd r = Eigen::VectorXd::Constant(3 * static_cast<Eigen::Index>(island.contacts.size()), NAN);
  bool any = false;
  for (size_t a = 0; a < island.contacts.size(); ++a)
    if (start->known[island.contacts[a]]) {
      r.segment<3>(3 * static_cast<Eigen::Index>(a)) = start->r[island.contacts[a]];
      any = true;
    }
  return any ? r : Eigen::VectorXd();
}

// The velocity step over every island for b; a failed island's answer fails the step. Impulses
// per active contact: c_n, and c_t with td per contact.
VelocityStep step_by_island(const System& sys, const ContactData& data, const std::vector<StepIsland>& islands,
                            int active, const Eigen::VectorXd& b, const StepStart* start,
                            const std::vector<double>& room_of) {
  if (islands.size() == 1 && islands[0].cols.empty())
    return island_step(sys, data, islands[0], b, island_start(islands[0], start), room_of);
  const int td = sys.contacts.tangent_dim();
  VelocityStep out;
  out.y = data.body.M_llt.solve(b);
  out.c_n = Eigen::VectorXd::Zero(active);
  out.c_t = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(active) * td);
  for (const StepIsland& island : islands) {
    const VelocityStep s =
        island_step(sys, data, island, Eigen::VectorXd(b(island.cols)), island_start(island, start), room_of);
    if (!s.ok) return s;
    out.y(island.cols) = s.y;
    for (size_t a = 0; a < island.positions.size(); ++a) {
      const Eigen::Index k = static_cast<Eigen::Index>(a);
      out.c_n[island.positions[a]] = s.c_n[k];
      out.c_t.segment(island.positions[a] * td, td) = s.c_t.segment(k * td, td);
    }
    out.lcp_variables += s.lcp_variables;
    out.residual = std::max(out.residual, s.residual);
  }
  return out;
}

// The step's impulses as the next step's start (3-D contacts only: the cone's three rows).
void remember_impulses(const System& sys, const PainleveStep& step, StepStart& start) {
  start.r.resize(sys.contacts.size());
  start.known.assign(sys.contacts.size(), 0);
  if (sys.contacts.tangent_dim() != 2 || step.impulse_t.size() != 2 * step.impulse_n.size()) return;
  for (size_t a = 0; a < step.active.size(); ++a) {
    const Eigen::Index k = static_cast<Eigen::Index>(a);
    start.r[step.active[a]] << step.impulse_n[k], step.impulse_t.segment<2>(2 * k);
    start.known[step.active[a]] = 1;
  }
}

// A split impulse (Bullet's pseudo-velocity, which moves positions only): the active
// contacts that the step would leave deeper than half the distance tolerance, to first order
// (phi0 + h J_n y), are pushed back to it by a velocity y_p = M^-1 J_p^T c_p that moves the
// configuration only: 0 <= c_p _|_ J_p y_p - d >= 0 with d = (-tol / 2 - phi0) / h - J_n y.
// Without it a contact already past the tolerance (a sphere on a box's face in a 50-body pile,
// phi0 = -1.02e-6 m) sank by the step's second order, 8e-9 m a step of 1e-4 s, so each step was
// halved twice and the contact still drifted to -1.66e-6 m in 0.08 s of steps. The velocity is
// the step's y: the push adds no kinetic energy (a velocity-level push of the same depth would
// leave the body rising at 5 mm/s, to bounce back as an impact). Zero where no contact needs it,
// or where its LCP has no solution (the gap check then judges the step as it is). A contact
// deeper than kPushDepth distance tolerances is not drift but a fault (a state without precision:
// an angle of 1e308 degrees, phi = -0.97 m): it is not pushed, and the gap check fails the step.
// A push can press a contact that had room beyond the distance tolerance (in a 100-body pile, a
// box's corner on the box below went from -4.75e-7 m to -1.07e-6 m, for steps of any size down to
// 1e-15 s, and the run stopped): such a contact joins the LCP with its own d (negative where it had
// room), and the push is solved again, at most kPushRounds times.
constexpr double kPushDepth = 10.0;
constexpr int kPushRounds = 8;

// The push of the contacts `set` (their d in `d`), or zero where its LCP has no solution.
Eigen::VectorXd push_of(const ContactData& data, const std::vector<int>& set, const std::vector<double>& d) {
  const Eigen::Index nv = data.body.M.rows();
  Eigen::MatrixXd J_p(static_cast<Eigen::Index>(set.size()), nv);
  for (size_t k = 0; k < set.size(); ++k) J_p.row(static_cast<Eigen::Index>(k)) = data.jac.of(set[k]).row(0);
  const Eigen::MatrixXd Minv_JT = data.body.M_llt.solve(Eigen::MatrixXd(J_p.transpose()));
  const Eigen::Map<const Eigen::VectorXd> depth(d.data(), static_cast<Eigen::Index>(d.size()));
  const LcpSolution c = solve_lemke(J_p * Minv_JT, -depth);
  return c.ok() ? Eigen::VectorXd(Minv_JT * c.z) : Eigen::VectorXd::Zero(nv);
}

Eigen::VectorXd position_push(const System& sys, const ContactData& data, const std::vector<int>& active,
                              const std::vector<double>& phi0, const Eigen::VectorXd& y, double h) {
  const double tol = sys.contact.distance_tolerance, target = -0.5 * tol;
  std::vector<int> set;
  std::vector<double> depth;
  const auto predicted = [&](int i, const Eigen::VectorXd& u) { return phi0[i] + h * data.jac.normal_velocity(i, u); };
  for (int i : active) {
    const double phi1 = predicted(i, y);
    if (gated(sys.contacts, i) || !(phi1 < target)) continue;
    if (!(phi0[i] >= -kPushDepth * tol)) return Eigen::VectorXd::Zero(y.size());
    set.push_back(i);
    depth.push_back((target - phi1) / h);
  }
  Eigen::VectorXd push = Eigen::VectorXd::Zero(y.size());
  for (int round = 0; round < kPushRounds && !set.empty(); ++round) {
    push = push_of(data, set, depth);
    const Eigen::VectorXd pushed = y + push;
    const size_t before = set.size();
    for (int i : active)
      if (!gated(sys.contacts, i) && std::find(set.begin(), set.end(), i) == set.end() && predicted(i, pushed) < -tol) {
        set.push_back(i);
        depth.push_back((target - predicted(i, y)) / h);
      }
    if (set.size() == before) break;
  }
  return push;
}

// The room each contact the step closes has (room_of[i], m/s: its gap at q over h): its row of
// the step's LCP is J_n y >= -phi0 / h, which brings it to phi = 0 at the step's end to first
// order, as Anitescu and Potra's scheme does with the contacts within its active epsilon. Empty
// where none closes (every row then J_n y >= 0).
std::vector<double> room_to_close(const System& sys, const std::vector<int>& closing, const std::vector<double>& phi0,
                                  double h) {
  std::vector<double> room_of;
  if (closing.empty()) return room_of;
  room_of.assign(sys.contacts.size(), 0.0);
  for (int i : closing) room_of[i] = std::max(phi0[i], 0.0) / h;
  return room_of;
}

// The contacts of `sunk` that are not in the step's active set (open at q, which the step would
// run past) join it, sorted, with their frames, phi0 and Jacobians at q, and join `closing`.
// False where every sunk contact is active already (only a smaller step can help then).
bool close_within_step(const System& sys, const Eigen::VectorXd& q, const std::vector<int>& sunk, ContactData& data,
                       std::vector<double>& phi0, std::vector<int>& active, std::vector<int>& closing) {
  std::vector<int> added;
  for (int i : sunk)
    if (!std::binary_search(active.begin(), active.end(), i)) added.push_back(i);
  if (added.empty()) return false;
  update_kinematics(sys.model, q, data.body.kin);  // sinking() left it at q1
  for (int i : added) {
    data.frames[i] = sys.contacts.frame(data.body.kin.R, data.body.kin.p, i);  // exact, not the broadphase's bound
    phi0[i] = data.frames[i].phi;
  }
  compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, added, data.jac);
  closing.insert(closing.end(), added.begin(), added.end());
  active.insert(active.end(), added.begin(), added.end());
  std::sort(active.begin(), active.end());
  return true;
}

}  // namespace

PainleveStep painleve_step(const System& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double h,
                           ContactData& data, StepStart* start) {
  PainleveStep out;
  compute_body_dynamics(sys.model, q, v, data.body);
  // Exact frames where the broadphase cannot rule a contact out, its bound on phi (above the
  // margin, so not touching) elsewhere: a 50-sphere pile's 1,475 pairs each step were a tenth of it.
  data.broadphase.update(sys.contacts, event_margin(sys.contact), data.body.kin.R, data.body.kin.p, data.frames);
  for (int i = 0; i < sys.contacts.size(); ++i)  // a gated contact's behind() reads its gate's tangent
    if (const int j = sys.contacts.contact(i).only_ahead_of; j >= 0)
      data.frames[j] = sys.contacts.frame(data.body.kin.R, data.body.kin.p, j);
  const std::vector<bool> touch = touching(sys, ContactModes::all_open(sys.contacts.size()), data, {});
  compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, touch, data.jac);
  std::vector<double> phi0(sys.contacts.size());
  for (int i = 0; i < sys.contacts.size(); ++i) {
    phi0[i] = data.frames[i].phi;
    if (touch[i]) out.active.push_back(i);
  }
  // The gap checks below move data.body.kin and data.frames only: M, C and J stay those at q.
  const Eigen::MatrixXd& M = data.body.M;
  const Eigen::VectorXd& C = data.body.C;
  std::vector<StepIsland> islands = step_islands(sys, data, out.active);
  std::vector<int> closing, sunk;  // open contacts the step closes; those a try sank
  for (int halving = 0; halving <= kHalvings; ++halving, h *= 0.5) {
    for (int round = 0;; ++round) {
      const VelocityStep s = step_by_island(sys, data, islands, static_cast<int>(out.active.size()), M * v - h * C,
                                            start, room_to_close(sys, closing, phi0, h));
      if (!s.ok) {
        out.ok = false;
        out.diagnostic = s.diagnostic;
        return out;
      }
      out.h = h;
      out.v1 = s.y;
      out.impulse_n = s.c_n;
      out.impulse_t = s.c_t;
      out.lcp_variables = s.lcp_variables;
      integrate_configuration(sys.model, q, s.y + position_push(sys, data, out.active, phi0, s.y, h), h, out.q1);
      normalize_configuration(sys.model, out.q1.data());
      const int deepest = sinking(sys, phi0, out.q1, data, sunk);
      if (deepest < 0) {
        if (start) remember_impulses(sys, out, *start);
        return out;
      }
      if (round == kCloseRounds || !close_within_step(sys, q, sunk, data, phi0, out.active, closing)) {
        if (halving == kHalvings)
          out.diagnostic = "even a step of " + format_time(h) + " s sinks contact '" +
                           sys.contacts.contact(deepest).name + "' to phi = " + format_time(data.frames[deepest].phi) +
                           " m";
        break;
      }
      islands = step_islands(sys, data, out.active);
    }
  }
  out.ok = false;
  return out;
}

Event painleve_step_event(double t, const PainleveStep& step, const Eigen::VectorXd& v, const ContactData& data) {
  return Event{.t = t, .kind = EventKind::step, .contacts = step.active, .law = "time-stepping",
               .kinetic_before = kinetic_energy(data.body, v), .kinetic_after = kinetic_energy(data.body, step.v1),
               .impulse_n = std::vector<double>(step.impulse_n.data(), step.impulse_n.data() + step.impulse_n.size()),
               .duration = step.h};
}

}  // namespace impactsim
