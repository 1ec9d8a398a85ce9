#include "core/force_system.hpp"

#include <algorithm>
#include <cstdint>

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

// An LDL^T's pivots D (positive) solve its system where none is below 1e-10 of the largest.
bool well_conditioned(const Eigen::Ref<const Eigen::VectorXd>& d) {
  return d.minCoeff() > 1e-10 * std::max(1.0, d.maxCoeff());
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
// reference forces (target - A reference over its rows), which is what a complete orthogonal
// decomposition gives any other island. Each island's rank threshold is relative to its own largest
// pivot, so a light body's forces are not judged against a heavy one's. A resting pile's islands
// cost the sum of their sizes cubed, not the cube of the sum. The references are formed only once
// an island needs them (not where every island is definite), and each island's shift over its own
// block of A.
void solve_by_island(const ContactModes& modes, int contacts, int tangent_dim, ModeForceScratch& w) {
  using Solver = ModeForceScratch::Solver;
  bool referenced = false;
  // target - A reference over the island's rows: A is zero between islands, so its own block is
  // all of it (the whole product would cost the square of every closed row of a pile).
  const auto shifted_target = [&](const std::vector<int>& rows) {
    if (!referenced) reference_forces(modes, contacts, tangent_dim, w);
    referenced = true;
    w.target_island = w.target(rows);
    w.target_island.noalias() -= w.A_island * w.reference(rows);
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
      shifted_target(rows);
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
      shifted_target(rows);
      w.island_cod[j].compute(w.A_island, kRankThreshold, true);
      w.island_cod[j].solve(w.target_island, w.lambda_island);
    }
    w.lambda(rows) = w.lambda_island + w.reference(rows);
  }
}


}  // namespace

void solve_force_system(const ContactModel& contacts, const BodyDynamics& body, const ContactJacobians& jac,
                        const ContactModes& modes, bool symmetric, int rows, ModeForceScratch& w) {
  const int m = contacts.size(), td = jac.rows_per_contact - 1;
  const bool blockwise = body.v.size() >= kBlockwiseFrom;
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
      w.cod.compute(w.A, kRankThreshold, blockwise);
      w.solver = ModeForceScratch::Solver::cod;
      w.cod.solve(w.target, w.lambda);
    }
    w.lambda += w.reference;
  }
}

void solve_unit(ModeForceScratch::Solver solver, const PivotedLdlt& pivoted,
                const Eigen::PartialPivLU<Eigen::MatrixXd>& lu,
                const LeastNormFactor& cod, const Eigen::VectorXd& unit,
                Eigen::VectorXd& x) {
  if (solver == ModeForceScratch::Solver::pivoted) pivoted.solve(unit, x);
  else if (solver == ModeForceScratch::Solver::lu) x = lu.solve(unit);
  else cod.solve(unit, x);
}

namespace {

// One factor's solve; a definite A's factor is the LDL^T (small models) or the pivoted one.
void solve_one(ModeForceScratch::Solver solver, bool blockwise, const Eigen::LDLT<Eigen::MatrixXd>& ldlt,
               const PivotedLdlt& pivoted, const Eigen::PartialPivLU<Eigen::MatrixXd>& lu,
               const LeastNormFactor& cod, const Eigen::VectorXd& rhs,
               Eigen::VectorXd& x) {
  using Solver = ModeForceScratch::Solver;
  if (solver == Solver::definite && !blockwise) x = ldlt.solve(rhs);
  else if (solver == Solver::definite) pivoted.solve(rhs, x);
  else solve_unit(solver, pivoted, lu, cod, rhs, x);
}

}  // namespace

void solve_factored(const ModeForceScratch& w, bool blockwise, const Eigen::VectorXd& rhs, Eigen::VectorXd& x) {
  if (w.solver != ModeForceScratch::Solver::islands) {
    solve_one(w.solver, blockwise, w.ldlt, w.pivoted, w.lu, w.cod, rhs, x);
    return;
  }
  x.setZero(rhs.size());
  Eigen::VectorXd part, island_x;
  for (size_t j = 0; j < w.island_rows.size(); ++j) {
    const std::vector<int>& rows = w.island_rows[j];
    part = rhs(rows);
    if (part.isZero(0.0)) continue;
    // Islands are always large-model factors: a definite one is the pivoted LDL^T.
    solve_one(w.island_solver[j], true, w.ldlt, w.island_pivoted[j], w.island_lu[j], w.island_cod[j], part, island_x);
    x(rows) = island_x;
  }
}

}  // namespace impactsim
