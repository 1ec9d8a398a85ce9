#pragma once
// Strict, located access to a YAML document. A Field is one node together with its key path
// ("bodies[1].joint.type") and the place it came from, so every error names file, line, column and
// key. Missing keys are reported at their parent's position.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/spatial.hpp"

namespace impactsim {

// A problem with a scene file. what() is "file:line:column: key.path: message".
class SceneError : public std::runtime_error {
 public:
  SceneError(std::string file, int line, int column, std::string key, std::string message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }      // 1-based, 0 if unknown
  int column() const { return column_; }  // 1-based, 0 if unknown
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_, key_, message_;
  int line_, column_;
};

class Field {
 public:
  Field(const std::string& file, YAML::Node node, std::string path);
  Field(const Field&) = default;
  Field(Field&&) = default;
  // Assigning a YAML::Node rebinds the shared document node, so Fields are never assigned.
  Field& operator=(const Field&) = delete;
  Field& operator=(Field&&) = delete;

  const std::string& path() const { return path_; }
  bool defined() const { return node_.IsDefined() && !node_.IsNull(); }
  bool is_map() const { return node_.IsMap(); }
  bool is_sequence() const { return node_.IsSequence(); }

  [[noreturn]] void fail(const std::string& message) const;

  // Map access. child() of a missing key is an undefined Field located at this node.
  Field child(const std::string& key) const;
  Field require(const std::string& key) const;
  bool has(const std::string& key) const { return child(key).defined(); }
  // Requires a map and rejects unknown and duplicate keys.
  void expect_map(std::initializer_list<std::string_view> allowed) const;
  void expect_map(const std::vector<std::string>& allowed) const;
  std::vector<std::string> keys() const;

  // Sequence access.
  std::vector<Field> elements() const;

  // Scalars. Numbers must be finite, plain (not quoted or tagged as strings) and at most
  // kMaxNumberText characters long.
  double number() const;
  // A length or position [m] within kMaxCoordinate of the origin: the broadphase's bounds and the
  // event loop's tolerances (1e-6 m by default, double precision) hold there.
  double coordinate() const;
  Vec3 position() const;
  double positive() const;
  double non_negative() const;
  long integer() const;  // a whole number of magnitude at most 9e15
  long integer_in(long lo, long hi) const;
  bool boolean() const;
  std::string text() const;
  Vec3 vec3() const;
  std::vector<double> numbers() const;

  double number_or(const std::string& key, double fallback) const;
  Vec3 vec3_or(const std::string& key, const Vec3& fallback) const;

 private:
  Field(const std::string& file, YAML::Node node, std::string path, YAML::Mark mark);

  const std::string* file_;
  YAML::Node node_;
  std::string path_;
  YAML::Mark mark_;
};

constexpr double kMaxCoordinate = 1e6;  // [m]
constexpr size_t kMaxNumberText = 100;

// Names become CSV columns, file and directory names: 1 to kMaxNameLength characters, letters,
// digits, '_' and the characters of `extra`, not starting with a digit unless digit_first. A plain
// scan: std::regex recursed once per character and overflowed the stack on long names.
constexpr size_t kMaxNameLength = 100;
bool valid_name(std::string_view s, std::string_view extra = "", bool digit_first = false);
// A name rule, as a message says it: `what` followed by the length bound.
std::string name_rule(const std::string& what);

// One of a fixed set of words: "expected a, b or c, found 'x'" otherwise.
std::string choose_word(const Field& f, const std::vector<std::string>& words);

// One of a fixed set of words, as its enum value.
template <class E>
E choose(const Field& f, std::initializer_list<std::pair<const char*, E>> options) {
  std::vector<std::string> words;
  for (const auto& option : options) words.emplace_back(option.first);
  const std::string word = choose_word(f, words);
  for (const auto& [name, value] : options)
    if (word == name) return value;
  return options.begin()->second;  // not reached: choose_word accepted one of them
}

// The text of a scene file: a regular file of at most kMaxSceneBytes (a pipe or a device would
// never end). SceneError otherwise.
constexpr std::uintmax_t kMaxSceneBytes = 16u << 20;
std::string read_scene_file(const std::string& path);

// A file a scene names (a mesh, a URDF): `file` as written, relative to the directory of the file
// naming it (`from`) unless absolute.
std::string path_beside(const std::string& file, const std::string& from);

// "" when `path` is a regular file of at most max_bytes, else why not, naming the file as a `what`
// file: "no such mesh file 'p'", "'p' is not a regular file", "'p' is larger than 64 MiB".
std::string file_problem(const std::string& path, const std::string& what, std::uintmax_t max_bytes);

// Parses a whole YAML file (or text) of one document; syntax errors and a second document become
// SceneErrors ("`holder` holds one YAML document; this one has more than one").
YAML::Node parse_yaml_file(const std::string& path);
YAML::Node parse_yaml_text(const std::string& text, const std::string& name, const std::string& holder = "a scene file");

}  // namespace impactsim
