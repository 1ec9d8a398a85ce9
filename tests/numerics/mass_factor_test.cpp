// The block-diagonal factor of M against the dense Cholesky factor of the same matrix, and the
// blocks it finds against the trees of the model.
#include <gtest/gtest.h>

#include <cmath>

#include "core/dynamics.hpp"
#include "numerics/mass_factor.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

using testing::random_inertia;
using testing::random_vec;

Body random_body(const std::string& name, int parent, JointType type, std::mt19937& rng) {
  Body b;
  b.name = name;
  b.parent = parent;
  b.joint.type = type;
  b.joint.origin = random_vec(rng, 0.5);
  b.joint.axis = random_vec(rng).normalized();
  b.mass = 0.5 + std::uniform_real_distribution<double>(0, 1)(rng);
  b.com = random_vec(rng, 0.2);
  b.inertia = random_inertia(rng);
  return b;
}

// Bodies in this order: free `a`; `arm0` on the world; free `b`; `arm1` on arm0; free `c`. The arm's
// two joints are one tree whose velocities have b's between them, so those share one block.
// `more` free bodies follow (a pile: 12 of them take block_delassus past its dense cut-off).
Model interleaved_model(std::mt19937& rng, int more = 0) {
  Model m;
  m.bodies.push_back(random_body("a", -1, JointType::free, rng));
  m.bodies.push_back(random_body("arm0", -1, JointType::revolute, rng));
  m.bodies.push_back(random_body("b", -1, JointType::free, rng));
  m.bodies.push_back(random_body("arm1", 1, JointType::revolute, rng));
  m.bodies.push_back(random_body("c", -1, JointType::free, rng));
  for (int i = 0; i < more; ++i) {
    std::string name = "d";
    name += std::to_string(i);  // not "d" + ...: GCC 12 warns falsely (-Wrestrict) on that
    m.bodies.push_back(random_body(name, -1, JointType::free, rng));
  }
  finalize_model(m);
  return m;
}

TEST(MassFactor, BlocksFollowTheTrees) {
  std::mt19937 rng(3);
  const std::vector<VelocityBlock> chain = mass_blocks(testing::chain_model(4, rng));
  ASSERT_EQ(chain.size(), 1u);
  EXPECT_EQ(chain[0].size, 4);
  const std::vector<VelocityBlock> mixed = mass_blocks(interleaved_model(rng));
  // a (6), then arm0 + b + arm1 merged (1 + 6 + 1), then c (6).
  ASSERT_EQ(mixed.size(), 3u);
  EXPECT_EQ(mixed[0].start, 0);
  EXPECT_EQ(mixed[0].size, 6);
  EXPECT_EQ(mixed[1].start, 6);
  EXPECT_EQ(mixed[1].size, 8);
  EXPECT_EQ(mixed[2].start, 14);
  EXPECT_EQ(mixed[2].size, 6);
}

// Every velocity of a block, its first and last among them, maps to that block.
TEST(MassFactor, BlockOfColumnFindsTheBlockHoldingEachVelocity) {
  const std::vector<VelocityBlock> blocks{{0, 6}, {6, 8}, {14, 1}, {15, 6}};
  for (size_t b = 0; b < blocks.size(); ++b)
    for (int column = blocks[b].start; column < blocks[b].start + blocks[b].size; ++column)
      EXPECT_EQ(block_of_column(blocks, column), static_cast<int>(b)) << column;
  EXPECT_EQ(block_of_column({{0, 3}}, 2), 0);
}

