#pragma once
// The shipped bouncing ball touching the ground, with what an event needs around it: for the tests
// of the event stages (core/event_sets.hpp, core/impacts.hpp, core/event_handling.hpp).
#include <string>
#include <vector>

#include "core/event_handling.hpp"
#include "scenes/scene.hpp"
#include "scenes/scene_overrides.hpp"

namespace impactsim::testing {

// The shipped bouncing ball (e = 0.9, mu = 0.5, radius 0.1), touching the ground with velocity v.
struct Ball {
  explicit Ball(std::vector<SceneOverride> overrides = {})
      : scene(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/bouncing_ball.yaml", overrides)) {
    q(2) = 0.1;  // on the ground
  }
  Scene scene;
  const System& sys = scene.system;
  ContactData data{sys.model, sys.contacts};
  ModeForces forces;
  ContactModes modes = ContactModes::all_open(1);
  std::vector<Event> events;
  EventLog log = [this](const Event& e) { events.push_back(e); };
  Eigen::VectorXd q = scene.initial.q;
};

}  // namespace impactsim::testing
