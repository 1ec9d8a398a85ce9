#include "core/contact_modes.hpp"

#include "numerics/coulomb_lcp.hpp"
#include "numerics/friction_cone.hpp"
#include "numerics/lcp_support.hpp"

namespace impactsim {
namespace {

// The acceleration-level LCP (Pfeiffer and Glocker; Trinkle et al.) over the candidates: normal
// forces complementary to normal accelerations; sticking candidates get polyhedral friction with
// the same encoding as the impact LCP (Halm and Posa eq. (32)-(33)); sliding ones carry -mu lambda_n
// along their slip; the candidates' modes are the trial's (trial_modes).
struct AccelerationLcp {
  std::vector<int> stick;   // the sticking candidates, in candidate order
  CoulombLayout layout;     // every candidate's normal row, a friction block per sticking one
  CoulombLcp lcp;           // z = [lambda_n (candidates); beta (sticking, k each); gamma (sticking)]
  Eigen::MatrixXd Minv_FT;  // M^-1 of the force directions [G_n; J_D]
  bool symmetric = false;   // every candidate frictionless: W = J_n M^-1 J_n^T, no friction block
  const Eigen::VectorXd* vfree = nullptr;  // M^-1 (-C), the same for every island: solved once per choice
};

// A frictionless contact always slides: it carries no tangential force and needs no friction block
// (a sticking one would add k + 1 LCP variables and stick-slip events with nothing to decide). Its
// slip direction is never set, so it never reverses. The candidates' entries of `modes` are set.
void set_trial_modes(const ContactModel& contacts, const ContactJacobians& jac, const Eigen::VectorXd& v,
                     const std::vector<int>& candidates, double velocity_tolerance, ContactModes& modes) {
  const int td = jac.rows_per_contact - 1;
  for (int i : candidates) {
    if (!(contacts.contact(i).mu > 0)) {
      modes.mode[i] = ContactMode::slide;
      continue;
    }
    const Eigen::VectorXd u_t = jac.rows_times(i, 1, td, v);
    if (u_t.norm() <= velocity_tolerance) {
      modes.mode[i] = ContactMode::stick;
    } else {
      modes.mode[i] = ContactMode::slide;
      modes.slip[i].head(td) = u_t.normalized();
    }
  }
}

AccelerationLcp build_acceleration_lcp(const ContactModel& contacts, const ContactSettings& settings,
                                       const BodyDynamics& body, const ContactJacobians& jac,
                                       const std::vector<int>& candidates, const ContactModes& trial,
                                       const Eigen::VectorXd& vfree) {
  AccelerationLcp p;
  const int td = jac.rows_per_contact - 1, nv = static_cast<int>(body.v.size());
  const int nc = static_cast<int>(candidates.size());
  CoulombLayout& layout = p.layout;
  layout.normals = nc;
  layout.D = friction_polygon(td, settings.friction_directions);
  std::vector<double> mu;
  for (int a = 0; a < nc; ++a) {
    const int i = candidates[a];
    if (trial.mode[i] != ContactMode::stick) continue;
    p.stick.push_back(i);
    layout.owner.push_back(a);
    mu.push_back(contacts.contact(i).mu);
  }
  layout.mu = Eigen::Map<const Eigen::VectorXd>(mu.data(), static_cast<Eigen::Index>(mu.size()));
  const int ns = layout.blocks(), k = layout.k(), nk = ns * k;
  Eigen::MatrixXd J_t = Eigen::MatrixXd::Zero(ns * td, nv);
  Eigen::VectorXd Jdot_t(ns * td);
  for (int s = 0; s < ns; ++s) {
    jac.copy_rows(p.stick[s], 1, td, J_t.middleRows(s * td, td));
    Jdot_t.segment(s * td, td) = jac.jdot_v_of(p.stick[s]).tail(td);
  }
  // rows = [J_n; J_D], forces = [G_n; J_D]: they differ only in the normal rows of frictional
  // slides, and without one (a frictionless pile) the rows serve as the forces too.
  Eigen::MatrixXd rows = Eigen::MatrixXd::Zero(nc + nk, nv), forces;
  rows.bottomRows(nk) = friction_rows(J_t, layout.D);
  Eigen::VectorXd Jdot_n(nc);
  bool same = true;
  for (int a = 0; a < nc; ++a) {
    const int i = candidates[a];
    jac.copy_rows(i, 0, 1, rows.middleRows(a, 1));
    Jdot_n[a] = jac.jdot_v_of(i)[0];
    same = same && !frictional_slide(contacts, trial, i);
  }
  if (!same) {
    forces = rows;
    for (int a = 0; a < nc; ++a) {
      const int i = candidates[a];
      if (frictional_slide(contacts, trial, i))
        forces.row(a) -= contacts.contact(i).mu * trial.slip[i].head(td).transpose() * jac.of(i).bottomRows(td);
    }
  }
  p.symmetric = same && ns == 0;  // a frictional candidate either slides (G_n != J_n) or sticks (a block)
  p.vfree = &vfree;
  Eigen::VectorXd w_bar(nc + nk);
  w_bar.head(nc) = rows.topRows(nc) * vfree + Jdot_n;
  for (int s = 0; s < ns; ++s)
    w_bar.segment(nc + s * k, k) =
        rows.middleRows(nc + s * k, k) * vfree + layout.D.transpose() * Jdot_t.segment(s * td, td);
  Eigen::MatrixXd W;
  block_delassus(body.M_llt, rows, same ? rows : forces, W, &p.Minv_FT);
  p.lcp = build_coulomb_lcp(W, w_bar, layout);
  return p;
}

// The modes an LCP solution stands for: a candidate that accelerates away (or whose load just
// reached zero at a lift-off guard) opens; a sticking one at the polygon's edge with a sliding
// acceleration (or whose friction guard just fired) slides. Written over the candidates' trial
// modes in `modes`, their entries only. vdot is formed only where a sticking candidate's sliding
// acceleration is asked for (M^-1 F^T z over every velocity, per island of a pile).
void classify_modes(const ContactJacobians& jac, const std::vector<int>& candidates, const ModePreference& preference,
                    const AccelerationLcp& p, const LcpSolution& sol, ContactModes& modes) {
  const int td = jac.rows_per_contact - 1, nc = static_cast<int>(candidates.size());
  const int k = p.layout.k(), nk = p.layout.blocks() * k;
  const double accel_tol = 1e-9 * (1.0 + p.lcp.w.cwiseAbs().maxCoeff());
  const double force_tol = 1e-9 * (1.0 + sol.z.head(nc).cwiseAbs().maxCoeff());
  Eigen::VectorXd vdot;
  const auto sliding_acceleration = [&](int i) {
    if (vdot.size() == 0) vdot = *p.vfree + p.Minv_FT * sol.z.head(nc + nk);
    return tangential_acceleration(jac, i, vdot);
  };
  size_t next_stick = 0;  // p.stick is in candidate order
  for (int a = 0; a < nc; ++a) {
    const int i = candidates[a];
    modes.reference_n[i] = sol.z[a];
    const bool sticks = next_stick < p.stick.size() && p.stick[next_stick] == i;
    const int s = static_cast<int>(next_stick);
    if (sticks) {
      ++next_stick;
      modes.reference_t[i].head(td) = p.layout.D * sol.z.segment(nc + s * k, k);
    }
    const bool unloaded = sol.z[a] <= force_tol;
    if (sol.slack[a] > accel_tol || (unloaded && !preference.open.empty() && preference.open[i])) {
      modes.mode[i] = ContactMode::open;  // accelerates away, or its load just reached zero: lift-off
      continue;
    }
    if (!sticks) continue;
    const Eigen::VectorXd friction = p.layout.D * sol.z.segment(nc + s * k, k);
    TangentVector a_t;
    if (sol.z[nc + nk + s] > accel_tol && (a_t = sliding_acceleration(i)).norm() > accel_tol) {
      // At the cone's edge with a sliding acceleration: slip starts along the tangential acceleration.
      modes.mode[i] = ContactMode::slide;
      modes.slip[i].head(td) = a_t.normalized();
    } else if (!preference.slide.empty() && preference.slide[i] && friction.norm() > force_tol) {
      // Friction just reached the cone's edge: slip starts against the friction force.
      modes.mode[i] = ContactMode::slide;
      modes.slip[i].head(td) = -friction.normalized();
    }
  }
}

// A large frictionless model's W = J_n M^-1 J_n^T is symmetric positive semi-definite: its LCP is
// first solved at the guessed support of every candidate whose lift-off guard did not fire (a
// pile's contacts mostly stay loaded from one event to the next), and by Lemke only where that
// guess is not made good (solve_at_support). Small models keep Lemke, whose answers their
// recorded outputs hold. lcp: Lemke's options (the caller's limits).
LcpSolution solve_acceleration_lcp(const BodyDynamics& body, const std::vector<int>& candidates,
                                   const ModePreference& preference, const std::vector<ContactMode>& before,
                                   const AccelerationLcp& p, const LcpOptions& lcp) {
  if (p.symmetric && body.v.size() >= kBlockwiseFrom) {
    std::vector<int> guess;
    for (size_t a = 0; a < candidates.size(); ++a)
      if (static_cast<size_t>(candidates[a]) < before.size() && before[candidates[a]] != ContactMode::open &&
          (preference.open.empty() || !preference.open[candidates[a]]))
        guess.push_back(static_cast<int>(a));
    return solve_psd_lcp(p.lcp.W, p.lcp.w, std::move(guess), lcp);
  }
  return solve_lemke(p.lcp.W, p.lcp.w, lcp);
}

// The modes of `candidates`, which come in holding their trial modes (set_trial_modes), from
// their acceleration LCP; false, with a diagnostic, where that LCP has no solution. The LCP reads
// the trial before classify_modes writes the result over it, and only the candidates' entries.
// vfree: M^-1 (-C), which every island reads.
bool solve_modes(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                 const ContactJacobians& jac, const std::vector<int>& candidates, const ModePreference& preference,
                 const std::vector<ContactMode>& before, const Eigen::VectorXd& vfree, ContactModes& modes,
                 std::string& diagnostic, const LcpOptions& lcp) {
  const AccelerationLcp p = build_acceleration_lcp(contacts, settings, body, jac, candidates, modes, vfree);
  const LcpSolution sol = solve_acceleration_lcp(body, candidates, preference, before, p, lcp);
  if (!sol.ok()) {
    diagnostic = "contact force LCP with " + std::to_string(p.lcp.w.size()) + " variables: " + describe(sol.status);
    return false;
  }
  classify_modes(jac, candidates, preference, p, sol, modes);
  return true;
}

}  // namespace

bool select_modes(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                  const ContactJacobians& jac, const std::vector<int>& candidates, const ModePreference& preference,
                  ContactModes& modes, std::string& diagnostic, const LcpOptions& lcp) {
  // The support guessed for a large frictionless model; reused storage (a pile of 200 bodies has
  // 98,650 contacts).
  thread_local std::vector<ContactMode> before;
  before = modes.mode;
  // Every contact opens unless chosen; slip directions of contacts that stay open are kept.
  modes.mode.assign(contacts.size(), ContactMode::open);
  modes.slip.resize(contacts.size(), Eigen::Vector2d::UnitX());
  modes.reference_n.assign(contacts.size(), 0.0);
  modes.reference_t.assign(contacts.size(), Eigen::Vector2d::Zero());
  modes.slip_blend = settings.velocity_tolerance;
  modes.hold_speed = settings.slow_slip_speed;
  if (candidates.empty()) return true;
  if (body.M_llt.info() != Eigen::Success) {
    diagnostic = "the mass matrix is not positive definite";
    return false;
  }
  set_trial_modes(contacts, jac, body.v, candidates, settings.velocity_tolerance, modes);
  const Eigen::VectorXd vfree = body.M_llt.solve(-body.C);
  // A large model's candidates in separate islands (contact_islands) take one LCP per island:
  // W has no entries between them, and Lemke's cost grows with the cube of the LCP's size. Islands
  // share no contact, so each reads and writes only its own candidates' entries of `modes`.
  ContactIslands islands;
  if (body.v.size() >= kBlockwiseFrom) islands = contact_islands(body, jac, candidates);
  if (islands.contacts.size() <= 1)
    return solve_modes(contacts, settings, body, jac, candidates, preference, before, vfree, modes, diagnostic, lcp);
  std::vector<int> island;
  for (const std::vector<int>& positions : islands.contacts) {
    island.clear();
    for (int a : positions) island.push_back(candidates[a]);
    if (!solve_modes(contacts, settings, body, jac, island, preference, before, vfree, modes, diagnostic, lcp))
      return false;
  }
  return true;
}

}  // namespace impactsim
