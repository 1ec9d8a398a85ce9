#include "core/contact_forces.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "numerics/coulomb_lcp.hpp"
#include "numerics/friction_cone.hpp"
#include "numerics/lcp.hpp"
#include "numerics/lcp_support.hpp"
#include "numerics/mass_factor.hpp"

namespace impactsim {
namespace {

// Singular values of a mode's force system (or pivots of its pivoted LDL^T) below this fraction of
// the largest count as zero: a nearly redundant contact set (a row of leaning dominoes) must not
// turn rounding and drift correction into forces of 1e6 N where the acceleration LCP found 0.07 N.
constexpr double kRankThreshold = 1e-7;
// A large model's non-symmetric A (frictional slides) is solved by LU where every pivot of U is
// above this fraction of the largest: far from the decomposition's rank threshold, where its
// least-norm answer is A^-1 target too. Below, the orthogonal decomposition decides the rank.
constexpr double kLuPivotFloor = 1e-5;

// A closed contact sliding with friction: its force row differs from its constrained row (G_n = J_n -
// mu s^T J_t), which makes the mode's force system non-symmetric.
bool frictional_slide(const ContactModel& contacts, const ContactModes& modes, int i) {
  return modes.mode[i] == ContactMode::slide && contacts.contact(i).mu > 0;
}

// Unit slip direction of a sliding contact: its tangential velocity, blended with the phase's
// direction s below `blend` m/s (ContactModes::slip_blend), while it still points the way the phase
// started (in 3-D the slip may turn), else s. Past the slip-to-stick guard (u_t . s = 0) the force
// must not flip, or the integrator's trial stages would see the other sliding direction, perhaps a
// Painleve one, and never reach the guard. With u_t . s > 0, |u_t + blend s| >= blend and the
// friction still opposes u_t (dissipates).
// Whether slip_direction follows u_t (blended) rather than the phase's s alone.
bool follows_slip(const TangentVector& u_t, const TangentVector& s) {
  return u_t.size() > 1 && u_t.norm() > 1e-12 && u_t.dot(s) > 0;
}

TangentVector slip_direction(const TangentVector& u_t, const Eigen::Vector2d& phase, double blend) {
  const TangentVector s = phase.head(u_t.size());
  if (follows_slip(u_t, s)) return (u_t + blend * s).normalized();
  return s;
}

// out += M^-1 G^T lambda: from kBlockwiseFrom velocities on, Minv_GT is valid only in the blocks
// w.touch.F names.
void add_force_acceleration(const BodyDynamics& body, const ModeForceScratch& w, const Eigen::VectorXd& lambda,
                            Eigen::VectorXd& out) {
  if (body.v.size() >= kBlockwiseFrom)
    add_block_columns_product(body.M_llt.blocks(), w.touch.F, w.Minv_GT, lambda, out);
  else
    out.noalias() += w.Minv_GT * lambda;
}

// J_c and G keep zeros outside the chain columns of the contact each row was copied from (owner),
// so one of the same shape is cleared over those spans alone, not whole at every evaluation (a
// pile's J_c has a few closed rows per body and every body's columns).
void clear_owned_rows(const ContactJacobians& jac, int rows, Eigen::MatrixXd& X, std::vector<int>& owner) {
  const int contacts = static_cast<int>(jac.columns.size());
  bool same = X.rows() == rows && X.cols() == jac.nv && static_cast<int>(owner.size()) == rows;
  for (int r = 0; same && r < rows; ++r) same = owner[r] < contacts;  // scratch of another model
  if (!same) {
    X.setZero(rows, jac.nv);
    owner.assign(rows, -1);
    return;
  }
  for (int r = 0; r < rows; ++r)
    if (owner[r] >= 0) jac.clear_columns(owner[r], X.middleRows(r, 1));
}

// For each of M's blocks, the rows (ascending) whose owner contact's chain columns reach into it:
// the rows a block can touch, read from the Jacobians' structure instead of scanning the rows.
void owned_block_rows(const std::vector<VelocityBlock>& blocks, const ContactJacobians& jac,
                      const std::vector<int>& owner, std::vector<std::vector<int>>& rows) {
  rows.resize(blocks.size());
  for (std::vector<int>& r : rows) r.clear();
  for (size_t r = 0; r < owner.size(); ++r)
    for (const auto& [c, n] : jac.columns[owner[r]]) {
      for (auto b = blocks.begin() + block_of_column(blocks, c); b != blocks.end() && b->start < c + n; ++b) {
        std::vector<int>& list = rows[b - blocks.begin()];
        if (list.empty() || list.back() != static_cast<int>(r)) list.push_back(static_cast<int>(r));
      }
    }
}

// G: one normal row per closed contact (G_n = J_n - mu s^T J_t when sliding), then the tangent rows
// of the sticking ones, written like J_c over each contact's chain columns only (whole dense rows
// were a fifteenth of a 20-sphere frictional pile's run).
void force_rows(const ContactModel& contacts, const ContactJacobians& jac, const Eigen::VectorXd& v,
                const ContactModes& modes, ModeForceScratch& w) {
  const int td = jac.rows_per_contact - 1;
  int rows = static_cast<int>(w.closed.size());
  for (int i : w.closed) rows += modes.mode[i] == ContactMode::stick ? td : 0;
  clear_owned_rows(jac, rows, w.G, w.G_owner);
  int row = static_cast<int>(w.closed.size());
  for (size_t a = 0; a < w.closed.size(); ++a) {
    const int i = w.closed[a];
    jac.copy_rows(i, 0, 1, w.G.middleRows(a, 1));
    w.G_owner[a] = i;
    if (modes.mode[i] == ContactMode::slide) {
      const double mu = contacts.contact(i).mu;
      if (!(mu > 0)) continue;  // frictionless: nothing along the slip (its product is most of a pile's rows)
      const TangentVector s = slip_direction(jac.rows_times(i, 1, td, v), modes.slip[i], modes.slip_blend);
      const auto Ji = jac.of(i);
      for (const auto& [c, n] : jac.columns[i])
        w.G.row(a).segment(c, n) -= mu * s.transpose() * Ji.block(1, c, td, n);
    } else {
      jac.copy_rows(i, 1, td, w.G.middleRows(row, td));
      std::fill_n(w.G_owner.begin() + row, td, i);
      row += td;
    }
  }
}

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
  Eigen::VectorXd vfree;    // M^-1 (-C)
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
                                       const std::vector<int>& candidates, const ContactModes& trial) {
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
  p.vfree = body.M_llt.solve(-body.C);
  Eigen::VectorXd w_bar(nc + nk);
  w_bar.head(nc) = rows.topRows(nc) * p.vfree + Jdot_n;
  for (int s = 0; s < ns; ++s)
    w_bar.segment(nc + s * k, k) =
        rows.middleRows(nc + s * k, k) * p.vfree + layout.D.transpose() * Jdot_t.segment(s * td, td);
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
    if (vdot.size() == 0) vdot = p.vfree + p.Minv_FT * sol.z.head(nc + nk);
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

// An LDL^T's pivots D (positive) solve its system where none is below 1e-10 of the largest.
bool well_conditioned(const Eigen::Ref<const Eigen::VectorXd>& d) {
  return d.minCoeff() > 1e-10 * std::max(1.0, d.maxCoeff());
}

// A large frictionless model's W = J_n M^-1 J_n^T is symmetric positive semi-definite: its LCP is
// first solved at the guessed support of every candidate whose lift-off guard did not fire (a
// pile's contacts mostly stay loaded from one event to the next), and by Lemke only where that
// guess is not made good (solve_at_support). Small models keep Lemke, whose answers their
// recorded outputs hold.
LcpSolution solve_acceleration_lcp(const BodyDynamics& body, const std::vector<int>& candidates,
                                   const ModePreference& preference, const std::vector<ContactMode>& before,
                                   const AccelerationLcp& p) {
  if (p.symmetric && body.v.size() >= kBlockwiseFrom) {
    std::vector<int> guess;
    for (size_t a = 0; a < candidates.size(); ++a)
      if (static_cast<size_t>(candidates[a]) < before.size() && before[candidates[a]] != ContactMode::open &&
          (preference.open.empty() || !preference.open[candidates[a]]))
        guess.push_back(static_cast<int>(a));
    LcpSolution sol;
    if (solve_at_support(p.lcp.W, p.lcp.w, std::move(guess), sol)) return sol;
  }
  return solve_lemke(p.lcp.W, p.lcp.w);
}

// A's islands (contact_islands over the closed contacts) as rows of A, into w.island_rows and
// w.row_island: a closed contact's normal row is its position in w.closed, its tangent rows (if it
// sticks) follow the normal rows in the same order. False where there is one island.
bool split_rows_by_island(const BodyDynamics& body, const ContactJacobians& jac, const ContactModes& modes,
                          int tangent_dim, ModeForceScratch& w) {
  contact_islands(body, jac, w.closed, w.islands);
  const ContactIslands& islands = w.islands;
  if (islands.contacts.size() <= 1) return false;
  const int nc = static_cast<int>(w.closed.size());
  w.row_island.resize(w.A.rows());
  for (size_t j = 0; j < islands.contacts.size(); ++j)
    for (int k : islands.contacts[j]) w.row_island[k] = static_cast<int>(j);
  int row = nc;
  for (int k = 0; k < nc; ++k)
    if (modes.mode[w.closed[k]] == ContactMode::stick)
      for (int d = 0; d < tangent_dim; ++d) w.row_island[row++] = w.row_island[k];
  w.island_rows.resize(islands.contacts.size());
  for (std::vector<int>& rows : w.island_rows) rows.clear();
  for (int r = 0; r < static_cast<int>(w.row_island.size()); ++r) w.island_rows[w.row_island[r]].push_back(r);
  return true;
}

// w.reference: the forces the modes' acceleration LCP chose, in A's row order (zero where modes
// built by hand lack them).
void reference_forces(const ContactModes& modes, int contacts, int tangent_dim, ModeForceScratch& w) {
  const int nc = static_cast<int>(w.closed.size());
  const bool known = static_cast<int>(modes.reference_n.size()) == contacts;
  w.reference.resize(w.A.rows());
  int row = nc;
  for (int k = 0; k < nc; ++k) {
    const int i = w.closed[k];
    w.reference[k] = known ? modes.reference_n[i] : 0.0;
    if (modes.mode[i] == ContactMode::stick) {
      if (known) w.reference.segment(row, tangent_dim) = modes.reference_t[i].head(tangent_dim);
      else w.reference.segment(row, tangent_dim).setZero();
      row += tangent_dim;
    }
  }
}

// A hash of a force system's structure: the contact each of its rows comes from, in order. A
// closed contact's modes are in it (a sticking contact owns tangent rows too, a slide one row), and
// with the contacts those fix which rows A couples.
std::uint64_t row_structure(const std::vector<int>& owner, const std::vector<int>* rows, int count) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a over the owners
  for (int r = 0; r < count; ++r) {
    h ^= static_cast<std::uint64_t>(owner[rows ? (*rows)[r] : r]) + 1;
    h *= 1099511628211ull;
  }
  return h;
}

// lambda = A^-1 target by LU where its pivots are well spread (kLuPivotFloor); false otherwise. A
// sliding pile's force system is mostly of full rank, and LU costs a fraction of the orthogonal
// decomposition. The pivots, not LU's condition estimate: that estimate costs as much as the
// factorization. A structure whose LU failed is not factored again (w.singular_structures): its
// failure would add to the decomposition that follows.
bool solved_by_lu(const Eigen::MatrixXd& A, const Eigen::VectorXd& target, std::uint64_t structure,
                  Eigen::PartialPivLU<Eigen::MatrixXd>& lu, Eigen::VectorXd& lambda, ModeForceScratch& w) {
  if (A.rows() == 0) return false;
  std::vector<std::uint64_t>& singular = w.singular_structures;
  if (std::find(singular.begin(), singular.end(), structure) != singular.end()) return false;
  lu.compute(A);
  ++w.lu_factorizations;
  const auto pivots = lu.matrixLU().diagonal().cwiseAbs();
  if (pivots.minCoeff() > kLuPivotFloor * pivots.maxCoeff()) {
    lambda = lu.solve(target);
    if (lambda.allFinite()) return true;
  }
  if (singular.size() == ModeForceScratch::kSingularStructures) singular.erase(singular.begin());
  singular.push_back(structure);
  return false;
}

// A's forces as a whole: true where A is symmetric and an LDL^T finds it well conditioned at full
// rank (from kBlockwiseFrom velocities on the pivoted one, whose factor then serves the singular
// case too). Otherwise false, with w.solver naming the least-norm solve that follows: pivoted
// (w.pivoted holds A's factor) or cod.
bool solve_whole(bool symmetric, bool blockwise, int rows, ModeForceScratch& w) {
  using Solver = ModeForceScratch::Solver;
  w.solver = Solver::definite;
  if (symmetric && blockwise && w.pivoted.compute(w.A, kRankThreshold)) {
    if (w.pivoted.rank() == rows && well_conditioned(w.pivoted.pivots())) {
      w.pivoted.solve(w.target, w.lambda);
      return true;
    }
    w.solver = Solver::pivoted;
    return false;
  }
  if (symmetric) {
    w.ldlt.compute(w.A);
    if (w.ldlt.info() == Eigen::Success && well_conditioned(w.ldlt.vectorD())) {
      w.lambda = w.ldlt.solve(w.target);
      return true;
    }
  } else if (blockwise && solved_by_lu(w.A, w.target, row_structure(w.Jc_owner, nullptr, rows), w.lu, w.lambda, w)) {
    w.solver = Solver::lu;
    return true;
  }
  w.solver = Solver::cod;
  return false;
}

// lambda island by island: A has no entries between islands, so each island's forces are those of
// its own rows. An island without a frictional slide has a symmetric A: the pivoted LDL^T solves it,
// exactly where it is well conditioned at full rank and otherwise as the least-norm change from the
// reference forces (w.shifted = target - A reference), which is what a complete orthogonal
// decomposition gives any other island. Each island's rank threshold is relative to its own largest
// pivot, so a light body's forces are not judged against a heavy one's. A resting pile's islands
// cost the sum of their sizes cubed, not the cube of the sum. The references and w.shifted are
// formed only once an island needs them (not where every island is definite), over the whole A so
// that each island's rows round as a whole-system shift would.
void solve_by_island(const ContactModes& modes, int contacts, int tangent_dim, ModeForceScratch& w) {
  using Solver = ModeForceScratch::Solver;
  bool shifted = false;
  const auto shift = [&] {
    if (shifted) return;
    reference_forces(modes, contacts, tangent_dim, w);
    w.shifted = w.target;
    w.shifted.noalias() -= w.A * w.reference;
    shifted = true;
  };
  const size_t n = w.island_rows.size();
  w.island_cod.resize(n);
  w.island_lu.resize(n);
  w.island_pivoted.resize(n);
  w.island_solver.resize(n);
  w.lambda.resize(w.A.rows());
  for (size_t j = 0; j < n; ++j) {
    const std::vector<int>& rows = w.island_rows[j];
    w.A_island = w.A(rows, rows);
    PivotedLdlt& pivoted = w.island_pivoted[j];
    if (w.island_symmetric[j] && pivoted.compute(w.A_island, kRankThreshold)) {
      if (pivoted.rank() == static_cast<int>(rows.size()) && well_conditioned(pivoted.pivots())) {
        w.island_solver[j] = Solver::definite;
        w.target_island = w.target(rows);
        pivoted.solve(w.target_island, w.lambda_island);
        w.lambda(rows) = w.lambda_island;
        continue;
      }
      w.island_solver[j] = Solver::pivoted;
      shift();
      w.target_island = w.shifted(rows);
      pivoted.solve(w.target_island, w.lambda_island);
    } else {
      if (!w.island_symmetric[j]) {
        w.target_island = w.target(rows);
        const std::uint64_t structure = row_structure(w.Jc_owner, &rows, static_cast<int>(rows.size()));
        if (solved_by_lu(w.A_island, w.target_island, structure, w.island_lu[j], w.lambda_island, w)) {
          w.island_solver[j] = Solver::lu;
          w.lambda(rows) = w.lambda_island;
          continue;
        }
      }
      w.island_solver[j] = Solver::cod;
      shift();
      w.target_island = w.shifted(rows);
      w.island_cod[j].setThreshold(kRankThreshold);
      w.island_cod[j].compute(w.A_island);
      w.lambda_island = w.island_cod[j].solve(w.target_island);
    }
    w.lambda(rows) = w.lambda_island + w.reference(rows);
  }
}


// The modes of `candidates`, which come in holding their trial modes (set_trial_modes), from
// their acceleration LCP; false, with a diagnostic, where that LCP has no solution. The LCP reads
// the trial before classify_modes writes the result over it, and only the candidates' entries.
bool solve_modes(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                 const ContactJacobians& jac, const std::vector<int>& candidates, const ModePreference& preference,
                 const std::vector<ContactMode>& before, ContactModes& modes, std::string& diagnostic) {
  const AccelerationLcp p = build_acceleration_lcp(contacts, settings, body, jac, candidates, modes);
  const LcpSolution sol = solve_acceleration_lcp(body, candidates, preference, before, p);
  if (!sol.ok()) {
    diagnostic = "contact force LCP with " + std::to_string(p.lcp.w.size()) + " variables: " + describe(sol.status);
    return false;
  }
  classify_modes(jac, candidates, preference, p, sol, modes);
  return true;
}

}  // namespace

