#include "core/contact_data.hpp"

#include <algorithm>

namespace impactsim {

namespace {

// The law's input for `set` over every velocity, except M: its rows of J, friction, restitution,
// ids and the friction polygon.
ContactSpace contact_rows(const ContactModel& contacts, const ContactSettings& settings, const ContactJacobians& jac,
                          const std::vector<int>& set) {
  const int n = static_cast<int>(set.size()), td = contacts.tangent_dim();
  ContactSpace c;
  c.tangent_dim = td;
  c.friction_directions = settings.friction_directions;
  c.circular_cone = settings.circular_cone;
  c.J_n.setZero(n, jac.nv);
  c.J_t.setZero(n * td, jac.nv);
  c.ids = set;
  c.mu.resize(n);
  c.e.resize(n);
  for (int a = 0; a < n; ++a) {
    jac.copy_rows(set[a], 0, 1, c.J_n.middleRows(a, 1));
    jac.copy_rows(set[a], 1, td, c.J_t.middleRows(a * td, td));
    c.mu[a] = contacts.contact(set[a]).mu;
    c.e[a] = contacts.contact(set[a]).e;
  }
  return c;
}

}  // namespace

ContactSpace contact_space(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                           const ContactJacobians& jac, const std::vector<int>& set) {
  ContactSpace c = contact_rows(contacts, settings, jac, set);
  c.M = body.M;
  if (body.M.rows() >= kBlockwiseFrom) c.M_blocks = body.M_llt.blocks();
  return c;
}

std::vector<int> block_columns(const BodyDynamics& body, const std::vector<int>& blocks) {
  std::vector<int> cols;
  for (int b : blocks) {
    const VelocityBlock& block = body.M_llt.blocks()[b];
    for (int j = 0; j < block.size; ++j) cols.push_back(block.start + j);
  }
  return cols;
}

ContactSpace contact_space(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                           const ContactJacobians& jac, const std::vector<int>& set, const std::vector<int>& blocks) {
  const std::vector<int> cols = block_columns(body, blocks);
  ContactSpace c = contact_rows(contacts, settings, jac, set);
  c.M = body.M(cols, cols);
  c.J_n = Eigen::MatrixXd(c.J_n(Eigen::all, cols));
  c.J_t = Eigen::MatrixXd(c.J_t(Eigen::all, cols));
  if (static_cast<int>(cols.size()) >= kBlockwiseFrom)
    for (int b : blocks) {
      const int start = c.M_blocks.empty() ? 0 : c.M_blocks.back().start + c.M_blocks.back().size;
      c.M_blocks.push_back({start, body.M_llt.blocks()[b].size});
    }
  return c;
}

void contact_islands(const BodyDynamics& body, const ContactJacobians& jac, const std::vector<int>& set,
                     ContactIslands& out) {
  const std::vector<VelocityBlock>& blocks = body.M_llt.blocks();
  std::vector<int>& parent = out.parent;
  parent.resize(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b) parent[b] = static_cast<int>(b);
  auto root = [&](int b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  };
  for (int i : set)
    if (jac.columns[i].empty()) {  // moves nothing: leave the set whole
      out.contacts.resize(1);
      out.contacts[0].resize(set.size());
      for (size_t k = 0; k < set.size(); ++k) out.contacts[0][k] = static_cast<int>(k);
      out.blocks.clear();
      return;
    }
  out.moved.assign(blocks.size(), false);
  for (int i : set) {
    int first = -1;
    for (const auto& [column, count] : jac.columns[i]) {
      const int b = block_of_column(blocks, column);
      out.moved[b] = true;
      if (first < 0) first = b;
      else parent[root(b)] = root(first);
    }
  }
  out.island_of.assign(blocks.size(), -1);
  size_t islands = 0;  // out's lists in use; the rest are dropped at the end
  auto island_at = [&](int b) -> int& {
    int& island = out.island_of[root(b)];
    if (island < 0) {
      island = static_cast<int>(islands++);
      if (out.contacts.size() < islands) {
        out.contacts.emplace_back();
        out.blocks.emplace_back();
      }
      out.contacts[island].clear();
      out.blocks[island].clear();
    }
    return island;
  };
  out.blocks.resize(out.contacts.size());
  for (size_t k = 0; k < set.size(); ++k)
    out.contacts[island_at(block_of_column(blocks, jac.columns[set[k]].front().first))].push_back(static_cast<int>(k));
  for (size_t b = 0; b < blocks.size(); ++b)
    if (out.moved[b]) out.blocks[island_at(static_cast<int>(b))].push_back(static_cast<int>(b));
  out.contacts.resize(islands);
  out.blocks.resize(islands);
}

std::vector<int> members(const std::vector<int>& set, const std::vector<int>& island) {
  std::vector<int> out;
  out.reserve(island.size());
  for (int a : island) out.push_back(set[static_cast<size_t>(a)]);
  return out;
}

ContactIslands contact_islands(const BodyDynamics& body, const ContactJacobians& jac, const std::vector<int>& set) {
  ContactIslands out;
  contact_islands(body, jac, set, out);
  return out;
}

ContactData::ContactData(const Model& model, const ContactModel& contacts)
    : body(model), frames(contacts.size()), jac(model, contacts), broadphase(contacts),
      near(broadphase.everything(contacts)) {}

}  // namespace impactsim