TEST(MassFactor, MatchesTheDenseFactor) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 30; ++trial) {
    const Model m = trial % 3 == 0 ? testing::chain_model(5, rng) : interleaved_model(rng, trial % 3 == 1 ? 0 : 12);
    const Eigen::MatrixXd M = testing::mass_matrix_at(m, testing::random_q(m, rng));
    // The entries outside the blocks really are zero: the factor ignores them.
    const std::vector<VelocityBlock> blocks = mass_blocks(m);
    Eigen::MatrixXd outside = M;
    for (const VelocityBlock& b : blocks) outside.block(b.start, b.start, b.size, b.size).setZero();
    EXPECT_EQ(outside.cwiseAbs().maxCoeff(), 0.0);

    MassFactor factor(mass_blocks(m), m.nv);
    factor.compute(M);
    ASSERT_EQ(factor.info(), Eigen::Success);
    Eigen::MatrixXd B = Eigen::MatrixXd::Random(m.nv, 7);
    const Eigen::MatrixXd dense = M.llt().solve(B);
    EXPECT_LT((factor.solve(B) - dense).norm(), 1e-11 * dense.norm());
    factor.solveInPlace(B);
    EXPECT_LT((B - dense).norm(), 1e-11 * dense.norm());

    // R M^-1 F^T with sparse rows: each row touches one or two blocks, as a contact's rows do (and
    // with 92 velocities block by block).
    Eigen::MatrixXd R = Eigen::MatrixXd::Zero(9, m.nv), F = Eigen::MatrixXd::Zero(5, m.nv);
    for (Eigen::Index r = 0; r < R.rows(); ++r)
      for (int k = 0; k < 3; ++k) R(r, (r * 5 + k * 7) % m.nv) = 1.0 + r - k;
    for (Eigen::Index r = 0; r < F.rows(); ++r) F(r, (r * 3) % m.nv) = 2.0 - r;
    Eigen::MatrixXd W, W2, Minv_FT;
    block_delassus(factor, R, F, W);
    const Eigen::MatrixXd Minv_FT_dense = M.llt().solve(F.transpose());
    const Eigen::MatrixXd W_dense = R * Minv_FT_dense;
    ASSERT_EQ(W.rows(), 9);
    ASSERT_EQ(W.cols(), 5);
    EXPECT_LT((W - W_dense).norm(), 1e-11 * (1 + W_dense.norm()));
    // With M^-1 F^T asked for too: the same W, and M^-1 F^T in every block (zero where F is).
    block_delassus(factor, R, F, W2, &Minv_FT);
    EXPECT_EQ(W2, W);
    ASSERT_EQ(Minv_FT.rows(), m.nv);
    ASSERT_EQ(Minv_FT.cols(), 5);
    EXPECT_LT((Minv_FT - Minv_FT_dense).norm(), 1e-11 * (1 + Minv_FT_dense.norm()));
  }
}

// The products over the blocks each row touches equal the dense products to the bit (the mode's
// forces rest on it): J x with J's rows sparse, M^-1 F^T lambda with its columns sparse, for fewer
// and more than 128 columns (where Eigen's product sums in blocks of 16 columns).
TEST(MassFactor, ProductsOverTouchedBlocksEqualTheDenseOnesToTheBit) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int more : {12, 30}) {  // 92 and 200 velocities
    const Model m = interleaved_model(rng, more);
    MassFactor factor(mass_blocks(m), m.nv);
    factor.compute(testing::mass_matrix_at(m, testing::random_q(m, rng)));
    ASSERT_EQ(factor.info(), Eigen::Success);
    for (int rows : {40, 150}) {
      // Rows like a contact's: random entries in two bodies' columns, some of them exact zeros.
      Eigen::MatrixXd J = Eigen::MatrixXd::Zero(rows, m.nv);
      for (int r = 0; r < rows; ++r)
        for (int body : {r % static_cast<int>(m.bodies.size()), (7 * r + 3) % static_cast<int>(m.bodies.size())}) {
          const Joint& joint = m.bodies[body].joint;
          for (int c = joint.v_index; c < joint.v_index + joint.nv; ++c) J(r, c) = (c + r) % 5 == 0 ? -0.0 : u(rng);
        }
      Eigen::MatrixXd W, Minv_JT, W_full, Minv_JT_full;
      BlockRows touch;
      block_delassus(factor, J, J, W, &Minv_JT, &touch);
      block_delassus(factor, J, J, W_full, &Minv_JT_full);  // without touch: M^-1 J^T in full
      EXPECT_EQ(W, W_full);
      // The touch lists are the rows with a nonzero (-0 is zero) in each block's columns, and
      // M^-1 J^T is exact there.
      ASSERT_EQ(touch.R.size(), factor.blocks().size());
      ASSERT_EQ(touch.F, touch.R);
      for (size_t b = 0; b < factor.blocks().size(); ++b) {
        const VelocityBlock& k = factor.blocks()[b];
        std::vector<int> expected;
        for (int r = 0; r < rows; ++r)
          if ((J.row(r).segment(k.start, k.size).array() != 0.0).any()) expected.push_back(r);
        EXPECT_EQ(touch.R[b], expected) << "block " << b;
        for (int r : touch.F[b])
          EXPECT_EQ(Minv_JT.col(r).segment(k.start, k.size), Minv_JT_full.col(r).segment(k.start, k.size));
      }
      Eigen::VectorXd x(m.nv), lambda(rows);
      for (auto& e : x) e = u(rng);
      for (auto& e : lambda) e = u(rng);
      Eigen::VectorXd y0(rows);
      for (auto& e : y0) e = u(rng);
      Eigen::VectorXd dense = y0, sparse = y0;
      dense.noalias() -= J * x;
      subtract_block_rows_product(factor.blocks(), touch.R, J, x, sparse);
      EXPECT_EQ(sparse, dense) << m.nv << " velocities, " << rows << " rows";
      Eigen::VectorXd v0(m.nv);
      for (auto& e : v0) e = u(rng);
      Eigen::VectorXd vdense = v0, vsparse = v0;
      vdense.noalias() += Minv_JT_full * lambda;
      add_block_columns_product(factor.blocks(), touch.F, Minv_JT, lambda, vsparse);
      EXPECT_EQ(vsparse, vdense) << m.nv << " velocities, " << rows << " rows";
    }
  }
}