TangentVector tangential_acceleration(const ContactJacobians& jac, int i, const Eigen::VectorXd& vdot) {
  const int td = jac.rows_per_contact - 1;
  return jac.rows_times(i, 1, td, vdot) + jac.jdot_v_of(i).tail(td);
}

int ContactModes::closed() const {
  int n = 0;
  for (ContactMode m : mode) n += m != ContactMode::open;
  return n;
}

void closed_flags(const ContactModes& modes, std::vector<bool>& out) {
  out.resize(modes.mode.size());
  for (size_t i = 0; i < modes.mode.size(); ++i) out[i] = modes.mode[i] != ContactMode::open;
}

void closed_list(const ContactModes& modes, std::vector<int>& out) {
  out.clear();
  for (size_t i = 0; i < modes.mode.size(); ++i)
    if (modes.is_closed(static_cast<int>(i))) out.push_back(static_cast<int>(i));
}

ContactModes ContactModes::all_open(int contacts) {
  ContactModes m;
  m.mode.assign(contacts, ContactMode::open);
  m.slip.assign(contacts, Eigen::Vector2d::UnitX());
  m.reference_n.assign(contacts, 0.0);
  m.reference_t.assign(contacts, Eigen::Vector2d::Zero());
  return m;
}

bool constrained_acceleration(const ContactModel& contacts, double baumgarte, const BodyDynamics& body,
                              const std::vector<ContactFrame>& frames, const ContactJacobians& jac,
                              const ContactModes& modes, ModeForces& out, const std::vector<int>* closed) {
  if (body.M_llt.info() != Eigen::Success) return false;
  ModeForceScratch& w = out.scratch;
  const int m = contacts.size(), td = jac.rows_per_contact - 1, nv = static_cast<int>(body.v.size());
  if (out.lambda_n.size() == m && out.lambda_t.rows() == m && out.lambda_t.cols() == td) {
    for (int i : w.closed) {  // the last call's closed contacts: the only entries it wrote
      out.lambda_n[i] = 0.0;
      out.lambda_t.row(i).setZero();
    }
  } else {
    out.lambda_n.setZero(m);
    out.lambda_t.setZero(m, td);
  }
  out.vdot = -body.C;
  body.M_llt.solveInPlace(out.vdot);
  if (closed) w.closed = *closed;
  else closed_list(modes, w.closed);
  if (w.closed.empty()) return true;

  // G differs from Jc only in the normal rows of frictional slides: without one, A is symmetric
  // and G is never formed (copying and comparing dense rows costs a pile dearly).
  bool symmetric = true;
  int rows = static_cast<int>(w.closed.size());
  for (int i : w.closed) {
    if (modes.mode[i] == ContactMode::stick) rows += td;
    else if (frictional_slide(contacts, modes, i)) symmetric = false;
  }
  if (!symmetric) force_rows(contacts, jac, body.v, modes, w);
  clear_owned_rows(jac, rows, w.Jc, w.Jc_owner);
  w.target.resize(rows);
  const double a = baumgarte;
  int row = static_cast<int>(w.closed.size());
  for (size_t k = 0; k < w.closed.size(); ++k) {
    const int i = w.closed[k];
    const ContactRows u = jac.rows_times(i, 0, jac.rows_per_contact, body.v);
    jac.copy_rows(i, 0, 1, w.Jc.middleRows(k, 1));
    w.Jc_owner[k] = i;
    w.target[k] = -jac.jdot_v_of(i)[0] - 2 * a * u[0] - a * a * frames[i].phi;
    if (modes.mode[i] == ContactMode::stick) {
      jac.copy_rows(i, 1, td, w.Jc.middleRows(row, td));
      std::fill_n(w.Jc_owner.begin() + row, td, i);
      w.target.segment(row, td) = -jac.jdot_v_of(i).tail(td) - 2 * a * u.tail(td);
      row += td;
    }
  }
  // A large model's products over its contact rows read only the blocks each row touches.
  const bool blockwise = nv >= kBlockwiseFrom;
  if (blockwise) {
    owned_block_rows(body.M_llt.blocks(), jac, w.Jc_owner, w.touch.next_R);
    if (symmetric) w.touch.next_F = w.touch.next_R;  // F is Jc: the same rows
    else owned_block_rows(body.M_llt.blocks(), jac, w.G_owner, w.touch.next_F);
    w.touch.given = true;
  }
  block_delassus(body.M_llt, w.Jc, symmetric ? w.Jc : w.G, w.A, &w.Minv_GT, &w.touch);
  if (blockwise) subtract_block_rows_product(body.M_llt.blocks(), w.touch.R, w.Jc, out.vdot, w.target);
  else w.target.noalias() -= w.Jc * out.vdot;
  // With every closed contact sticking A is symmetric positive semi-definite; an LDL^T serves
  // while it is well conditioned. Redundant contacts (a block on four corners) make A singular:
  // then take the least-norm forces. A large model factors A once, by the pivoted LDL^T, which
  // serves both cases: a pile's A is singular more often than not, and Eigen's LDL^T (pivots from
  // A's diagonal, not the Schur complement's) found that out only after a whole factorization.
  // A large model's A over separate islands (boxes resting apart in a pile) is solved island by
  // island.
  if (blockwise && split_rows_by_island(body, jac, modes, td, w)) {
    w.solver = ModeForceScratch::Solver::islands;
    w.island_symmetric.assign(w.island_rows.size(), true);
    for (size_t k = 0; k < w.closed.size(); ++k)
      if (frictional_slide(contacts, modes, w.closed[k])) w.island_symmetric[w.row_island[k]] = false;
    solve_by_island(modes, m, td, w);
  } else if (!solve_whole(symmetric, blockwise, rows, w)) {
    // The solution nearest the reference forces: lambda = ref + A^+ (target - A ref).
    reference_forces(modes, m, td, w);
    w.target.noalias() -= w.A * w.reference;
    // A large model's symmetric A (a pile's resting contacts) by the pivoted LDL^T: a fraction of
    // the orthogonal decomposition's cost for the same least-norm answer. Small models keep the
    // decomposition their recorded outputs were computed with.
    if (w.solver == ModeForceScratch::Solver::pivoted) {
      w.pivoted.solve(w.target, w.lambda);
    } else {
      w.cod.setThreshold(kRankThreshold);
      w.cod.compute(w.A);
      w.solver = ModeForceScratch::Solver::cod;
      w.lambda = w.cod.solve(w.target);
    }
    w.lambda += w.reference;
  }
  add_force_acceleration(body, w, w.lambda, out.vdot);
  row = static_cast<int>(w.closed.size());
  for (size_t k = 0; k < w.closed.size(); ++k) {
    const int i = w.closed[k];
    out.lambda_n[i] = w.lambda[k];
    if (modes.mode[i] == ContactMode::stick) {
      out.lambda_t.row(i) = w.lambda.segment(row, td).transpose();
      row += td;
    } else if (contacts.contact(i).mu > 0) {  // frictionless slides keep lambda_t = 0
      const TangentVector s = slip_direction(jac.rows_times(i, 1, td, body.v), modes.slip[i], modes.slip_blend);
      out.lambda_t.row(i) = -contacts.contact(i).mu * w.lambda[k] * s.transpose();
    }
  }
  return true;
}

