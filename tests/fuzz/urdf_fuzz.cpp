// Fuzz target of the URDF reader: any text given as a scene's robot.urdf either loads or is refused
// with a SceneError naming the URDF. Anything else (another exception, a crash, a hang, a sanitizer
// report) is a defect: 100,000 nested elements once overflowed the XML parser's stack.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace {

// A directory of this process's own holding the scene that names robot.urdf, removed at exit
// (declared after the path, so destroyed before it).
const std::filesystem::path kDir =
    std::filesystem::temp_directory_path() / ("impactsim_urdf_fuzz_" + std::to_string(::getpid()));

struct WorkDir {
  WorkDir() {
    std::filesystem::create_directories(kDir);
    std::ofstream(kDir / "scene.yaml") << "robot: {urdf: robot.urdf, base: free}\nsimulation: {t_end: 1}\n";
  }
  ~WorkDir() {
    std::error_code ignored;
    std::filesystem::remove_all(kDir, ignored);
  }
} work_dir;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::ofstream(kDir / "robot.urdf", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    impactsim::load_scene((kDir / "scene.yaml").string());
  } catch (const impactsim::SceneError&) {
    // The expected answer to a malformed URDF.
  }
  return 0;
}
