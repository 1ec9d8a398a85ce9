// Fuzz target of the scene loader: any text either loads or is refused with a SceneError. Anything
// else (another exception, a crash, a hang, a sanitizer report) is a defect. Built for libFuzzer by
// tools/fuzz.sh; ctest replays the seed corpus and every input that once failed (replay_main.cpp).
#include <cstddef>
#include <cstdint>
#include <string>

#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    impactsim::load_scene_text(text, "fuzz.yaml");
  } catch (const impactsim::SceneError&) {
    // The expected answer to a malformed scene.
  }
  return 0;
}
