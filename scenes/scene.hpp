#pragma once
// A loaded scene: the system to simulate (model, contacts, pins, integrator settings), its initial
// state, and what the commands around a run need (the law, randomized coordinates, outcome
// columns, output settings). Plain data; the schema is documented in scenes/README.md.
#include <string>
#include <vector>

#include "core/simulate.hpp"
#include "impact/laws.hpp"
#include "scenes/randomize.hpp"
#include "scenes/scene_overrides.hpp"
#include "scenes/scene_urdf.hpp"

namespace impactsim {

struct OutputSettings {
  std::string directory;  // where run writes its files; "" means out/<scene name>
  int precision = 12;     // significant digits in CSV files
};

// A column of runs.csv that the scene defines (its `outcomes` section), measured at the end of a run.
struct OutcomeDef {
  enum class Kind {
    final_value,  // a coordinate of q or v at the end (`final: <body>.<coordinate>`, `_deg` for degrees)
    closed,       // 1 if the contact is closed at the end, else 0 (`closed: <contact>`)
    impacts,      // how many impacts (impact, zeno, iwc) involved the contact (`impacts: <contact>`)
    lifts,        // how many of those left it separating (`lifts: <contact>`)
    first_lift,   // 1 if the first of those left it separating, else 0 (`first_lift: <contact>`)
  };
  std::string name;
  Kind kind = Kind::final_value;
  bool velocity = false;  // final_value: an entry of v, not q
  int index = 0;          // final_value: into q or v; else the contact's index
  double scale = 1.0;     // final_value: 180 / pi for `_deg`
  // Counts and flags are whole numbers (written as integers); final values are not.
  bool whole() const { return kind != Kind::final_value; }
};

// A mesh file some shape was read from, and the SHA-256 of its bytes.
struct MeshSource {
  std::string path;
  std::string sha256;
};

struct Scene {
  std::string name;
  std::string description;
  std::string source;     // the file it was read from
  std::string text_sha256;  // SHA-256 of the file's text (with overrides: of overridden_text): which scene a result came from
  std::vector<SceneOverride> overrides;  // --set, as applied
  RobotSource robot;      // the `robot` section's URDF (robot.urdf empty when there is none)
  std::vector<MeshSource> meshes;  // every mesh file of the scene's and the URDF's shapes, once each, in reading order
  System system;          // model, contacts (`materials`, `contacts`), pins (`constraints`), `simulation`
  State initial;
  std::vector<RandomCoordinate> randomize;  // drawn per run by batch (and run --run)
  std::vector<RandomParameter> randomize_keys;  // scene keys drawn per run after `randomize`
  std::string text;       // the file's text as read (before overrides): what a run's draws re-read
  std::vector<OutcomeDef> outcomes;         // extra columns of batch's runs.csv
  std::string law = "anitescu-potra";
  LawSettings laws;
  unsigned long long seed = 0;
  OutputSettings output;
};

// What a result depends on, as one SHA-256: the scene's text_sha256, or with a `robot` or mesh
// files, the hash of that, its URDF's and its meshes'. Batch resume, merge and sweep resume compare it.
std::string scene_content_sha256(const Scene& scene);

// Reads and validates a scene, with `overrides` (--set) applied to the document first
// (scenes/scene_overrides.hpp). Throws SceneError (see scenes/yaml_field.hpp) on any problem.
Scene load_scene(const std::string& path, const std::vector<SceneOverride>& overrides = {});
// The same from text; `name` stands in for the file name in messages.
Scene load_scene_text(const std::string& text, const std::string& name, const std::vector<SceneOverride>& overrides = {});

// The scene of one batch run whose randomize_keys drew `values`: `base` read again from its text
// with its overrides and then each key set to its value. Throws SceneError naming the key and value
// when the drawn value makes the scene invalid (a negative mass from a normal draw).
Scene scene_with_parameters(const Scene& base, const std::vector<double>& values);

}  // namespace impactsim
