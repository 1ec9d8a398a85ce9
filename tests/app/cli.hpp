#pragma once
// Running the impactsim executable from the app tests: its exit code and output, a fresh
// directory per test (ctest runs tests in parallel processes), the shipped and the bad scenes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace impactsim::testing {

namespace fs = std::filesystem;

struct Result {
  int code;
  std::string out, err;
};

inline std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// The directories this test process made; removed when it exits, unless a test failed (then they
// are kept to look at). Every ctest run used to leave a few hundred behind in the temp directory.
struct MadeDirs {
  std::vector<fs::path> dirs;
  MadeDirs() = default;
  MadeDirs(const MadeDirs&) = delete;
  MadeDirs& operator=(const MadeDirs&) = delete;
  ~MadeDirs() {
    // Made on first use, after gtest's UnitTest instance, so destroyed before it.
    if (::testing::UnitTest::GetInstance()->Failed()) return;
    std::error_code ignored;
    for (const fs::path& d : dirs) fs::remove_all(d, ignored);
  }
};

inline MadeDirs& made_dirs() {
  static MadeDirs made;
  return made;
}

// An empty directory of this test's own, named `name`.
inline fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("impactsim_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  made_dirs().dirs.push_back(dir);
  return dir;
}

// The same, not created (for commands that must create it themselves).
inline fs::path fresh_path(const std::string& name) {
  const fs::path dir = fresh_dir(name);
  fs::remove_all(dir);
  return dir;
}

// A shell command line whose last command's stdout and stderr are captured.
inline Result shell(const std::string& command) {
  static int calls = 0;
  const fs::path dir =
      fresh_dir(std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_io" + std::to_string(calls++));
  const std::string cmd = command + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_all(dir / "out"), read_all(dir / "err")};
}

// `impactsim ARGS`, its stdout and stderr captured.
inline Result impactsim(const std::string& args) { return shell(std::string(IMPACTSIM_BINARY) + " " + args); }

inline std::string scene(const std::string& name) { return std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name; }
inline std::string bad(const std::string& name) { return std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/bad/" + name; }

// The cells of a CSV line (or of a cell's `;`-separated list); a trailing empty cell is kept.
inline std::vector<std::string> split(const std::string& line, char separator = ',') {
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string cell; std::getline(s, cell, separator);) out.push_back(cell);
  if (!line.empty() && line.back() == separator) out.push_back("");
  return out;
}

// The lines of a text, without their newlines.
inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream s(text);
  for (std::string line; std::getline(s, line);) out.push_back(line);
  return out;
}

// The offset just past the n-th newline of text (its first n lines), or text.size() if it has fewer.
inline size_t nth_line_end(const std::string& text, int n) {
  size_t end = 0;
  for (int k = 0; k < n && end < text.size(); ++k) {
    const size_t nl = text.find('\n', end);
    if (nl == std::string::npos) return text.size();
    end = nl + 1;
  }
  return end;
}

// A CSV text's rows as maps from its header's names to cells (no quoted cells).
inline std::vector<std::map<std::string, std::string>> csv_rows(const std::string& csv) {
  const std::vector<std::string> lines = split_lines(csv);
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) return rows;
  const std::vector<std::string> header = split(lines[0]);
  for (size_t k = 1; k < lines.size(); ++k) {
    const std::vector<std::string> cells = split(lines[k]);
    EXPECT_EQ(cells.size(), header.size()) << lines[k];
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < header.size() && c < cells.size(); ++c) row[header[c]] = cells[c];
    rows.push_back(row);
  }
  return rows;
}

// coin_spin tilted 15 degrees, spun at 20 rad/s about the vertical, not randomized: at t = 0.6006 s
// a Zeno close over its curved contact and the rim point beside it (nearly dependent rows) removes
// 0.0037 J, 3.45e8 times what stopping each row alone would, through large opposite friction
// impulses (its normal impulses push).
inline fs::path coin_with_a_dependent_close() {
  const fs::path path = fresh_dir("dependent_coin") / "coin.yaml";
  std::string text = read_all(scene("coin_spin.yaml"));
  const std::string initial = "initial: {z: 0.0294, rpy_deg: [30, 0, 0], wy: 10, wz: 17.3}";
  const std::string randomize = "randomize:\n  coin.wz: {uniform: [15, 20]}\n";
  text.replace(text.find(initial), initial.size(),
               "initial: {z: 0.01784058138657138, rpy_deg: [15, 0, 0], wy: 5.176380902050415, wz: 19.318516525781366}");
  text.replace(text.find(randomize), randomize.size(), "");
  // The close was found with every slide following its slip; a held slow slip takes another path.
  const std::string law = "  law: anitescu-potra\n";
  text.replace(text.find(law), law.size(), law + "  contact: {slow_slip_speed: 0}\n");
  write_file(path, text);
  return path;
}

}  // namespace impactsim::testing