// One touch and one W reused over rows of other bodies, of the same shape and of others (as the
// mode's forces reuse them from mode to mode): W is cleared only where the last call wrote, and
// every W equals a fresh product's to the bit.
TEST(MassFactor, AReusedTouchClearsWhatItsLastProductWrote) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-2, 2);
  const Model m = interleaved_model(rng, 20);
  MassFactor factor(mass_blocks(m), m.nv);
  factor.compute(testing::mass_matrix_at(m, testing::random_q(m, rng)));
  ASSERT_EQ(factor.info(), Eigen::Success);
  const int bodies = static_cast<int>(m.bodies.size());
  BlockRows touch;
  Eigen::MatrixXd W, Minv_JT;
  int shape_kept = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const int rows = trial % 3 == 2 ? 30 : 24;
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(rows, m.nv);
    for (int r = 0; r < rows; ++r)
      for (int body : {(r + 5 * trial) % bodies, (3 * r + 7 * trial + 1) % bodies}) {
        const Joint& joint = m.bodies[body].joint;
        for (int c = joint.v_index; c < joint.v_index + joint.nv; ++c) J(r, c) = u(rng);
      }
    shape_kept += W.rows() == rows;
    block_delassus(factor, J, J, W, &Minv_JT, &touch);
    Eigen::MatrixXd W_fresh;
    block_delassus(factor, J, J, W_fresh);
    ASSERT_EQ(W.rows(), rows);
    EXPECT_EQ(W, W_fresh) << "trial " << trial;
  }
  EXPECT_GE(shape_kept, 3);  // the cleared-where-written path ran
}

// Lists a caller gives (each row's two bodies' blocks; in one of them some rows are all zeros)
// replace the scan: over reused calls W is cleared by the last call's lists, and W, M^-1 J^T where
// listed and the products over the lists equal the dense ones to the bit.
TEST(MassFactor, GivenTouchListsReplaceTheScan) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-2, 2);
  const Model m = interleaved_model(rng, 20);
  MassFactor factor(mass_blocks(m), m.nv);
  factor.compute(testing::mass_matrix_at(m, testing::random_q(m, rng)));
  ASSERT_EQ(factor.info(), Eigen::Success);
  const std::vector<VelocityBlock>& blocks = factor.blocks();
  const auto block_of = [&](int column) {
    size_t b = 0;
    while (column >= blocks[b].start + blocks[b].size) ++b;
    return b;
  };
  const int bodies = static_cast<int>(m.bodies.size());
  BlockRows touch;
  Eigen::MatrixXd W, Minv_JT;
  int zero_rows_listed = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const int rows = trial % 3 == 2 ? 30 : 24;
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(rows, m.nv);
    std::vector<std::vector<int>> lists(blocks.size());
    for (int r = 0; r < rows; ++r) {
      const int pair[2] = {(r + 5 * trial) % bodies, (3 * r + 7 * trial + 1) % bodies};
      for (int k = 0; k < 2; ++k) {
        const Joint& joint = m.bodies[pair[k]].joint;
        std::vector<int>& list = lists[block_of(joint.v_index)];
        if (list.empty() || list.back() != r) list.push_back(r);
        if (k == 1 && r % 4 == 0) continue;  // listed, but zero there
        for (int c = joint.v_index; c < joint.v_index + joint.nv; ++c) J(r, c) = u(rng);
      }
    }
    for (size_t b = 0; b < blocks.size(); ++b)
      for (int r : lists[b])
        zero_rows_listed += (J.row(r).segment(blocks[b].start, blocks[b].size).array() == 0.0).all();
    touch.next_R = lists;
    touch.next_F = lists;
    touch.given = true;
    block_delassus(factor, J, J, W, &Minv_JT, &touch);
    EXPECT_FALSE(touch.given);
    EXPECT_EQ(touch.R, lists);
    EXPECT_EQ(touch.F, lists);
    Eigen::MatrixXd W_fresh, Minv_JT_fresh;
    block_delassus(factor, J, J, W_fresh, &Minv_JT_fresh);
    ASSERT_EQ(W.rows(), rows);
    EXPECT_EQ(W, W_fresh) << "trial " << trial;
    for (size_t b = 0; b < blocks.size(); ++b)
      for (int r : touch.F[b])
        EXPECT_EQ(Minv_JT.col(r).segment(blocks[b].start, blocks[b].size),
                  Minv_JT_fresh.col(r).segment(blocks[b].start, blocks[b].size));
    Eigen::VectorXd x(m.nv), lambda(rows), y0(rows), v0(m.nv);
    for (Eigen::VectorXd* e : {&x, &lambda, &y0, &v0})
      for (auto& entry : *e) entry = u(rng);
    Eigen::VectorXd dense = y0, sparse = y0, vdense = v0, vsparse = v0;
    dense.noalias() -= J * x;
    subtract_block_rows_product(blocks, touch.R, J, x, sparse);
    EXPECT_EQ(sparse, dense) << "trial " << trial;
    vdense.noalias() += Minv_JT_fresh * lambda;
    add_block_columns_product(blocks, touch.F, Minv_JT, lambda, vsparse);
    EXPECT_EQ(vsparse, vdense) << "trial " << trial;
  }
  EXPECT_GT(zero_rows_listed, 8);  // the lists did name blocks where rows are zero
}

