#pragma once
// LCP(W, w) for symmetric positive semi-definite W (a frictionless contact-force problem,
// W = J M^-1 J^T), solved from a guessed support S, the variables expected to be positive.
//
// Each round solves W_SS z_S = -w_S (least norm where W_SS is singular: PivotedLdlt) with z = 0
// off S, then moves the variables of S that came out negative out of S and those off S whose slack
// W z + w is negative into it: block principal pivoting (Judice and Pires, Comput. Oper. Res. 21,
// 1994). A good guess (the contacts that carried load an event ago) is right at once or after a
// round, and one factorization, |S|^3 / 3 multiply-adds, costs at most a third of Lemke's |S|
// pivots on the nonbasic columns of its tableau, |S| n (n + 1). Nothing guarantees that the rounds
// converge on a singular W, so they are capped.
//
// What it guarantees: true only for an answer with z >= 0 whose lcp_residual is at most
// accept_tolerance, the test solve_lemke applies; otherwise false (out marked inaccurate), and the
// caller solves by Lemke.
// For PSD W every solution has the same W z, hence the same slack; z itself is unique only where W
// is nonsingular. Where it is not, this gives the least-norm z on its support where Lemke gives a
// vertex of the solution set.
#include <vector>

#include <Eigen/Core>

#include "numerics/lcp.hpp"

namespace impactsim {

constexpr int kSupportRounds = 4;

bool solve_at_support(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, std::vector<int> support, LcpSolution& out,
                      double accept_tolerance = LcpOptions{}.accept_tolerance);

}  // namespace impactsim
