#pragma once
// DIR/metadata.json: where an output directory's results came from. Written when a command starts
// (status "running", so a run that dies still leaves it) and again when it ends ("ok" or
// "failed"), with:
//   impactsim      version and git commit (app/version.hpp)
//   command        run, impact, batch, converge or sweep; command_line: the arguments as given
//   scene          path as given, name, SHA-256 of the file's text
//   settings       resolved: law and its parameters, integrator (and a fixed-step scheme's
//                  settings), t_end, output interval, ODE tolerances, step limits, the contact
//                  tolerances, the seed
//   started        UTC, ISO 8601; wall_seconds (null while running); host; status
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scenes/scene.hpp"

namespace impactsim {

struct Metadata {
  std::string command;       // the subcommand
  std::string command_line;  // argv joined by spaces, arguments with spaces or quotes single-quoted
  std::string law;           // the law the run uses (after --law)
  unsigned long long seed = 0;
  std::chrono::system_clock::time_point started = std::chrono::system_clock::now();
};

// The parameters of law `law` (none for anitescu-potra), e.g. "h 0.3, steps 10, ...", keyed as the
// scene's simulation.<law> section names them: what metadata.json records under
// settings.law_settings, as `check` prints them.
std::string describe_law_settings(const std::string& law, const LawSettings& settings, const ContactModel& contacts);

// argv as a shell would need it typed.
std::string command_line_text(int argc, const char* const* argv);

// The JSON text of metadata.json. wall_seconds < 0: not finished (null).
std::string metadata_json(const Metadata& metadata, const Scene& scene, const std::string& status, double wall_seconds);

// The part of metadata.json that says what produced a result, not when or where: impactsim,
// command, scene and settings. batch embeds it in summary.json as `provenance`; it is the same for
// a batch and the merge of its slices, so their summary.json files agree byte for byte.
std::string provenance_json(const Metadata& metadata, const Scene& scene);

// The metadata.json of `merge`: this build, command "merge", its command line, the slices, the
// scene and settings of their provenance (`provenance_json` text; may be empty for slices written
// before metadata existed) and the build that ran them (`batch_impactsim`), start, wall time, host,
// status "ok".
std::string merge_metadata_json(const std::string& command_line, const std::vector<std::string>& slices,
                                const std::string& provenance, std::chrono::system_clock::time_point started,
                                double wall_seconds);

// Writes dir/metadata.json. Throws std::runtime_error naming the file if it cannot.
void write_metadata(const std::filesystem::path& dir, const Metadata& metadata, const Scene& scene,
                    const std::string& status, double wall_seconds = -1);

// metadata.json over a command's life: written "running" when made, rewritten "ok" by finish(), and
// "failed" when destroyed unfinished (every early return after it), each time with the wall time
// so far. The constructor throws std::runtime_error if the file cannot be written; later writes
// only log a warning.
class MetadataFile {
 public:
  MetadataFile(std::filesystem::path dir, Metadata metadata, const Scene& scene);
  MetadataFile(const MetadataFile&) = delete;
  MetadataFile& operator=(const MetadataFile&) = delete;
  ~MetadataFile();
  // The command ended: "ok", or "interrupted" (a signal ended it, what it finished kept).
  void finish(const std::string& status = "ok");

 private:
  void write(const std::string& status) noexcept;
  std::filesystem::path dir_;
  Metadata metadata_;
  const Scene& scene_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool finished_ = false;
};

// A MetadataFile for dir, or nothing after logging why metadata.json cannot be written.
std::optional<MetadataFile> open_metadata_or_report(const std::filesystem::path& dir, Metadata metadata,
                                                    const Scene& scene);

}  // namespace impactsim
