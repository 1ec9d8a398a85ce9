#include "scenes/yaml_field.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

#include "numerics/short_number.hpp"

namespace impactsim {
namespace {

std::string located(const std::string& file, int line, int column, const std::string& key,
                    const std::string& message) {
  std::ostringstream s;
  s << file;
  if (line > 0) s << ':' << line << ':' << column;
  s << ": ";
  if (!key.empty()) s << key << ": ";
  s << message;
  return s.str();
}

std::string kind_of(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar:
      if (n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str") return "the string \"" + n.Scalar() + "\"";
      return "'" + n.Scalar() + "'";
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Undefined: return "nothing";
  }
  return "?";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

SceneError::SceneError(std::string file, int line, int column, std::string key, std::string message)
    : std::runtime_error(located(file, line, column, key, message)), file_(std::move(file)),
      key_(std::move(key)), message_(std::move(message)), line_(line), column_(column) {}

Field::Field(const std::string& file, YAML::Node node, std::string path)
    : Field(file, node, std::move(path), node.IsDefined() ? node.Mark() : YAML::Mark::null_mark()) {}

Field::Field(const std::string& file, YAML::Node node, std::string path, YAML::Mark mark)
    : file_(&file), node_(std::move(node)), path_(std::move(path)), mark_(mark) {}

void Field::fail(const std::string& message) const {
  const bool known = mark_.line >= 0;
  throw SceneError(*file_, known ? mark_.line + 1 : 0, known ? mark_.column + 1 : 0, path_, message);
}

// A missing key yields an undefined Field placed at this node, so errors point at the parent.
Field Field::child(const std::string& key) const {
  std::string path = path_.empty() ? key : path_ + "." + key;
  if (node_.IsMap()) {
    const YAML::Node& self = node_;  // const access never inserts the key
    const YAML::Node value = self[key];
    if (value.IsDefined()) return Field(*file_, value, std::move(path), value.Mark());
  }
  return Field(*file_, YAML::Node(YAML::NodeType::Undefined), std::move(path), mark_);
}

Field Field::require(const std::string& key) const {
  Field f = child(key);
  if (!f.defined()) f.fail("missing required key '" + key + "'");
  return f;
}

void Field::expect_map(std::initializer_list<std::string_view> allowed) const {
  expect_map(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void Field::expect_map(const std::vector<std::string>& allowed) const {
  if (!node_.IsMap()) fail("expected a map of keys (" + join(allowed) + "), found " + kind_of(node_));
  std::set<std::string> seen;
  for (const auto& kv : node_) {
    const std::string key = kv.first.Scalar();
    Field at(*file_, kv.first, path_.empty() ? key : path_ + "." + key);
    if (seen.count(key)) at.fail("duplicate key '" + key + "'");
    seen.insert(key);
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == key;
    if (!ok) at.fail("unknown key '" + key + "' (allowed here: " + join(allowed) + ")");
    // `key:` or `key: ~` once silently meant the default.
    if (kv.second.IsNull()) at.fail("has no value (give one, or leave the key out for its default)");
  }
}

std::vector<std::string> Field::keys() const {
  std::vector<std::string> out;
  if (node_.IsMap())
    for (const auto& kv : node_) out.push_back(kv.first.Scalar());
  return out;
}

std::vector<Field> Field::elements() const {
  if (!node_.IsSequence()) fail("expected a list, found " + kind_of(node_));
  std::vector<Field> out;
  for (size_t i = 0; i < node_.size(); ++i)
    out.emplace_back(*file_, node_[i], path_ + "[" + std::to_string(i) + "]");
  return out;
}

// Strict: plain (unquoted) scalars that strtod consumes whole; YAML's .nan and .inf are refused.
double Field::number() const {
  // A plain scalar has the non-specific tag "?", a quoted one "!"; an explicit tag must be a number's.
  const std::string& tag = node_.Tag();
  const bool number_tag = tag == "?" || tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:int";
  if (!node_.IsScalar() || !number_tag) fail("expected a number, found " + kind_of(node_));
  const std::string& s = node_.Scalar();
  if (s.size() > kMaxNumberText)
    fail("expected a number of at most " + std::to_string(kMaxNumberText) + " characters, found one of " +
         std::to_string(s.size()));
  std::string bare;
  for (char c : s)
    if (c != '+' && c != '-' && c != '.') bare += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (bare == "nan" || bare == "inf" || bare == "infinity") fail("must be a finite number, found '" + s + "'");
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0') fail("expected a number, found " + kind_of(node_));
  if (errno == ERANGE || !std::isfinite(value)) fail("must be a finite number, found '" + s + "'");
  return value;
}

double Field::coordinate() const {
  const double x = number();
  if (!(std::abs(x) <= kMaxCoordinate))
    fail("must be within " + short_number(kMaxCoordinate) + " m of the origin (a scene is at most " +
         short_number(2 * kMaxCoordinate / 1000) + " km across), found " + node_.Scalar());
  return x;
}

Vec3 Field::position() const {
  const std::vector<Field> e = elements();
  if (e.size() != 3) fail("expected a list of 3 numbers, found " + std::to_string(e.size()) + " entries");
  return Vec3(e[0].coordinate(), e[1].coordinate(), e[2].coordinate());
}

double Field::positive() const {
  const double x = number();
  if (!(x > 0)) fail("must be positive, found " + node_.Scalar());
  return x;
}

double Field::non_negative() const {
  const double x = number();
  if (x < 0) fail("must not be negative, found " + node_.Scalar());
  return x;
}

std::string choose_word(const Field& f, const std::vector<std::string>& words) {
  const std::string word = f.text();
  for (const std::string& w : words)
    if (word == w) return word;
  std::string expected = words[0];
  for (size_t k = 1; k < words.size(); ++k) expected += (k + 1 == words.size() ? " or " : ", ") + words[k];
  f.fail("expected " + expected + ", found '" + word + "'");
}

long Field::integer() const {
  const double x = number();
  if (std::floor(x) != x || std::abs(x) > 9e15) fail("expected a whole number, found " + node_.Scalar());
  return static_cast<long>(x);
}

long Field::integer_in(long lo, long hi) const {
  const long x = integer();
  if (x < lo || x > hi)
    fail("must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", found " + node_.Scalar());
  return x;
}

bool Field::boolean() const {
  if (node_.IsScalar() && node_.Tag() != "!") {
    if (node_.Scalar() == "true") return true;
    if (node_.Scalar() == "false") return false;
  }
  fail("expected true or false, found " + kind_of(node_));
}

std::string Field::text() const {
  if (!node_.IsScalar()) fail("expected a string, found " + kind_of(node_));
  return node_.Scalar();
}

std::vector<double> Field::numbers() const {
  std::vector<double> out;
  for (const Field& e : elements()) out.push_back(e.number());
  return out;
}

Vec3 Field::vec3() const {
  const std::vector<Field> e = elements();
  if (e.size() != 3) fail("expected a list of 3 numbers, found " + std::to_string(e.size()) + " entries");
  return Vec3(e[0].number(), e[1].number(), e[2].number());
}

double Field::number_or(const std::string& key, double fallback) const {
  const Field f = child(key);
  return f.defined() ? f.number() : fallback;
}

Vec3 Field::vec3_or(const std::string& key, const Vec3& fallback) const {
  const Field f = child(key);
  return f.defined() ? f.vec3() : fallback;
}

bool valid_name(std::string_view s, std::string_view extra, bool digit_first) {
  if (s.empty() || s.size() > kMaxNameLength) return false;
  if (!digit_first && std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && extra.find(c) == std::string_view::npos) return false;
  return true;
}

std::string name_rule(const std::string& what) {
  return what + " (at most " + std::to_string(kMaxNameLength) + " characters)";
}

namespace {

// Marks where each YAML document of a stream starts; ignores everything else.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Refuses a stream of more than one document. YAML::LoadAll is not used: in yaml-cpp 0.7 a stray
// ',' at the top level makes it loop for ever, adding a null document per turn without consuming
// the token (yaml-cpp issue 1040, fixed upstream by pull request 1319). Here the parser is asked
// for at most three documents, and one that starts where the previous one did is that stuck token.
void check_single_document(const std::string& text, const std::string& name, const std::string& holder) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts documents;
  while (documents.starts.size() < 3 && parser.HandleNextDocument(documents)) {
    const auto& s = documents.starts;
    if (s.size() >= 2 && s[s.size() - 1].pos == s[s.size() - 2].pos) {
      const YAML::Mark m = s.back();
      const char c = m.pos >= 0 && static_cast<std::size_t>(m.pos) < text.size() ? text[m.pos] : '?';
      throw SceneError(name, m.line + 1, m.column + 1, "",
                       std::string("YAML syntax error: unexpected '") + c + "' outside any list or map");
    }
  }
  if (documents.starts.size() > 1) {
    const YAML::Mark m = documents.starts[1];
    throw SceneError(name, m.line + 1, m.column + 1, "",
                     holder + " holds one YAML document; this one has more than one");
  }
}

}  // namespace

YAML::Node parse_yaml_text(const std::string& text, const std::string& name, const std::string& holder) {
  try {
    check_single_document(text, name, holder);
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw SceneError(name, e.mark.line + 1, e.mark.column + 1, "", "YAML syntax error: " + e.msg);
  }
}

std::string read_scene_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw SceneError(path, 0, 0, "", "cannot open the scene file (does it exist and is it readable?)");
  if (!std::filesystem::is_regular_file(status))
    throw SceneError(path, 0, 0, "", "not a regular file (a scene is a YAML file, not a directory, pipe or device)");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxSceneBytes)
    throw SceneError(path, 0, 0, "", "the scene file is larger than " + std::to_string(kMaxSceneBytes >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path, 0, 0, "", "cannot open the scene file (does it exist and is it readable?)");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw SceneError(path, 0, 0, "", "cannot read the scene file");
  return buffer.str();
}

std::string path_beside(const std::string& file, const std::string& from) {
  const std::filesystem::path given(file);
  return given.is_absolute() ? file : (std::filesystem::path(from).parent_path() / given).string();
}

std::string file_problem(const std::string& path, const std::string& what, std::uintmax_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return "no such " + what + " file '" + path + "'";
  if (!std::filesystem::is_regular_file(path, ec)) return "'" + path + "' is not a regular file";
  if (std::filesystem::file_size(path, ec) > max_bytes)
    return "'" + path + "' is larger than " + std::to_string(max_bytes >> 20) + " MiB";
  return "";
}

YAML::Node parse_yaml_file(const std::string& path) { return parse_yaml_text(read_scene_file(path), path); }

}  // namespace impactsim
