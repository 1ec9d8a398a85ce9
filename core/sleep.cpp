#include "core/sleep.hpp"

#include <algorithm>

namespace impactsim {
namespace {

// The block of M that moves body b: its own joint's, or the nearest ancestor's with velocities.
int block_of(const Model& model, const std::vector<VelocityBlock>& blocks, int b) {
  while (b >= 0 && model.bodies[b].joint.nv == 0) b = model.bodies[b].parent;
  return b < 0 ? -1 : block_of_column(blocks, model.bodies[b].joint.v_index);
}

bool side_still(const Sleep& sleep, int body) {
  if (body < 0) return true;
  const int block = sleep.block_of_body[body];
  return block < 0 || sleep.island_of_block[block] >= 0;
}

// Every velocity and acceleration of the block within at_rest's bounds over the time left.
bool block_rests(const ContactSettings& s, double time_left, const VelocityBlock& b, const Eigen::Ref<const Eigen::VectorXd>& v,
                 const Eigen::Ref<const Eigen::VectorXd>& vdot) {
  const double speed = v.segment(b.start, b.size).cwiseAbs().maxCoeff();
  const double a = vdot.segment(b.start, b.size).cwiseAbs().maxCoeff();
  // Every comparison with NaN is false: a state not finite never sleeps.
  return speed * time_left <= s.distance_tolerance && a * time_left <= s.velocity_tolerance &&
         0.5 * a * time_left * time_left <= s.distance_tolerance;
}

}  // namespace

bool Sleep::any() const {
  return std::any_of(island_of_block.begin(), island_of_block.end(), [](int k) { return k >= 0; });
}

Sleep make_sleep(const Model& model, const ContactModel& contacts, const ContactSettings& settings) {
  Sleep s;
  s.enabled = settings.sleep && settings.detect_rest && model.nv >= kBlockwiseFrom;
  const std::vector<VelocityBlock> blocks = mass_blocks(model);
  s.block_of_body.resize(model.bodies.size());
  for (size_t b = 0; b < model.bodies.size(); ++b) s.block_of_body[b] = block_of(model, blocks, static_cast<int>(b));
  s.island_of_block.assign(blocks.size(), -1);
  s.island_of_contact.assign(static_cast<size_t>(contacts.size()), -1);
  return s;
}

bool dormant(const ContactModel& contacts, const Sleep& sleep, int i) {
  return sleep.enabled && side_still(sleep, contacts.contact(i).body_a) && side_still(sleep, contacts.body_b(i));
}

void moving_contacts(const ContactModel& contacts, const Sleep& sleep, const std::vector<int>& near, std::vector<int>& out) {
  out.clear();
  for (int i : near)
    if (!dormant(contacts, sleep, i)) out.push_back(i);
}

void awake_closed(const ContactModes& modes, const Sleep& sleep, std::vector<int>& out) {
  closed_list(modes, out);
  if (sleep.enabled) std::erase_if(out, [&](int i) { return sleep.island_of_contact[i] >= 0; });
}

void zero_sleeping(const std::vector<VelocityBlock>& blocks, const Sleep& sleep, Eigen::Ref<Eigen::VectorXd> v) {
  if (!sleep.enabled) return;
  for (size_t b = 0; b < blocks.size(); ++b)
    if (sleep.island_of_block[b] >= 0) v.segment(blocks[b].start, blocks[b].size).setZero();
}

void zero_islands(const std::vector<VelocityBlock>& blocks, const IslandList& islands, Eigen::Ref<Eigen::VectorXd> v) {
  for (const std::vector<int>& island : islands.blocks)
    for (int b : island) v.segment(blocks[b].start, blocks[b].size).setZero();
}

IslandList resting_islands(const ContactSettings& settings, double time_left, const BodyDynamics& body,
                           const ContactJacobians& jac, const std::vector<int>& closed,
                           Eigen::Ref<const Eigen::VectorXd> v, Eigen::Ref<const Eigen::VectorXd> vdot,
                           const Sleep& sleep) {
  IslandList out;
  if (!sleep.enabled || closed.empty() || !(time_left > 0)) return out;
  const std::vector<VelocityBlock>& blocks = body.M_llt.blocks();
  std::vector<bool> rests(blocks.size(), false);
  bool some = false;
  for (size_t b = 0; b < blocks.size(); ++b)
    some = (rests[b] = sleep.island_of_block[b] < 0 && block_rests(settings, time_left, blocks[b], v, vdot)) || some;
  if (!some) return out;  // the common case while anything moves: no island is looked at
  const ContactIslands islands = contact_islands(body, jac, closed);
  for (size_t k = 0; k < islands.blocks.size(); ++k) {
    const std::vector<int>& island_blocks = islands.blocks[k];
    if (!std::all_of(island_blocks.begin(), island_blocks.end(), [&](int b) { return rests[b]; })) continue;
    out.blocks.push_back(island_blocks);
    out.contacts.push_back(members(closed, islands.contacts[k]));
  }
  return out;
}

std::vector<int> fall_asleep(const ContactSettings& settings, double time_left, const std::vector<VelocityBlock>& blocks,
                             const IslandList& islands, Eigen::Ref<const Eigen::VectorXd> v,
                             Eigen::Ref<const Eigen::VectorXd> vdot, Sleep& sleep) {
  std::vector<int> asleep;
  for (size_t k = 0; k < islands.blocks.size(); ++k) {
    const std::vector<int>& island_blocks = islands.blocks[k];
    if (!std::all_of(island_blocks.begin(), island_blocks.end(),
                     [&](int b) { return block_rests(settings, time_left, blocks[b], v, vdot); }))
      continue;
    const int id = sleep.next_island++;
    for (int b : island_blocks) sleep.island_of_block[b] = id;
    for (int i : islands.contacts[k]) {
      sleep.island_of_contact[i] = id;
      asleep.push_back(i);
    }
  }
  std::sort(asleep.begin(), asleep.end());
  return asleep;
}

std::vector<int> wake_reached(const std::vector<VelocityBlock>& blocks, const std::vector<bool>& reached,
                              const Eigen::VectorXd& v, Sleep& sleep) {
  std::vector<int> woken;
  if (!sleep.enabled) return woken;
  std::vector<bool> wake(static_cast<size_t>(sleep.next_island), reached.empty());
  for (size_t i = 0; i < sleep.island_of_contact.size() && !reached.empty(); ++i)
    if (sleep.island_of_contact[i] >= 0 && reached[i]) wake[sleep.island_of_contact[i]] = true;
  for (size_t b = 0; b < blocks.size(); ++b)
    if (sleep.island_of_block[b] >= 0 && (v.segment(blocks[b].start, blocks[b].size).array() != 0.0).any())
      wake[sleep.island_of_block[b]] = true;
  for (int& k : sleep.island_of_block)
    if (k >= 0 && wake[k]) k = -1;
  for (size_t i = 0; i < sleep.island_of_contact.size(); ++i) {
    int& k = sleep.island_of_contact[i];
    if (k >= 0 && wake[k]) {
      k = -1;
      woken.push_back(static_cast<int>(i));
    }
  }
  return woken;
}

}  // namespace impactsim
