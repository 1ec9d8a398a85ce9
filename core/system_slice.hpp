#pragma once
// A system cut down to some of its trees: their bodies, the world's geometries, and the contacts
// among them (contacts to a body left out are dropped). An island on its own clock
// (core/island_clocks.hpp) runs one. Indices map back: body, q, v and contact of the slice to
// those of the whole system. Plain data.
#include <vector>

#include <Eigen/Core>

#include "core/system.hpp"

namespace impactsim {

struct SystemSlice {
  System system;
  std::vector<int> bodies;    // the slice's body i is the whole system's bodies[i] (ascending)
  std::vector<int> contacts;  // the slice's contact i is the whole system's contacts[i]
  std::vector<int> q_index;   // per entry of the slice's q, the entry of the whole q
  std::vector<int> v_index;   // per entry of the slice's v, the entry of the whole v
};

// Per body, the contacts it takes part in (ascending): what slice_system reads instead of every
// contact, so that slicing costs what the slice holds.
std::vector<std::vector<int>> contacts_by_body(const System& sys);

// The slice of `sys` to `bodies` (ascending; every one a root, parent -1), by_body from
// contacts_by_body(sys). Settings are copied, pins (fixed-step only) dropped; a contact gated by
// one left out (only_ahead_of) loses its gate.
SystemSlice slice_system(const System& sys, const std::vector<int>& bodies,
                         const std::vector<std::vector<int>>& by_body);

// The slice's state (q then v) out of the whole system's x, and back into it.
void gather_state(const SystemSlice& slice, const System& whole, const Eigen::VectorXd& x, Eigen::VectorXd& out);
void scatter_state(const SystemSlice& slice, const System& whole, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   Eigen::VectorXd& x);

}  // namespace impactsim
