// Writes random LCPs for a speed comparison of Lemke's method with other solvers, with the time
// impactsim's solve_lemke takes on each:
//   lcp_speed_dump DIR  ->  DIR/lcp_NNNNN.txt (n, then W row by row, then w) and
//                           DIR/impactsim.csv (index,kind,n,solved,residual,seconds)
// Two kinds, 10 problems per size, seeded: `spd` (W = A A^T / n + I, w ~ N(0, 1), n = 8 ... 128)
// and `friction` (the Anitescu-Potra impact LCP, numerics/coulomb_lcp.hpp, of m frictional 3-D
// contacts with 4 friction directions, n = 6 m = 12 ... 120: W_bar = J J^T / nv + I / 10 from a
// random J of full row rank, w_bar = J v- with v- ~ N(0, 1), mu ~ U(0.2, 1)). seconds is the
// smallest mean over 5 batches of repeated solves, each batch at least 5 ms.
// tools/compare_lemke_speed_siconos.py reads them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "numerics/coulomb_lcp.hpp"
#include "numerics/lcp.hpp"

namespace {

using namespace impactsim;

double seconds_per_solve(const Eigen::MatrixXd& W, const Eigen::VectorXd& w) {
  using Clock = std::chrono::steady_clock;
  double best = INFINITY;
  for (int batch = 0; batch < 5; ++batch) {
    long solves = 0;
    const auto t0 = Clock::now();
    double elapsed = 0;
    do {
      const LcpSolution s = solve_lemke(W, w);
      if (s.z.size() != w.size()) std::abort();  // keeps the solve from being optimized away
      ++solves;
      elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (elapsed < 5e-3);
    best = std::min(best, elapsed / static_cast<double>(solves));
  }
  return best;
}

Eigen::MatrixXd gaussian(int rows, int cols, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  Eigen::MatrixXd A(rows, cols);
  for (int i = 0; i < A.size(); ++i) A.data()[i] = g(rng);
  return A;
}

CoulombLcp spd_lcp(int n, std::mt19937_64& rng) {
  const Eigen::MatrixXd A = gaussian(n, n, rng);
  return {A * A.transpose() / n + Eigen::MatrixXd::Identity(n, n), gaussian(n, 1, rng)};
}

CoulombLcp friction_lcp(int m, std::mt19937_64& rng) {
  const int k = 4, p = m * (1 + k), nv = p + 6;
  Eigen::MatrixXd D(2, k);
  D << 1, 0, -1, 0, 0, 1, 0, -1;
  std::uniform_real_distribution<double> u(0.2, 1.0);
  Eigen::VectorXd mu(m);
  for (int i = 0; i < m; ++i) mu[i] = u(rng);
  const Eigen::MatrixXd J = gaussian(p, nv, rng);
  const Eigen::MatrixXd W_bar = J * J.transpose() / nv + 0.1 * Eigen::MatrixXd::Identity(p, p);
  const Eigen::VectorXd w_bar = J * gaussian(nv, 1, rng);
  return build_coulomb_lcp(W_bar, w_bar, every_contact_frictional(mu, D));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  std::ofstream table(dir / "impactsim.csv");
  table << "index,kind,n,solved,residual,seconds\n";
  int index = 0;
  auto write = [&](const char* kind, const CoulombLcp& lcp) {
    char name[32];
    std::snprintf(name, sizeof name, "lcp_%05d.txt", index);
    std::ofstream out(dir / name);
    out.precision(17);
    out << lcp.w.size() << '\n' << lcp.W << '\n' << lcp.w.transpose() << '\n';
    const LcpSolution s = solve_lemke(lcp.W, lcp.w);
    table << index++ << ',' << kind << ',' << lcp.w.size() << ',' << (s.ok() ? 1 : 0) << ','
          << lcp_residual(lcp.W, lcp.w, s.z) << ',' << seconds_per_solve(lcp.W, lcp.w) << '\n';
  };
  std::mt19937_64 rng(20261125);
  for (int n : {8, 16, 32, 64, 128})
    for (int r = 0; r < 10; ++r) write("spd", spd_lcp(n, rng));
  for (int m : {2, 4, 8, 16, 20})
    for (int r = 0; r < 10; ++r) write("friction", friction_lcp(m, rng));
  return table.good() ? 0 : 1;
}