namespace {

// x = A^-1 unit (A^+ unit where A is singular) by the factor the forces were solved with.
void solve_unit(ModeForceScratch::Solver solver, const PivotedLdlt& pivoted,
                const Eigen::PartialPivLU<Eigen::MatrixXd>& lu,
                const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod, const Eigen::VectorXd& unit,
                Eigen::VectorXd& x) {
  if (solver == ModeForceScratch::Solver::pivoted) pivoted.solve(unit, x);
  else if (solver == ModeForceScratch::Solver::lu) x = lu.solve(unit);
  else x = cod.solve(unit);
}

// d lambda over some rows of A (all, or one island's) whose factor is `solver`'s, for a change of
// A's column k by wv d theta, lambda_k the force of that column: -lambda_k A^-1 wv. Where A is
// singular the forces are ref + A^+ b (b = target - A ref, x = A^+ b), and Golub and Pereyra's
// derivative of the pseudo-inverse at constant rank adds the turn of the null-space part,
// (z . x)(e_k - A^+ A e_k) with z = A^+ wv. Its third term, A^+ A^+T e_k (wv . (b - A x)), is
// zero: wv = J_c M^-1 dG^T lies in the range of J_c, which is A's wherever G keeps J_c's rank, and
// the least-squares misfit b - A x is orthogonal to A's range (tested with a misfit). False for a
// factor that cannot be a frictional slide's (A symmetric).
bool turn_of_forces(ModeForceScratch::Solver solver, const Eigen::PartialPivLU<Eigen::MatrixXd>& lu,
                    const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod, const Eigen::MatrixXd& A,
                    Eigen::Index k, double lambda_k, const Eigen::VectorXd& wv, const Eigen::VectorXd& x,
                    Eigen::VectorXd& dlambda) {
  if (solver == ModeForceScratch::Solver::lu) {
    dlambda = -lambda_k * lu.solve(wv);
    return true;
  }
  if (solver != ModeForceScratch::Solver::cod) return false;
  const Eigen::VectorXd z = cod.solve(wv);
  dlambda = -lambda_k * z;
  if (cod.rank() < A.rows()) {
    Eigen::VectorXd null_part = -cod.solve(A.col(k));
    null_part[k] += 1.0;
    dlambda += z.dot(x) * null_part;
  }
  return true;
}

}  // namespace

