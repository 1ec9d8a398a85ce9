#include "app/batch_identity.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace impactsim {

void write_batch_identity(const std::filesystem::path& dir, const BatchIdentity& b) {
  const nlohmann::ordered_json j = {{"scene", b.scene}, {"scene_sha256", b.scene_sha256}, {"law", b.law},
                                    {"seed", b.seed},   {"runs", b.runs},                 {"first", b.first},
                                    {"count", b.count}, {"columns", b.columns}};
  const std::filesystem::path path = dir / "batch.json";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << j.dump(2) << '\n';
  if (!out.flush()) throw std::runtime_error(path.string() + ": cannot write the batch's identity");
}

std::optional<BatchIdentity> read_batch_identity(const std::filesystem::path& dir, std::string& error) {
  const std::filesystem::path path = dir / "batch.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path.string() + ": missing (a batch directory holds batch.json beside runs.csv)";
    return std::nullopt;
  }
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    BatchIdentity b;
    b.scene = j.at("scene").get<std::string>();
    b.scene_sha256 = j.at("scene_sha256").get<std::string>();
    b.law = j.at("law").get<std::string>();
    b.seed = j.at("seed").get<unsigned long long>();
    b.runs = j.at("runs").get<long>();
    b.first = j.at("first").get<long>();
    b.count = j.at("count").get<long>();
    b.columns = j.at("columns").get<std::string>();
    if (b.runs < 0 || b.first < 0 || b.count < 0 || b.first > b.runs || b.count > b.runs - b.first)
      throw std::invalid_argument("the slice is outside 0..runs-1");
    return b;
  } catch (const std::exception& e) {
    error = path.string() + ": not a batch identity (" + e.what() + ")";
    return std::nullopt;
  }
}

std::string batch_difference(const BatchIdentity& a, const BatchIdentity& b) {
  std::ostringstream s;
  if (a.scene_sha256 != b.scene_sha256) s << "scene text " << a.scene << " (was " << b.scene << ", another text); ";
  if (a.law != b.law) s << "law " << a.law << " (was " << b.law << "); ";
  if (a.seed != b.seed) s << "seed " << a.seed << " (was " << b.seed << "); ";
  if (a.runs != b.runs) s << "runs " << a.runs << " (was " << b.runs << "); ";
  if (a.columns != b.columns) s << "columns; ";
  std::string out = s.str();
  if (!out.empty()) out.resize(out.size() - 2);
  return out;
}

}  // namespace impactsim
