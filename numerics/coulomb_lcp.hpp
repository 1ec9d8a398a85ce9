#pragma once
// The polyhedral Coulomb law as an LCP: the one builder behind the Anitescu-Potra impact law, the
// step LCP of Routh's sampler, the single impacts of the sequential law, the acceleration-level
// contact problem of the event loop and the time-stepping schemes.
//
// There are m normal rows with forces f_n >= 0, and s friction blocks. Block b belongs to normal
// row owner[b], has friction coefficient mu_b and k polygon directions D (numerics/friction_cone.hpp)
// with multipliers beta_b >= 0, so its tangential force is D beta_b. In polygon coordinates
// p = [f_n (m); beta (s k)] the caller gives the affine map to the rows' "velocities" (velocities
// at an impact or a time step, accelerations in the smooth phase):
//   u_bar = W_bar p + w_bar,   u_bar = [u_n (m); D^T u_t,b (k per block)].
// The LCP in z = [f_n; beta; gamma (s)] (Anitescu and Potra 1997; Halm and Posa eq. (31), (75);
// Gavrea, Anitescu and Potra (4.4d-f)):
//   0 <= u_n                            _|_  f_n    >= 0   the contact separates or stays closed
//   0 <= D^T u_t,b + gamma_b 1          _|_  beta_b >= 0   friction along D opposes the slip
//   0 <= mu_b f_n,owner(b) - 1^T beta_b _|_  gamma_b >= 0  and stays in the polygon (gamma: slip speed)
// that is W = [W_bar, [0; E]; [mu rows, -E^T], 0], E = blkdiag(1_k), w = [w_bar; 0]. With W_bar
// symmetric positive semi-definite W is copositive-plus, and Lemke's method finds a solution.
#include <vector>

#include <Eigen/Core>

namespace impactsim {

struct CoulombLayout {
  int normals = 0;          // m
  std::vector<int> owner;   // per friction block: its normal row
  Eigen::VectorXd mu;       // per friction block
  Eigen::MatrixXd D;        // tangent_dim x k polygon directions

  int blocks() const { return static_cast<int>(owner.size()); }
  int k() const { return static_cast<int>(D.cols()); }
  int tangent_dim() const { return static_cast<int>(D.rows()); }
  int polygon_size() const { return normals + blocks() * k(); }  // m + s k, the size of W_bar
};

// Every one of the m = mu.size() contacts frictional: block i belongs to normal row i.
CoulombLayout every_contact_frictional(const Eigen::VectorXd& mu, Eigen::MatrixXd D);
// A block for each contact with mu > 0 only, in contact order. A frictionless contact's block adds
// k + 1 variables whose solution is known (0 <= 0 f_n - 1^T beta forces beta = 0): in a row of 100
// frictionless balls in 3-D they made the impact LCP ten times larger than its 201 normal rows.
CoulombLayout frictional_contacts_only(const Eigen::VectorXd& mu, Eigen::MatrixXd D);
// The tangent rows of the blocks' contacts, block by block, from J_t (tangent_dim rows per contact).
Eigen::MatrixXd block_tangent_rows(const CoulombLayout& layout, const Eigen::MatrixXd& J_t);
// Adds the blocks' tangential impulses D beta_b (beta: k per block) to impulse_t, per contact.
void add_block_impulses(const CoulombLayout& layout, const Eigen::Ref<const Eigen::VectorXd>& beta,
                        Eigen::VectorXd& impulse_t);

struct CoulombLcp {
  Eigen::MatrixXd W;  // (m + s k + s) square
  Eigen::VectorXd w;
};

// The LCP from the Delassus operator in polygon coordinates (W_bar, w_bar; see above).
CoulombLcp build_coulomb_lcp(const Eigen::MatrixXd& W_bar, const Eigen::VectorXd& w_bar, const CoulombLayout& layout);

// The same from the contact-space operator u = A f + u0, f = [f_n (m); f_t (tangent_dim per
// block, in block order)]: W_bar = T^T A T and w_bar = T^T u0, T mapping p to f.
CoulombLcp build_coulomb_lcp_in_contact_space(const Eigen::MatrixXd& A, const Eigen::VectorXd& u0,
                                              const CoulombLayout& layout);

// Contact-space forces [f_n (m); f_t (s tangent_dim)] of an LCP solution z.
Eigen::VectorXd coulomb_forces(const CoulombLayout& layout, const Eigen::VectorXd& z);

}  // namespace impactsim
