#pragma once
// The interface every impact law implements. Laws are pure algebra on the contact space of one
// impact; they know nothing of geometry files, YAML or output.
//
// Sign conventions (Halm and Posa, eq. (12), (26)-(30)):
// - J_n row i maps v to contact i's normal velocity; positive means separating. The normal points
//   from the second body of the contact to the first.
// - J_t rows (tangent_dim per contact, contact i at rows i*tangent_dim...) map v to its tangential
//   velocity in the contact's tangent basis (one tangent in a planar scene, two orthonormal ones in 3-D).
// - Impulses act as M (v+ - v-) = J_n^T Lambda_n + J_t^T Lambda_t, Lambda_n >= 0, in N s.
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "impact/rng.hpp"

namespace impactsim {

struct ContactSpace {
  Eigen::MatrixXd M;            // nv x nv, symmetric positive definite
  Eigen::MatrixXd J_n;          // m x nv
  Eigen::MatrixXd J_t;          // (m * tangent_dim) x nv
  int tangent_dim = 1;          // 1 (planar) or 2 (3-D)
  Eigen::VectorXd mu;           // m friction coefficients
  Eigen::VectorXd e;            // m Newton restitution coefficients in [0, 1]
  int friction_directions = 8;  // k, directions of the polyhedral friction cone in 3-D
  std::vector<int> ids;         // optional: the scene's index of each contact (orders name contacts by it)

  int contacts() const { return static_cast<int>(J_n.rows()); }
};

struct ImpactResult {
  Eigen::VectorXd v_plus;
  Eigen::VectorXd impulse_n;    // m, N s
  Eigen::VectorXd impulse_t;    // m * tangent_dim, in each contact's tangent basis, N s
  int lcp_solves = 0;
  double lcp_residual = 0.0;    // the worst residual over every LCP solved
  double kinetic_energy_minus = 0.0;
  double kinetic_energy_plus = 0.0;
  bool ok = true;               // false: no trustworthy outcome; `diagnostic` says why
  bool terminated = true;       // false: the law hit its step cap with a contact still approaching
  int steps = 0;                // steps of multi-step laws (Routh steps, single impacts, reflections)
  std::vector<int> ordering;    // sequential and propagative laws: the contacts in the order resolved
  std::string diagnostic;
};

class ImpactLaw {
 public:
  virtual ~ImpactLaw() = default;
  virtual std::string_view name() const = 0;
  // One outcome of the impact from pre-impact velocity v_minus; stochastic laws draw from rng.
  virtual ImpactResult resolve(const ContactSpace& contacts, const Eigen::VectorXd& v_minus, Rng& rng) const = 0;
};

}  // namespace impactsim
