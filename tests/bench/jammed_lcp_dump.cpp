// Writes the generated jammed impact LCPs (tests/impact/jammed_lcps.hpp) for comparison with other
// solvers, with impactsim's result on each:
//   jammed_lcp_dump DIR [COUNT]  ->  DIR/lcp_NNNNN.txt (n, then W row by row, then w) and
//                                    DIR/impactsim.csv (index,n,solved,method,residual,seconds)
// tools/compare_lcp_siconos.py reads them.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "numerics/lcp.hpp"
#include "tests/impact/jammed_lcps.hpp"

int main(int argc, char** argv) {
  using namespace impactsim;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [COUNT]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const int count = argc > 2 ? std::atoi(argv[2]) : 1000;
  std::filesystem::create_directories(dir);
  std::ofstream table(dir / "impactsim.csv");
  table << "index,n,solved,method,residual,seconds\n";
  const char* methods[] = {"lemke", "enumeration", "proximal"};
  for (int i = 0; i < count; ++i) {
    const testing::JammedLcp p = testing::jammed_lcp(i);
    char name[32];
    std::snprintf(name, sizeof name, "lcp_%05d.txt", i);
    std::ofstream out(dir / name);
    out.precision(17);
    out << p.lcp.w.size() << '\n' << p.lcp.W << '\n' << p.lcp.w.transpose() << '\n';
    const auto t0 = std::chrono::steady_clock::now();
    const LcpSolution s = solve_lemke(p.lcp.W, p.lcp.w);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    table << i << ',' << p.lcp.w.size() << ',' << (s.ok() ? 1 : 0) << ',' << methods[static_cast<int>(s.method)] << ','
          << lcp_residual(p.lcp.W, p.lcp.w, s.z) << ',' << seconds << '\n';
  }
  return table.good() ? 0 : 1;
}
