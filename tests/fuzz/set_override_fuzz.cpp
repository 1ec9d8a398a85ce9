// Fuzz target of `--set`: an override applied to a shipped scene either is refused with a
// SceneError or gives a scene whose first instants run or stop with a SimulationError. Anything
// else (another exception, a crash, a hang, a sanitizer report) is a defect: a coordinate of 1e308
// once escaped as an uncaught exception from deep in the event loop.
//
// Input: the scene's file name in scenes/ on the first line (another first line picks a scene by
// its bytes), then KEY=VALUE as --set takes it (the rest of the input, newlines included).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "core/simulate.hpp"
#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace {

const std::string kScenes = IMPACTSIM_SOURCE_DIR "/scenes/";

const std::vector<std::string>& scene_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(kScenes))
      if (entry.path().extension() == ".yaml") found.push_back(entry.path().filename().string());
    std::sort(found.begin(), found.end());
    return found;
  }();
  return names;
}

std::string scene_of(const std::string& first_line) {
  const auto& names = scene_names();
  if (std::find(names.begin(), names.end(), first_line) != names.end()) return first_line;
  const unsigned sum = std::accumulate(first_line.begin(), first_line.end(), 0u,
                                       [](unsigned s, char c) { return s + static_cast<unsigned char>(c); });
  return names[sum % names.size()];
}

// The first instants only: the faults this target looks for show at once, and a fuzzer needs
// thousands of inputs a second.
void run_briefly(impactsim::Scene& scene) {
  impactsim::SimulationSettings& settings = scene.system.simulation;
  settings.t_end = std::min(settings.t_end, 0.01);
  settings.max_steps = std::min(settings.max_steps, 2000L);
  const auto law = impactsim::make_law(scene.law, scene.laws);
  impactsim::Rng rng(scene.seed);
  impactsim::RunCallbacks callbacks;
  callbacks.sample = [](const impactsim::Sample&) {};
  impactsim::simulate(scene.system, *law, scene.initial, rng, callbacks);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  const size_t newline = text.find('\n');
  if (newline == std::string::npos) return 0;
  const std::string scene_file = kScenes + scene_of(text.substr(0, newline));
  try {
    impactsim::Scene scene = impactsim::load_scene(scene_file, {impactsim::parse_override(text.substr(newline + 1))});
    run_briefly(scene);
  } catch (const impactsim::SceneError&) {
    // The expected answer to a malformed override.
  } catch (const impactsim::SimulationError&) {
    // A run may stop: too many steps, a state that is not finite, a stall.
  }
  return 0;
}