bool slip_turn_acceleration(const ContactModel& contacts, const BodyDynamics& body, const ContactJacobians& jac,
                            const ContactModes& modes, int i, const ModeForces& forces, Eigen::VectorXd& dvdot) {
  using Solver = ModeForceScratch::Solver;
  const ModeForceScratch& w = forces.scratch;
  const int td = jac.rows_per_contact - 1;
  if (td != 2 || !frictional_slide(contacts, modes, i)) return false;
  const auto k = std::find(w.closed.begin(), w.closed.end(), i) - w.closed.begin();
  if (k == static_cast<Eigen::Index>(w.closed.size())) return false;
  // d d / d theta, as slip_direction turns with s.
  const TangentVector u_t = jac.rows_times(i, 1, td, body.v);
  const Eigen::Vector2d s = modes.slip[i], s_turn(-s[1], s[0]);
  Eigen::Vector2d d_turn = s_turn;
  if (follows_slip(u_t, s)) {
    const Eigen::Vector2d e = u_t + modes.slip_blend * s;
    const Eigen::Vector2d d = e.normalized();
    d_turn = (Eigen::Matrix2d::Identity() - d * d.transpose()) * (modes.slip_blend * s_turn) / e.norm();
  }
  // M^-1 dG_i^T with dG_i = -mu d_turn^T J_t,i, and wv = J_c M^-1 dG_i^T, A's column k's change.
  Eigen::VectorXd Minv_dG = -contacts.contact(i).mu * (jac.of(i).middleRows(1, td).transpose() * d_turn);
  body.M_llt.solveInPlace(Minv_dG);
  const Eigen::Index rows = w.A.rows();
  const Eigen::VectorXd wv = w.Jc.topRows(rows) * Minv_dG;
  Eigen::VectorXd dlambda = Eigen::VectorXd::Zero(rows), part;
  if (w.solver == Solver::islands) {  // wv is zero outside i's island
    const int j = w.row_island[k];
    const std::vector<int>& island = w.island_rows[j];
    const auto local = std::lower_bound(island.begin(), island.end(), static_cast<int>(k)) - island.begin();
    Eigen::VectorXd x;  // a least-norm solve's forces less the references (solve_by_island)
    if (w.island_solver[j] == Solver::cod) x = w.lambda(island) - w.reference(island);
    if (!turn_of_forces(w.island_solver[j], w.island_lu[j], w.island_cod[j], w.A(island, island), local, w.lambda[k],
                        wv(island), x, part))
      return false;
    dlambda(island) = part;
  } else {
    Eigen::VectorXd x;
    if (w.solver == Solver::cod) x = w.lambda - w.reference;
    if (!turn_of_forces(w.solver, w.lu, w.cod, w.A, k, w.lambda[k], wv, x, dlambda)) return false;
  }
  dvdot = w.lambda[k] * Minv_dG;
  add_force_acceleration(body, w, dlambda, dvdot);
  return dvdot.allFinite();
}

