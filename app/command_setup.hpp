#pragma once
// Steps every simulating subcommand starts with; each logs its own error.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "impact/impact_law.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

// The scene with the --set overrides ("KEY=VALUE" each) applied, or nothing after logging the
// located error.
std::optional<Scene> load_scene_or_report(const std::string& path, const std::vector<std::string>& overrides = {});

// One warning per scene parameter the law `name` ignores (law_model: routh's restitution,
// propagative's friction and per-contact restitution), naming the contact with the largest value;
// none when the scene's integrator does not use an impact law.
std::vector<std::string> law_ignores(const std::string& name, const Scene& scene);

// The impact law named `name` with the scene's settings, or nothing after logging that --law named
// an unknown law. Logs law_ignores' warnings and what of the scene's URDF is ignored, each once per
// process (a sweep's grid points share them).
std::unique_ptr<ImpactLaw> make_law_or_report(const std::string& name, const Scene& scene);

// What a run's `step` events mean, as run and batch warn about them: where the event loop could
// not go on, it crossed the instant with fixed steps.
inline constexpr const char* kTimeStepMeaning =
    "left the exact event path and crossed an instant with fixed steps of the Anitescu-Potra scheme (where no "
    "contact modes were consistent, the step size collapsed, guards chattered or a large model's impact failed; see "
    "simulation.contact.painleve_step)";

// The registered laws and integrators, a line each with what it does: the end of --help.
std::string registry_help();

// "" unless --law was given (law_option not empty) for a scene whose integrator is a fixed-step
// scheme, which uses no impact law: then the error to report (a usage error, not a silent no-op).
std::string law_option_problem(const std::string& law_option, const Scene& scene);

// Applies --integrator NAME (if not empty) and --step H (if > 0) to the scene's system. Returns an
// error message, or "" on success.
std::string override_integrator(Scene& scene, const std::string& name, double step);

// `requested` (-o), else the scene's output.directory, else out/<scene name>; created if needed.
// Empty after logging why it cannot be created.
std::string prepare_output_directory(const std::string& requested, const Scene& scene);

}  // namespace impactsim
