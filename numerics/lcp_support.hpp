#pragma once
// LCP(W, w) for symmetric positive semi-definite W (a frictionless contact-force problem,
// W = J M^-1 J^T), solved from a guessed support S, the variables expected to be positive.
//
// Each round solves W_SS z_S = -w_S with z = 0 off S (where W_SS is singular, on its basic rows
// alone: the others leave S at z = 0, as in a vertex of the solution set), then moves the variables
// of S that came out negative out of S and those off S whose slack W z + w is negative into it:
// block principal pivoting (Judice and Pires, Comput. Oper. Res. 21, 1994), which after three
// rounds that do not lower the number of such variables moves only the last of them (Murty's rule,
// finite where W is positive definite). A good guess (the contacts that carried load an event or a
// step ago) is right at once or within a few rounds. The first round factors W_SS, |S|^3 / 3
// multiply-adds; the next solve the support's difference from it through a bordered system (its
// Schur complement, one column of |S|^2 per index that entered or left; factored afresh where
// more than 24 differ or that system is singular), so a round after the first costs little, where
// Lemke's method takes |S| pivots of n (n + 1) each. Nothing guarantees that the rounds converge
// on a singular W, so they are capped at 10 + n / 4.
//
// What it guarantees: true only for an answer with z >= 0 whose lcp_residual is at most
// accept_tolerance, the test solve_lemke applies; otherwise false (out marked inaccurate), and the
// caller solves by Lemke.
// For PSD W every solution has the same W z, hence the same slack; z itself is unique only where W
// is nonsingular. Where it is not, this gives a basic solution, as Lemke does, not necessarily the
// same one.
#include <vector>

#include <Eigen/Core>

#include "numerics/lcp.hpp"

namespace impactsim {

constexpr int kSupportRoundsFirst = 10;  // rounds for n variables: 10 + n / 4
constexpr int kSupportRoundsPer = 4;

bool solve_at_support(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, std::vector<int> support, LcpSolution& out,
                      double accept_tolerance = LcpOptions{}.accept_tolerance);

// LCP(W, w) for symmetric positive semi-definite W: at the guessed support first (at options'
// accept_tolerance), by Lemke with options where that guess is not made good.
LcpSolution solve_psd_lcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, std::vector<int> guess,
                          const LcpOptions& options = {});

}  // namespace impactsim
