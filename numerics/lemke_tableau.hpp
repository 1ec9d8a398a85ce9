#pragma once
// Lemke's tableau for numerics/lcp.cpp (solve_lemke and LemkePaths): an implementation detail of
// the LCP solver, in a header of its own so that the solver's file holds the method.
#include <vector>

#include <Eigen/Core>

namespace impactsim::lemke {

// Lemke's tableau without its right-hand side: the columns [w (n) | z (n) | z0] of the system
// w - W z - 1 z0 = w_vec after the pivots so far, one row per basic variable. Variable k < n is w_k,
// n <= k < 2n is z_{k-n}, 2n is z0. These columns depend only on W and on the pivots taken, not on
// w_vec, which is what lets LemkePaths keep them; the right-hand side is pivoted by pivot_rhs.
//
// A basic variable's column is a unit vector, exactly: the pivot that made it basic wrote 1 and 0s
// (p / p and x - x * 1), and later pivots leave it so (its entry in the pivot row is 0). So a pivot
// updates only the n + 1 nonbasic columns, the leaving variable's among them, column by column:
// half the work of updating every column, and each entry goes through the same operations as in a
// row-by-row update of all of them (only the signs of some zeros may differ, which no comparison
// or result sees).
struct Tableau {
  Eigen::MatrixXd T;  // column-major: the pivot updates whole columns
  std::vector<int> basis;
  std::vector<int> nonbasic;  // the n + 1 columns that are not unit vectors, in no particular order

  void reset(const Eigen::MatrixXd& W) {
    const int n = static_cast<int>(W.rows());
    T.resize(n, 2 * n + 1);
    T.leftCols(n).setIdentity();
    T.middleCols(n, n) = -W;
    T.col(2 * n).setConstant(-1.0);
    basis.resize(n);
    for (int i = 0; i < n; ++i) basis[i] = i;
    nonbasic.resize(n + 1);
    for (int j = 0; j <= n; ++j) nonbasic[j] = n + j;
  }

  int n() const { return static_cast<int>(T.rows()); }
  int z0() const { return 2 * n(); }
  int complement(int var) const { return var < n() ? var + n() : var - n(); }

  // The rows that may leave when `enter` enters, with the pivots a_i = T(i, enter) of every row:
  // those above the pivot floor, or every row with a_i = 1 for the first pivot (z0's column is all
  // -1). They depend on the tableau alone, so LemkePaths keeps them with it.
  struct Candidates {
    int enter = -1;
    double pivot_tol = 0;
    std::vector<int> rows;
    std::vector<double> a;
  };
  void find_candidates(int enter, bool first, double pivot_tol, Candidates& c) const {
    const int n = this->n();
    double floor = 0;
    if (!first)
      for (int i = 0; i < n; ++i) floor = std::max(floor, std::abs(T(i, enter)));
    floor = pivot_tol * std::max(1.0, floor);
    c.enter = enter;
    c.pivot_tol = pivot_tol;
    c.rows.clear();
    c.a.resize(n);
    for (int i = 0; i < n; ++i) {
      c.a[i] = first ? 1.0 : T(i, enter);
      if (first || !(c.a[i] <= floor)) c.rows.push_back(i);
    }
  }

