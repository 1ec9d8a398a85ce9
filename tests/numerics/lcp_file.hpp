#pragma once
// An LCP recorded from a run, as tests/numerics/data/*.txt hold them: n, then W row by row, then w.
#include <fstream>
#include <string>

#include <Eigen/Core>

namespace impactsim::testing {

// Reads tests/numerics/data/<name> into W and w; false if the file is missing or short.
inline bool read_lcp_file(const std::string& name, Eigen::MatrixXd& W, Eigen::VectorXd& w) {
  std::ifstream in(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/numerics/data/" + name);
  int n = 0;
  if (!(in >> n) || n <= 0) return false;
  W.resize(n, n);
  w.resize(n);
  for (int i = 0; i < n * n; ++i) in >> W(i / n, i % n);
  for (int i = 0; i < n; ++i) in >> w[i];
  return static_cast<bool>(in);
}

}  // namespace impactsim::testing
