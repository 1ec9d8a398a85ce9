#pragma once
// The interface every impact law implements. Laws are pure algebra on the contact space of one
// impact; they know nothing of geometry files, YAML or output.
//
// Sign conventions (Halm and Posa, eq. (12), (26)-(30)):
// - J_n row i maps v to contact i's normal velocity [m/s]; positive means separating. The normal
//   points from the second body of the contact to the first.
// - J_t rows (tangent_dim per contact, contact i at rows i*tangent_dim...) map v to its tangential
//   velocity in the contact's tangent basis (one tangent in a planar scene, two orthonormal ones in 3-D).
// - Impulses act as M (v+ - v-) = J_n^T Lambda_n + J_t^T Lambda_t, Lambda_n >= 0, in N s.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "numerics/mass_factor.hpp"
#include "numerics/rng.hpp"

namespace impactsim {

struct ContactSpace {
  Eigen::MatrixXd M;            // nv x nv, symmetric positive definite
  Eigen::MatrixXd J_n;          // m x nv
  Eigen::MatrixXd J_t;          // (m * tangent_dim) x nv
  int tangent_dim = 1;          // 1 (planar) or 2 (3-D)
  Eigen::VectorXd mu;           // m friction coefficients
  Eigen::VectorXd e;            // m Newton restitution coefficients in [0, 1]
  int friction_directions = 8;  // k, directions of the polyhedral friction cone in 3-D
  // 3-D friction in the circular (isotropic Coulomb) cone, from the polygon's answer
  // (impact/circular_cone.hpp); false: in the polygon of friction_directions itself.
  bool circular_cone = true;
  std::vector<int> ids;         // optional: the scene's index of each contact (orders name contacts by it)
  // Optional: M is block diagonal over these contiguous ranges of v (ordered, covering it), and the
  // laws factor it block by block; empty: one dense block.
  std::vector<VelocityBlock> M_blocks;

  int contacts() const { return static_cast<int>(J_n.rows()); }
};

// M's Cholesky factor over space.M_blocks; info() != Success where M is not positive definite.
MassFactor mass_factor(const ContactSpace& space);

// The contacts `which` of a space (positions in it), in that order, with their ids.
ContactSpace contact_subspace(const ContactSpace& space, const std::vector<int>& which);
// The same without the mass matrix (M and M_blocks left empty), for a law that keeps M's factor
// beside the subspace and asks it for no kinetic energy: a copy of M per contact costs nv^2 doubles
// each (a row of 100 balls: 201 copies of 2.9 MB).
ContactSpace contact_rows(const ContactSpace& space, const std::vector<int>& which);

struct ImpactResult {
  Eigen::VectorXd v_plus;
  Eigen::VectorXd impulse_n;    // m, N s
  Eigen::VectorXd impulse_t;    // m * tangent_dim, in each contact's tangent basis, N s
  int lcp_solves = 0;
  double lcp_residual = 0.0;    // the worst residual over every LCP solved
  double cone_residual = 0.0;   // circular cone: the residual of its equations, N s (impact/circular_cone.hpp)
  double kinetic_energy_minus = 0.0;
  double kinetic_energy_plus = 0.0;
  bool ok = true;               // false: no trustworthy outcome; `diagnostic` says why
  bool terminated = true;       // false: the law hit its step cap with a contact still approaching
  int steps = 0;                // steps of multi-step laws (Routh steps, single impacts, reflections)
  std::vector<int> ordering;    // sequential and propagative laws: the contacts in the order resolved
  std::string diagnostic;
};

// One impact prepared for sampling: whatever depends only on the contact space and v- is computed
// once. Immutable: sample() and draw() may run on many threads at once, each with its own generator.
class PreparedImpact {
 public:
  virtual ~PreparedImpact() = default;
  // One outcome; stochastic laws draw i.i.d. from rng.
  virtual ImpactResult draw(Rng& rng) const = 0;
  // Outcome `index` of a sampling design (Routh's Sobol points); the i.i.d. draw for other laws.
  virtual ImpactResult sample(std::uint64_t index, Rng& rng) const {
    (void)index;
    return draw(rng);
  }
};

class ImpactLaw {
 public:
  virtual ~ImpactLaw() = default;
  virtual std::string_view name() const = 0;
  // The impact of the contacts in `contacts` from pre-impact velocity v_minus, ready to sample.
  virtual std::unique_ptr<PreparedImpact> prepare(const ContactSpace& contacts, const Eigen::VectorXd& v_minus) const = 0;
  // One outcome: prepare(contacts, v_minus)->draw(rng), or the same result computed directly.
  virtual ImpactResult resolve(const ContactSpace& contacts, const Eigen::VectorXd& v_minus, Rng& rng) const {
    return prepare(contacts, v_minus)->draw(rng);
  }
};

}  // namespace impactsim