  // The leaving row among the candidates, or -1 for a ray. Increasing the entering variable by
  // theta changes basic variable i by -a_i theta. The first pivot (z0 entering) takes the row of
  // the smallest rhs; later ones the minimum ratio rhs_i / a_i over positive pivots. z0 leaves
  // whenever it attains the minimum, which ends the search. Other ties are broken by the
  // lexicographic rule on the rows of [rhs | B^-1] divided by their pivots: the perturbation
  // argument that makes the choice unique, hence no cycling (Cottle-Pang-Stone 4.9).
  int leaving_row(const Candidates& c, const Eigen::VectorXd& rhs, bool first, std::vector<int>& ties) const {
    double best = 0;
    ties.clear();
    for (int i : c.rows) {
      const double ratio = rhs[i] / c.a[i];
      const double tol = 1e-13 * (1 + std::abs(ratio));
      if (ties.empty() || ratio < best - tol) {
        best = ratio;
        ties.assign(1, i);
      } else if (ratio <= best + tol) {
        ties.push_back(i);
      }
    }
    if (ties.empty()) return -1;
    if (ties.size() == 1) return ties[0];
    // Drop rows that a later, smaller ratio made stale.
    std::erase_if(ties, [&](int i) { return rhs[i] / c.a[i] > best + 1e-13 * (1 + std::abs(best)); });
    if (ties.size() == 1) return ties[0];
    if (!first)
      for (int i : ties)
        if (basis[i] == z0()) return i;
    return lexicographic_tie_break(c, ties);
  }

  // The lexicographic rule over the columns of w (B^-1), in order, until one row is left. A basic
  // column is the unit vector e_r (r its basic row): its ratios are 0 on every tied row but r, and
  // 1 / a_r > 0 on r, so it drops r alone when r is tied, which is read off in O(1) rather than a
  // pass over the ties (a resting row's step LCP ties at nearly every pivot, and nearly every column
  // of w is basic). A nonbasic column is read in full. The rows left and their order are those of reading every column in full.
  int lexicographic_tie_break(const Candidates& c, std::vector<int>& ties) const {
    thread_local std::vector<int> row_of;
    thread_local std::vector<char> tied;
    const int n = this->n();
    row_of.assign(2 * n + 1, -1);
    for (int r = 0; r < n; ++r) row_of[basis[r]] = r;
    tied.assign(n, 0);
    for (int i : ties) tied[i] = 1;
    size_t live = ties.size();
    for (int k = 0; k < n && live > 1; ++k) {
      const int r = row_of[k];
      if (r >= 0) {
        // smallest = min(0, 1 / a_r) = 0; r goes where 1 / a_r > 0 + 1e-13 (1 + |0|).
        if (tied[r] && 1.0 / c.a[r] > 1e-13) {
          tied[r] = 0;
          --live;
        }
        continue;
      }
      std::erase_if(ties, [&](int i) { return !tied[i]; });
      double smallest = INFINITY;
      for (int i : ties) smallest = std::min(smallest, T(i, k) / c.a[i]);
      std::erase_if(ties, [&](int i) {
        const double x = T(i, k) / c.a[i];
        if (x <= smallest + 1e-13 * (1 + std::abs(smallest))) return false;
        tied[i] = 0;
        return true;
      });
      live = ties.size();
    }
    std::erase_if(ties, [&](int i) { return !tied[i]; });
    return ties[0];
  }

  // The pivot's effect on the columns; call pivot_rhs first, which needs the column before it.
  // Row `row` is divided by the pivot and a_i times it subtracted from every other row i, in the
  // nonbasic columns only (see above); the entering column becomes the unit vector e_row.
  void pivot(int row, int enter) {
    thread_local Eigen::VectorXd a;
    a = T.col(enter);
    const double p = a[row];
    const int leaving = basis[row];
    for (int& j : nonbasic)
      if (j == enter) j = leaving;
    for (int j : nonbasic) {
      const double c = T(row, j) / p;
      if (c != 0.0) T.col(j) -= c * a;  // x - 0 a = x: a sparse W leaves many such columns
      T(row, j) = c;
    }
    T.col(enter).setZero();
    T(row, enter) = 1.0;
    basis[row] = enter;
  }

  // The same pivot applied to a right-hand side, element for element the operations pivot applies
  // to every column, so the answer does not depend on whether the columns were pivoted alongside or
  // kept from an earlier problem.
  void pivot_rhs(int row, int enter, Eigen::VectorXd& rhs) const {
    rhs[row] /= T(row, enter);
    for (int i = 0; i < n(); ++i)
      if (i != row && T(i, enter) != 0.0) rhs[i] -= T(i, enter) * rhs[row];
  }
};

}  // namespace impactsim::lemke