double painleve_margin(const ModeForces& forces, int i, Eigen::VectorXd& x) {
  const ModeForceScratch& w = forces.scratch;
  if (w.solver == ModeForceScratch::Solver::definite) return std::numeric_limits<double>::infinity();
  const auto k = std::find(w.closed.begin(), w.closed.end(), i) - w.closed.begin();
  if (k == static_cast<Eigen::Index>(w.closed.size())) return std::numeric_limits<double>::infinity();
  if (w.solver == ModeForceScratch::Solver::islands) {  // within k's island alone
    const int j = w.row_island[k];
    if (w.island_solver[j] == ModeForceScratch::Solver::definite) return std::numeric_limits<double>::infinity();
    const std::vector<int>& rows = w.island_rows[j];
    const auto local = std::lower_bound(rows.begin(), rows.end(), static_cast<int>(k)) - rows.begin();
    const Eigen::VectorXd unit = Eigen::VectorXd::Unit(static_cast<Eigen::Index>(rows.size()), local);
    solve_unit(w.island_solver[j], w.island_pivoted[j], w.island_lu[j], w.island_cod[j], unit, x);
    return x[local] == 0 ? std::numeric_limits<double>::infinity() : 1.0 / x[local];
  }
  solve_unit(w.solver, w.pivoted, w.lu, w.cod, Eigen::VectorXd::Unit(w.A.rows(), k), x);
  return x[k] == 0 ? std::numeric_limits<double>::infinity() : 1.0 / x[k];
}

