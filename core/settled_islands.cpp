#include "core/settled_islands.hpp"

#include "numerics/mass_factor.hpp"

namespace impactsim {
namespace {

// The blocks of M the event reached (settled_contacts' list, but the islands).
std::vector<bool> disturbed_blocks(const System& sys, const ContactModes& modes, const ContactData& data, const std::vector<int>& candidates,
                                   const std::vector<FiredGuard>& fired, const Eigen::VectorXd& v_before,
                                   const Eigen::VectorXd& v, const Sleep& sleep) {
  const std::vector<VelocityBlock>& blocks = data.body.M_llt.blocks();
  std::vector<bool> out(blocks.size(), false);
  for (size_t b = 0; b < blocks.size(); ++b)
    out[b] = v_before.segment(blocks[b].start, blocks[b].size) != v.segment(blocks[b].start, blocks[b].size);
  const auto reach = [&](int i) {
    for (const auto& [column, count] : data.jac.columns[i]) out[block_of_column(blocks, column)] = true;
  };
  for (const FiredGuard& f : fired) reach(f.contact);
  std::vector<bool> candidate(static_cast<size_t>(sys.contacts.size()), false);
  for (int i : candidates) {
    candidate[i] = true;
    if (!modes.is_closed(i) && !dormant(sys.contacts, sleep, i)) reach(i);
  }
  for (int i : data.near.contacts)  // a closed contact touches: it is near
    if (modes.is_closed(i) && !candidate[i] && !dormant(sys.contacts, sleep, i)) reach(i);
  return out;
}

}  // namespace

std::vector<bool> settled_contacts(const System& sys, const ContactModes& modes, const ContactData& data,
                                   const std::vector<bool>& deferred, const std::vector<FiredGuard>& fired,
                                   const Eigen::VectorXd& v_before, const Eigen::VectorXd& v, const Sleep& sleep) {
  std::vector<bool> out;
  if (sys.model.nv < kBlockwiseFrom) return out;
  const std::vector<int> candidates = touching_not_separating(sys, modes, data, deferred, v);
  if (candidates.empty()) return out;
  const std::vector<bool> disturbed = disturbed_blocks(sys, modes, data, candidates, fired, v_before, v, sleep);
  const ContactIslands islands = contact_islands(data.body, data.jac, candidates);
  if (islands.blocks.empty()) return out;  // a contact that moves nothing: one island, chosen whole
  for (size_t k = 0; k < islands.contacts.size(); ++k) {
    bool reached = false;
    for (int b : islands.blocks[k]) reached = reached || disturbed[b];
    if (reached) continue;
    out.resize(static_cast<size_t>(sys.contacts.size()), false);
    for (int a : islands.contacts[k]) out[candidates[a]] = true;
  }
  return out;
}

}  // namespace impactsim
