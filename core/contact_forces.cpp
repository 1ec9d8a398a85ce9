#include "core/contact_forces.hpp"

#include <algorithm>
#include <limits>

#include "core/force_system.hpp"
#include "numerics/mass_factor.hpp"

namespace impactsim {
namespace {

// Unit slip direction of a sliding contact: its tangential velocity, blended with the phase's
// direction s below `blend` m/s (ContactModes::slip_blend), while it still points the way the phase
// started (in 3-D the slip may turn), else s; a held slide (ContactModes::held) keeps s. Past the
// slip-to-stick guard (u_t . s = 0) the force must not flip, or the integrator's trial stages would
// see the other sliding direction, perhaps a Painleve one, and never reach the guard. With
// u_t . s > 0, |u_t + blend s| >= blend and the friction still opposes u_t (dissipates).
// Whether slip_direction follows u_t (blended) rather than the phase's s alone.
bool follows_slip(const TangentVector& u_t, const TangentVector& s) {
  return u_t.size() > 1 && u_t.norm() > 1e-12 && u_t.dot(s) > 0;
}

TangentVector slip_direction(const TangentVector& u_t, const Eigen::Vector2d& phase, double blend, bool held) {
  const TangentVector s = phase.head(u_t.size());
  if (!held && follows_slip(u_t, s)) return (u_t + blend * s).normalized();
  return s;
}

// out += M^-1 G^T lambda: from kBlockwiseFrom velocities on, Minv_GT is valid only in the blocks
// w.touch.F names.
void add_force_acceleration(const BodyDynamics& body, const ModeForceScratch& w, const Eigen::VectorXd& lambda,
                            Eigen::VectorXd& out) {
  if (body.v.size() >= kBlockwiseFrom)
    add_block_columns_product(body.M_llt.blocks(), w.touch.F, w.Minv_GT, lambda, out);
  else
    out.noalias() += w.Minv_GT * lambda;
}

// J_c and G keep zeros outside the chain columns of the contact each row was copied from (owner),
// so one of the same shape is cleared over those spans alone, not whole at every evaluation (a
// pile's J_c has a few closed rows per body and every body's columns).
void clear_owned_rows(const ContactJacobians& jac, int rows, Eigen::MatrixXd& X, std::vector<int>& owner) {
  const int contacts = static_cast<int>(jac.columns.size());
  bool same = X.rows() == rows && X.cols() == jac.nv && static_cast<int>(owner.size()) == rows;
  for (int r = 0; same && r < rows; ++r) same = owner[r] < contacts;  // scratch of another model
  if (!same) {
    X.setZero(rows, jac.nv);
    owner.assign(rows, -1);
    return;
  }
  for (int r = 0; r < rows; ++r)
    if (owner[r] >= 0) jac.clear_columns(owner[r], X.middleRows(r, 1));
}

// For each of M's blocks, the rows (ascending) whose owner contact's chain columns reach into it:
// the rows a block can touch, read from the Jacobians' structure instead of scanning the rows.
void owned_block_rows(const std::vector<VelocityBlock>& blocks, const ContactJacobians& jac,
                      const std::vector<int>& owner, std::vector<std::vector<int>>& rows) {
  rows.resize(blocks.size());
  for (std::vector<int>& r : rows) r.clear();
  for (size_t r = 0; r < owner.size(); ++r)
    for (const auto& [c, n] : jac.columns[owner[r]]) {
      for (auto b = blocks.begin() + block_of_column(blocks, c); b != blocks.end() && b->start < c + n; ++b) {
        std::vector<int>& list = rows[b - blocks.begin()];
        if (list.empty() || list.back() != static_cast<int>(r)) list.push_back(static_cast<int>(r));
      }
    }
}

// G: one normal row per closed contact (G_n = J_n - mu s^T J_t when sliding), then the tangent rows
// of the sticking ones, written like J_c over each contact's chain columns only (whole dense rows
// were a fifteenth of a 20-sphere frictional pile's run).
void force_rows(const ContactModel& contacts, const ContactJacobians& jac, const Eigen::VectorXd& v,
                const ContactModes& modes, ModeForceScratch& w) {
  const int td = jac.rows_per_contact - 1;
  int rows = static_cast<int>(w.closed.size());
  for (int i : w.closed) rows += modes.mode[i] == ContactMode::stick ? td : 0;
  clear_owned_rows(jac, rows, w.G, w.G_owner);
  int row = static_cast<int>(w.closed.size());
  for (size_t a = 0; a < w.closed.size(); ++a) {
    const int i = w.closed[a];
    jac.copy_rows(i, 0, 1, w.G.middleRows(a, 1));
    w.G_owner[a] = i;
    if (modes.mode[i] == ContactMode::slide) {
      const double mu = contacts.contact(i).mu;
      if (!(mu > 0)) continue;  // frictionless: nothing along the slip (its product is most of a pile's rows)
      const TangentVector s = slip_direction(jac.rows_times(i, 1, td, v), modes.slip[i], modes.slip_blend, modes.holds(i));
      const auto Ji = jac.of(i);
      for (const auto& [c, n] : jac.columns[i])
        w.G.row(a).segment(c, n) -= mu * s.transpose() * Ji.block(1, c, td, n);
    } else {
      jac.copy_rows(i, 1, td, w.G.middleRows(row, td));
      std::fill_n(w.G_owner.begin() + row, td, i);
      row += td;
    }
  }
}

}  // namespace

bool frictional_slide(const ContactModel& contacts, const ContactModes& modes, int i) {
  return modes.mode[i] == ContactMode::slide && contacts.contact(i).mu > 0;
}

TangentVector tangential_acceleration(const ContactJacobians& jac, int i, const Eigen::VectorXd& vdot) {
  const int td = jac.rows_per_contact - 1;
  return jac.rows_times(i, 1, td, vdot) + jac.jdot_v_of(i).tail(td);
}

int ContactModes::closed() const {
  int n = 0;
  for (ContactMode m : mode) n += m != ContactMode::open;
  return n;
}

void closed_flags(const ContactModes& modes, std::vector<bool>& out) {
  out.resize(modes.mode.size());
  for (size_t i = 0; i < modes.mode.size(); ++i) out[i] = modes.mode[i] != ContactMode::open;
}

void closed_list(const ContactModes& modes, std::vector<int>& out) {
  out.clear();
  for (size_t i = 0; i < modes.mode.size(); ++i)
    if (modes.is_closed(static_cast<int>(i))) out.push_back(static_cast<int>(i));
}

ContactModes ContactModes::all_open(int contacts) {
  ContactModes m;
  m.mode.assign(contacts, ContactMode::open);
  m.slip.assign(contacts, Eigen::Vector2d::UnitX());
  m.reference_n.assign(contacts, 0.0);
  m.reference_t.assign(contacts, Eigen::Vector2d::Zero());
  return m;
}

namespace {

// The closed contacts' rows of the mode's force system into w: Jc (each closed contact's normal
// row, a sticking one's tangent rows after all the normal rows), G where it differs (frictional
// slides), the target with Baumgarte's terms, and A = Jc M^-1 G^T. Returns whether A is
// symmetric; rows is A's size.
bool assemble_force_system(const ContactModel& contacts, double baumgarte, const BodyDynamics& body,
                           const std::vector<ContactFrame>& frames, const ContactJacobians& jac,
                           const ContactModes& modes, const Eigen::VectorXd& vdot_free, int& rows, ModeForceScratch& w) {
  const int td = jac.rows_per_contact - 1, nv = static_cast<int>(body.v.size());
  // G differs from Jc only in the normal rows of frictional slides: without one, A is symmetric
  // and G is never formed (copying and comparing dense rows costs a pile dearly).
  bool symmetric = true;
  rows = static_cast<int>(w.closed.size());
  for (int i : w.closed) {
    if (modes.mode[i] == ContactMode::stick) rows += td;
    else if (frictional_slide(contacts, modes, i)) symmetric = false;
  }
  if (!symmetric) force_rows(contacts, jac, body.v, modes, w);
  clear_owned_rows(jac, rows, w.Jc, w.Jc_owner);
  w.target.resize(rows);
  const double a = baumgarte;
  int row = static_cast<int>(w.closed.size());
  for (size_t k = 0; k < w.closed.size(); ++k) {
    const int i = w.closed[k];
    const ContactRows u = jac.rows_times(i, 0, jac.rows_per_contact, body.v);
    jac.copy_rows(i, 0, 1, w.Jc.middleRows(k, 1));
    w.Jc_owner[k] = i;
    w.target[k] = -jac.jdot_v_of(i)[0] - 2 * a * u[0] - a * a * frames[i].phi;
    if (modes.mode[i] == ContactMode::stick) {
      jac.copy_rows(i, 1, td, w.Jc.middleRows(row, td));
      std::fill_n(w.Jc_owner.begin() + row, td, i);
      w.target.segment(row, td) = -jac.jdot_v_of(i).tail(td) - 2 * a * u.tail(td);
      row += td;
    }
  }
  // A large model's products over its contact rows read only the blocks each row touches.
  const bool blockwise = nv >= kBlockwiseFrom;
  if (blockwise) {
    owned_block_rows(body.M_llt.blocks(), jac, w.Jc_owner, w.touch.next_R);
    if (symmetric) w.touch.next_F = w.touch.next_R;  // F is Jc: the same rows
    else owned_block_rows(body.M_llt.blocks(), jac, w.G_owner, w.touch.next_F);
    w.touch.given = true;
  }
  block_delassus(body.M_llt, w.Jc, symmetric ? w.Jc : w.G, w.A, &w.Minv_GT, &w.touch);
  if (blockwise) subtract_block_rows_product(body.M_llt.blocks(), w.touch.R, w.Jc, vdot_free, w.target);
  else w.target.noalias() -= w.Jc * vdot_free;
  return symmetric;
}

// The closed contacts' forces from w.lambda into out: normal forces, a sticking contact's
// tangential ones, and a frictional slide's -mu lambda_n along its slip direction.
void write_forces(const ContactModel& contacts, const BodyDynamics& body, const ContactJacobians& jac,
                  const ContactModes& modes, const ModeForceScratch& w, ModeForces& out) {
  const int td = jac.rows_per_contact - 1;
  int row = static_cast<int>(w.closed.size());
  for (size_t k = 0; k < w.closed.size(); ++k) {
    const int i = w.closed[k];
    out.lambda_n[i] = w.lambda[k];
    if (modes.mode[i] == ContactMode::stick) {
      out.lambda_t.row(i) = w.lambda.segment(row, td).transpose();
      row += td;
    } else if (contacts.contact(i).mu > 0) {  // frictionless slides keep lambda_t = 0
      const TangentVector s = slip_direction(jac.rows_times(i, 1, td, body.v), modes.slip[i], modes.slip_blend, modes.holds(i));
      out.lambda_t.row(i) = -contacts.contact(i).mu * w.lambda[k] * s.transpose();
    }
  }
}

}  // namespace

bool constrained_acceleration(const ContactModel& contacts, double baumgarte, const BodyDynamics& body,
                              const std::vector<ContactFrame>& frames, const ContactJacobians& jac,
                              const ContactModes& modes, ModeForces& out, const std::vector<int>* closed) {
  if (body.M_llt.info() != Eigen::Success) return false;
  ModeForceScratch& w = out.scratch;
  const int m = contacts.size(), td = jac.rows_per_contact - 1;
  if (out.lambda_n.size() == m && out.lambda_t.rows() == m && out.lambda_t.cols() == td) {
    for (int i : w.closed) {  // the last call's closed contacts: the only entries it wrote
      out.lambda_n[i] = 0.0;
      out.lambda_t.row(i).setZero();
    }
  } else {
    out.lambda_n.setZero(m);
    out.lambda_t.setZero(m, td);
  }
  out.vdot = -body.C;
  body.M_llt.solveInPlace(out.vdot);
  if (closed) w.closed = *closed;
  else closed_list(modes, w.closed);
  if (w.closed.empty()) return true;
  int rows = 0;
  const bool symmetric = assemble_force_system(contacts, baumgarte, body, frames, jac, modes, out.vdot, rows, w);
  solve_force_system(contacts, body, jac, modes, symmetric, rows, w);
  add_force_acceleration(body, w, w.lambda, out.vdot);
  write_forces(contacts, body, jac, modes, w, out);
  return true;
}

namespace {

// d lambda over some rows of A (all, or one island's) whose factor is `solver`'s, for a change of
// A's column k by wv d theta, lambda_k the force of that column: -lambda_k A^-1 wv. Where A is
// singular the forces are ref + A^+ b (b = target - A ref, x = A^+ b), and Golub and Pereyra's
// derivative of the pseudo-inverse at constant rank adds the turn of the null-space part,
// (z . x)(e_k - A^+ A e_k) with z = A^+ wv. Its third term, A^+ A^+T e_k (wv . (b - A x)), is
// zero: wv = J_c M^-1 dG^T lies in the range of J_c, which is A's wherever G keeps J_c's rank, and
// the least-squares misfit b - A x is orthogonal to A's range (tested with a misfit). False for a
// factor that cannot be a frictional slide's (A symmetric).
bool turn_of_forces(ModeForceScratch::Solver solver, const Eigen::PartialPivLU<Eigen::MatrixXd>& lu,
                    const LeastNormFactor& cod, const Eigen::MatrixXd& A,
                    Eigen::Index k, double lambda_k, const Eigen::VectorXd& wv, const Eigen::VectorXd& x,
                    Eigen::VectorXd& dlambda) {
  if (solver == ModeForceScratch::Solver::lu) {
    dlambda = -lambda_k * lu.solve(wv);
    return true;
  }
  if (solver != ModeForceScratch::Solver::cod) return false;
  const Eigen::VectorXd z = cod.solve(wv);
  dlambda = -lambda_k * z;
  if (cod.rank() < A.rows()) {
    Eigen::VectorXd null_part = -cod.solve(A.col(k));
    null_part[k] += 1.0;
    dlambda += z.dot(x) * null_part;
  }
  return true;
}

}  // namespace

bool slip_turn_acceleration(const ContactModel& contacts, const BodyDynamics& body, const ContactJacobians& jac,
                            const ContactModes& modes, int i, const ModeForces& forces, Eigen::VectorXd& dvdot) {
  using Solver = ModeForceScratch::Solver;
  const ModeForceScratch& w = forces.scratch;
  const int td = jac.rows_per_contact - 1;
  if (td != 2 || !frictional_slide(contacts, modes, i)) return false;
  const auto k = std::find(w.closed.begin(), w.closed.end(), i) - w.closed.begin();
  if (k == static_cast<Eigen::Index>(w.closed.size())) return false;
  // d d / d theta, as slip_direction turns with s.
  const TangentVector u_t = jac.rows_times(i, 1, td, body.v);
  const Eigen::Vector2d s = modes.slip[i], s_turn(-s[1], s[0]);
  Eigen::Vector2d d_turn = s_turn;
  if (!modes.holds(i) && follows_slip(u_t, s)) {
    const Eigen::Vector2d e = u_t + modes.slip_blend * s;
    const Eigen::Vector2d d = e.normalized();
    d_turn = (Eigen::Matrix2d::Identity() - d * d.transpose()) * (modes.slip_blend * s_turn) / e.norm();
  }
  // M^-1 dG_i^T with dG_i = -mu d_turn^T J_t,i, and wv = J_c M^-1 dG_i^T, A's column k's change.
  Eigen::VectorXd Minv_dG = -contacts.contact(i).mu * (jac.of(i).middleRows(1, td).transpose() * d_turn);
  body.M_llt.solveInPlace(Minv_dG);
  const Eigen::Index rows = w.A.rows();
  const Eigen::VectorXd wv = w.Jc.topRows(rows) * Minv_dG;
  Eigen::VectorXd dlambda = Eigen::VectorXd::Zero(rows), part;
  if (w.solver == Solver::islands) {  // wv is zero outside i's island
    const int j = w.row_island[k];
    const std::vector<int>& island = w.island_rows[j];
    const auto local = std::lower_bound(island.begin(), island.end(), static_cast<int>(k)) - island.begin();
    Eigen::VectorXd x;  // a least-norm solve's forces less the references (solve_by_island)
    if (w.island_solver[j] == Solver::cod) x = w.lambda(island) - w.reference(island);
    if (!turn_of_forces(w.island_solver[j], w.island_lu[j], w.island_cod[j], w.A(island, island), local, w.lambda[k],
                        wv(island), x, part))
      return false;
    dlambda(island) = part;
  } else {
    Eigen::VectorXd x;
    if (w.solver == Solver::cod) x = w.lambda - w.reference;
    if (!turn_of_forces(w.solver, w.lu, w.cod, w.A, k, w.lambda[k], wv, x, dlambda)) return false;
  }
  dvdot = w.lambda[k] * Minv_dG;
  add_force_acceleration(body, w, dlambda, dvdot);
  return dvdot.allFinite();
}

void force_response(const BodyDynamics& body, const ModeForces& forces, const Eigen::VectorXd& f,
                    Eigen::VectorXd& dvdot, Eigen::VectorXd& dlambda) {
  const ModeForceScratch& w = forces.scratch;
  dvdot = f;
  body.M_llt.solveInPlace(dvdot);
  if (w.closed.empty()) {
    dlambda.resize(0);
    return;
  }
  const Eigen::VectorXd wv = w.Jc.topRows(w.A.rows()) * dvdot;
  solve_factored(w, body.v.size() >= kBlockwiseFrom, wv, dlambda);
  dlambda = -dlambda;
  add_force_acceleration(body, w, dlambda, dvdot);
}

double painleve_margin(const ModeForces& forces, int i, Eigen::VectorXd& x) {
  const ModeForceScratch& w = forces.scratch;
  if (w.solver == ModeForceScratch::Solver::definite) return std::numeric_limits<double>::infinity();
  const auto k = std::find(w.closed.begin(), w.closed.end(), i) - w.closed.begin();
  if (k == static_cast<Eigen::Index>(w.closed.size())) return std::numeric_limits<double>::infinity();
  if (w.solver == ModeForceScratch::Solver::islands) {  // within k's island alone
    const int j = w.row_island[k];
    if (w.island_solver[j] == ModeForceScratch::Solver::definite) return std::numeric_limits<double>::infinity();
    const std::vector<int>& rows = w.island_rows[j];
    const auto local = std::lower_bound(rows.begin(), rows.end(), static_cast<int>(k)) - rows.begin();
    const Eigen::VectorXd unit = Eigen::VectorXd::Unit(static_cast<Eigen::Index>(rows.size()), local);
    solve_unit(w.island_solver[j], w.island_pivoted[j], w.island_lu[j], w.island_cod[j], unit, x);
    return x[local] == 0 ? std::numeric_limits<double>::infinity() : 1.0 / x[local];
  }
  solve_unit(w.solver, w.pivoted, w.lu, w.cod, Eigen::VectorXd::Unit(w.A.rows(), k), x);
  return x[k] == 0 ? std::numeric_limits<double>::infinity() : 1.0 / x[k];
}

}  // namespace impactsim