bool select_modes(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                  const ContactJacobians& jac, const std::vector<int>& candidates, const ModePreference& preference,
                  ContactModes& modes, std::string& diagnostic) {
  const std::vector<ContactMode> before = modes.mode;  // the support guessed for a large frictionless model
  // Every contact opens unless chosen; slip directions of contacts that stay open are kept.
  modes.mode.assign(contacts.size(), ContactMode::open);
  modes.slip.resize(contacts.size(), Eigen::Vector2d::UnitX());
  modes.reference_n.assign(contacts.size(), 0.0);
  modes.reference_t.assign(contacts.size(), Eigen::Vector2d::Zero());
  modes.slip_blend = settings.velocity_tolerance;
  if (candidates.empty()) return true;
  if (body.M_llt.info() != Eigen::Success) {
    diagnostic = "the mass matrix is not positive definite";
    return false;
  }
  set_trial_modes(contacts, jac, body.v, candidates, settings.velocity_tolerance, modes);
  // A large model's candidates in separate islands (contact_islands) take one LCP per island:
  // W has no entries between them, and Lemke's cost grows with the cube of the LCP's size. Islands
  // share no contact, so each reads and writes only its own candidates' entries of `modes`.
  ContactIslands islands;
  if (body.v.size() >= kBlockwiseFrom) islands = contact_islands(body, jac, candidates);
  if (islands.contacts.size() <= 1)
    return solve_modes(contacts, settings, body, jac, candidates, preference, before, modes, diagnostic);
  std::vector<int> island;
  for (const std::vector<int>& positions : islands.contacts) {
    island.clear();
    for (int a : positions) island.push_back(candidates[a]);
    if (!solve_modes(contacts, settings, body, jac, island, preference, before, modes, diagnostic)) return false;
  }
  return true;
}

}  // namespace impactsim
