#pragma once
// Islands at rest, frozen until an event reaches them: Box2D's, Bullet's and PhysX's sleeping, with
// the event loop's exact wake-up.
//
// A contact island (contact_islands: closed contacts joined through the trees they move) whose
// velocities and accelerations pass at_rest's test over the time left (core/event_handling.hpp:
// nothing it does could move a contact by the tolerances before t_end) is a fixed point of the
// phase's ODE. It falls asleep: its velocities are set to zero (a change at_rest's test bounds), its
// closed contacts keep their modes but leave the set whose forces each evaluation solves, its
// accelerations are zero, and no guard between two of its bodies (or one and the world) is read. A
// pile whose first bodies have settled while others still land costs per evaluation what its moving
// islands cost. It wakes where an event reaches it (core/settled_islands.hpp: a guard of a contact
// with one of its bodies fired, an impact changed its velocities, the mode choice took it into an
// island the event reached), and before a Painleve step, which moves every body. Gravity is the
// only force the model has that acts without a contact, so nothing else can move a resting island.
// Taken from kBlockwiseFrom velocities on, as settled islands are: a small model's outputs stay
// what they were.
#include <vector>

#include <Eigen/Core>

#include "collision/contact.hpp"
#include "core/contact_data.hpp"
#include "core/contact_forces.hpp"
#include "core/model.hpp"

namespace impactsim {

// Which bodies, blocks of M and closed contacts sleep. Plain data, kept by the event loop.
struct Sleep {
  bool enabled = false;
  std::vector<int> block_of_body;      // each body's block of M; -1: welded to the world
  std::vector<int> island_of_block;    // -1: awake; else the sleeping island it belongs to
  std::vector<int> island_of_contact;  // -1; else the sleeping island whose closed contact it is
  int next_island = 0;
  bool any() const;
  bool contact_asleep(int i) const { return !island_of_contact.empty() && island_of_contact[i] >= 0; }
};

// Contact islands: each one's contacts and M's blocks.
struct IslandList {
  std::vector<std::vector<int>> contacts, blocks;
};

// The model's sleep state, all awake; enabled where settings.sleep, settings.detect_rest and the
// model has kBlockwiseFrom velocities or more.
Sleep make_sleep(const Model& model, const ContactModel& contacts, const ContactSettings& settings);

// Both of contact i's bodies are asleep or welded to the world: nothing moves it.
bool dormant(const ContactModel& contacts, const Sleep& sleep, int i);

// The contacts of `near` that something moves (not dormant), into out: those that have guards.
void moving_contacts(const ContactModel& contacts, const Sleep& sleep, const std::vector<int>& near, std::vector<int>& out);

// The closed contacts of `modes` that are awake, ascending: the set each evaluation solves.
void awake_closed(const ContactModes& modes, const Sleep& sleep, std::vector<int>& out);

// v (or an acceleration) zero over the sleeping blocks.
void zero_sleeping(const std::vector<VelocityBlock>& blocks, const Sleep& sleep, Eigen::Ref<Eigen::VectorXd> v);
// v zero over the islands' blocks.
void zero_islands(const std::vector<VelocityBlock>& blocks, const IslandList& islands, Eigen::Ref<Eigen::VectorXd> v);

// The islands of the awake closed contacts `closed` at rest at (v, vdot) over the time left,
// t_end - t: every velocity and acceleration of their blocks within at_rest's bounds. body: M's
// blocks; jac: the columns of `closed`.
IslandList resting_islands(const ContactSettings& settings, double time_left, const BodyDynamics& body,
                           const ContactJacobians& jac, const std::vector<int>& closed,
                           Eigen::Ref<const Eigen::VectorXd> v, Eigen::Ref<const Eigen::VectorXd> vdot,
                           const Sleep& sleep);

// The `islands` still at rest at (v, vdot) (their velocities zeroed, their accelerations those the
// phase would then have: Baumgarte's pull on their last drift alone) fall asleep in `sleep`.
// Returns their contacts, ascending (empty: none).
std::vector<int> fall_asleep(const ContactSettings& settings, double time_left, const std::vector<VelocityBlock>& blocks,
                             const IslandList& islands, Eigen::Ref<const Eigen::VectorXd> v,
                             Eigen::Ref<const Eigen::VectorXd> vdot, Sleep& sleep);

// Wakes every sleeping island that has a contact flagged in `reached` (empty: every island), or a
// block whose velocity in v is not zero. Returns the contacts woken, ascending.
std::vector<int> wake_reached(const std::vector<VelocityBlock>& blocks, const std::vector<bool>& reached,
                              const Eigen::VectorXd& v, Sleep& sleep);

}  // namespace impactsim
