// Replays inputs through the fuzz target without libFuzzer: every file named on the command line,
// and every file in each directory named. Exits non-zero (or crashes, under the sanitizers) on
// the first input the loader mishandles.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int k = 1; k < argc; ++k) {
    if (fs::is_directory(argv[k])) {
      for (const auto& entry : fs::directory_iterator(argv[k]))
        if (entry.is_regular_file()) inputs.push_back(entry.path());
    } else {
      inputs.emplace_back(argv[k]);
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs\n");
    return 2;
  }
  for (const fs::path& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
      return 2;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "replay: %s: the loader threw something other than a SceneError: %s\n", path.c_str(),
                   e.what());
      return 1;
    }
  }
  std::printf("replay: %zu inputs, each loaded or refused with a SceneError\n", inputs.size());
  return 0;
}