// 0.5 v^T M v over the blocks equals the dense product to the bit: a space copied out of M (as the
// impact laws get it) below kBlockwiseFrom, over one column block, and over Eigen's blocks of 16.
TEST(MassFactor, KineticEnergyOverTheBlocksIsTheDenseProducts) {
  std::mt19937 rng(8);
  for (int more : {0, 12, 40}) {
    const Model m = interleaved_model(rng, more);
    const Eigen::MatrixXd M = testing::mass_matrix_at(m, testing::random_q(m, rng));
    const std::vector<VelocityBlock> blocks = mass_blocks(m);
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd v = testing::random_v(m, rng);
      EXPECT_EQ(kinetic_energy(M, blocks, v), 0.5 * v.dot(M * v)) << m.nv << " velocities";
      EXPECT_EQ(kinetic_energy(M, {}, v), 0.5 * v.dot(M * v));
    }
  }
}

TEST(MassFactor, ReportsABlockThatIsNotPositiveDefinite) {
  std::mt19937 rng(7);
  const Model m = interleaved_model(rng);
  Eigen::MatrixXd M = testing::mass_matrix_at(m, testing::random_q(m, rng));
  MassFactor factor(mass_blocks(m), m.nv);
  factor.compute(M);
  EXPECT_EQ(factor.info(), Eigen::Success);
  M.block(14, 14, 6, 6) *= -1.0;  // body c's block only
  factor.compute(M);
  EXPECT_NE(factor.info(), Eigen::Success);
  factor.compute(Eigen::MatrixXd::Identity(3, 3));  // not this model's size
  EXPECT_NE(factor.info(), Eigen::Success);
  M.block(14, 14, 6, 6) *= -1.0;  // back to positive definite: every block's factor is good again
  factor.compute(M);
  EXPECT_EQ(factor.info(), Eigen::Success);
}

// A block equal to the last one factored keeps its factor, a changed one is factored anew: either
// way the solve is bit for bit that of a factor made afresh from the same matrix.
TEST(MassFactor, KeepsTheFactorOfAnUnchangedBlockOnly) {
  std::mt19937 rng(11);
  const Model m = interleaved_model(rng, 3);
  const Eigen::MatrixXd B = Eigen::MatrixXd::Random(m.nv, 4);
  auto fresh_solve = [&](const Eigen::MatrixXd& M) {
    MassFactor fresh(mass_blocks(m), m.nv);
    fresh.compute(M);
    return Eigen::MatrixXd(fresh.solve(B));
  };
  MassFactor factor(mass_blocks(m), m.nv);
  Eigen::MatrixXd M = testing::mass_matrix_at(m, testing::random_q(m, rng));
  factor.compute(M);
  factor.compute(M);  // all kept
  EXPECT_EQ(factor.solve(B), fresh_solve(M));
  M.block(14, 14, 6, 6) *= 1.5;  // body c's block changes, the others are kept
  factor.compute(M);
  EXPECT_EQ(factor.solve(B), fresh_solve(M));
  const Eigen::MatrixXd kept = factor.solve(B);
  M(14, 14) = std::nextafter(M(14, 14), 1e300);  // one ulp is a change
  factor.compute(M);
  EXPECT_EQ(factor.solve(B), fresh_solve(M));
  EXPECT_NE(factor.solve(B), kept);
}

}  // namespace
}  // namespace impactsim
