#pragma once
// Random dense matrices for the factorizations' tests: standard normal entries, filled column by
// column from the generator (the order the tests' recorded draws were made in).
#include <random>

#include <Eigen/Core>

namespace impactsim {

inline Eigen::MatrixXd random_rect(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<double> normal;
  Eigen::MatrixXd B(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) B(i, j) = normal(rng);
  return B;
}

}  // namespace impactsim
