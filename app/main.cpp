// impactsim: command-line entry point.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <malloc.h>

#include <limits>
#include <memory>

#include "app/cli_checks.hpp"
#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/plot_output.hpp"
#include "app/metadata.hpp"
#include "app/version.hpp"
#include "core/integrators.hpp"
#include "impact/laws.hpp"

using namespace impactsim;

namespace {

struct Verbosity {
  bool quiet = false;
  bool verbose = false;
};

void add_set(CLI::App* command, std::vector<std::string>& overrides) {
  command->add_option("--set", overrides,
                      "KEY=VALUE: override a scene key (e.g. materials.mu=0.25, simulation.routh.h=0.1); repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void add_verbosity(CLI::App* command, Verbosity& v) {
  command->add_flag("-q,--quiet", v.quiet, "Print only warnings and errors");
  command->add_flag("-v,--verbose", v.verbose, "Print debugging detail");
}

constexpr long long kMaxLL = std::numeric_limits<long long>::max();
constexpr long long kMaxLong = std::numeric_limits<long>::max();

// Every subcommand's options and the parser that fills them. Built in place (the parser keeps
// pointers to the members); `sweep` builds a second one to parse the command it runs.
struct Cli {
  CLI::App app{"impactsim: event-driven rigid-body simulation of simultaneous frictional impacts"};
  Verbosity verbosity;
  RunOptions run;
  std::string check_scene;
  std::vector<std::string> check_overrides;
  ImpactOptions impact;
  std::string orderings;
  BatchOptions batch;
  ConvergeOptions converge;
  std::vector<std::string> merge_inputs;
  std::string merge_output;
  SweepOptions sweep;
  std::vector<std::string> sweep_inner;
  std::string view_dir, view_color;
  CLI::App *run_cmd, *check_cmd, *impact_cmd, *batch_cmd, *converge_cmd, *merge_cmd, *sweep_cmd, *view_cmd;

  Cli();
  Cli(const Cli&) = delete;
  Cli& operator=(const Cli&) = delete;

  void add_run();
  void add_check();
  void add_impact();
  void add_batch();
  void add_converge();
  void add_merge();
  void add_sweep();
  void add_view();

  void set_command_line(const std::string& text) {
    run.command_line = impact.command_line = batch.command_line = converge.command_line = text;
  }

  // The parsed subcommand (not sweep).
  int dispatch() {
    if (*run_cmd) {
      run.quiet = verbosity.quiet;
      return run_command(run);
    }
    if (*check_cmd) return check_command(check_scene, check_overrides);
    if (*batch_cmd) {
      batch.quiet = verbosity.quiet;
      return batch_command(batch);
    }
    if (*merge_cmd) return merge_command(merge_inputs, merge_output, run.command_line);
    if (*converge_cmd) return converge_command(converge);
    if (*view_cmd) return run_view_tool(view_dir, view_color) ? kExitOk : kExitOutput;
    if (*impact_cmd) {
      impact.orderings = orderings == "all";
      impact.quiet = verbosity.quiet;
      return impact_command(impact);
    }
    return kExitUsage;
  }
};

// impactsim sweep: parses the command after `--` as that subcommand (on the sweep's scene), then
// runs it at every grid point with the point's output directory and overrides.
int sweep(Cli& outer) {
  SweepOptions& o = outer.sweep;
  const std::vector<std::string>& inner_args = outer.sweep_inner;
  o.command = inner_args.front();
  if (o.command != "run" && o.command != "impact" && o.command != "batch") {
    spdlog::error("sweep: the command after -- is run, impact or batch, not '{}'", o.command);
    return kExitUsage;
  }
  auto inner = std::make_unique<Cli>();
  std::vector<std::string> words{"impactsim", o.command, o.scene};
  words.insert(words.end(), inner_args.begin() + 1, inner_args.end());
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  try {
    inner->app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    const int code = inner->app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  CLI::App* sub = o.command == "run" ? inner->run_cmd : o.command == "impact" ? inner->impact_cmd : inner->batch_cmd;
  for (const char* own : {"--output", "--set"})
    if (sub->count(own)) {
      spdlog::error("sweep: give {} before --, to the sweep (it sets each point's)", own);
      return kExitUsage;
    }
  if (o.command == "batch" && (inner->batch.resume || inner->batch.force)) {
    spdlog::error("sweep: --resume and --force of batch are the sweep's: give them before --");
    return kExitUsage;
  }
  inner->set_command_line(o.command_line);
  inner->verbosity.quiet = inner->verbosity.quiet || outer.verbosity.quiet;
  o.law = o.command == "run" ? inner->run.law : o.command == "impact" ? inner->impact.law : inner->batch.law;
  o.seed = o.command == "run" ? inner->run.seed : o.command == "impact" ? inner->impact.seed : inner->batch.seed;
  o.arguments.assign(inner_args.begin() + 1, inner_args.end());
  Cli& c = *inner;
  return sweep_command(o, [&c](const std::string& dir, const std::vector<std::string>& overrides, bool resume) {
    c.run.output_dir = c.impact.output_dir = c.batch.output_dir = dir;
    c.run.overrides = c.impact.overrides = c.batch.overrides = overrides;
    // The sweep has already refused a directory holding another sweep.
    c.batch.resume = resume;
    c.batch.force = !resume;
    // Each impact point's summary is in its summary.json and the sweep's table, not on stdout.
    c.impact.print_summary = false;
    return c.dispatch();
  });
}

Cli::Cli() {
  app.require_subcommand(1);
  app.footer(registry_help());
  app.set_version_flag("--version", std::string("impactsim ") + impactsim_version() + " (commit " + impactsim_commit() + ")",
                       "Print the version and git commit and exit");
  add_run();
  add_check();
  add_view();
  add_impact();
  add_batch();
  add_converge();
  add_merge();
  add_sweep();
}

void Cli::add_run() {
  run_cmd = app.add_subcommand("run", "Simulate a scene and write DIR/trajectory.csv and DIR/events.csv");
  run_cmd->add_option("scene", run.scene, "Scene file (YAML)")->required();
  run_cmd->add_option("-o,--output", run.output_dir, "Output directory (default: the scene's output.directory, else out/<scene name>)")
      ->check(not_empty());
  run_cmd
      ->add_option("--law", run.law,
                   "Impact law, overriding the scene's simulation.law (" + law_names_text() + "; event-driven integrator only)")
      ->check(not_empty());
  run_cmd->add_option("--seed", run.seed, "Seed of the random generator, overriding the scene's simulation.seed")
      ->check(whole_number(0, kMaxLL));
  run_cmd->add_option("--run", run.run, "Replay run I of a batch seeded with --seed")->check(whole_number(0, kMaxLong));
  run_cmd->add_flag("--plot", run.plot, "Also draw trajectory.png, energy.png and animation.gif");
  run_cmd->add_flag("--view", run.view, "Also write DIR/view.html, the run in 3-D in a browser (impactsim view)");
  run_cmd->add_option("--integrator", run.integrator,
                      "Integrator, overriding the scene's simulation.integrator (" + integrator_names_text() + ")");
  run_cmd->add_option("--step", run.step, "Step size h of a fixed-step integrator, s")->check(positive_finite());
  add_set(run_cmd, run.overrides);
  add_verbosity(run_cmd, verbosity);
}

void Cli::add_check() {
  check_cmd = app.add_subcommand("check", "Validate a scene and print a summary of its model");
  check_cmd->add_option("scene", check_scene, "Scene file (YAML)")->required();
  add_set(check_cmd, check_overrides);
  add_verbosity(check_cmd, verbosity);
}

void Cli::add_impact() {
  impact_cmd = app.add_subcommand(
      "impact", "Resolve the impact at a scene's initial state many times; write DIR/samples.csv and a summary");
  impact_cmd->add_option("scene", impact.scene, "Scene file (YAML)")->required();
  impact_cmd->add_option("-o,--output", impact.output_dir, "Output directory (default as for run)")->check(not_empty());
  impact_cmd->add_option("--law", impact.law, "Impact law, overriding the scene's simulation.law (" + law_names_text() + ")")
      ->check(not_empty());
  impact_cmd->add_option("--samples", impact.samples, "Number of samples")
      ->check(whole_number(1, kMaxLong))
      ->capture_default_str();
  impact_cmd->add_option("--seed", impact.seed, "Seed, overriding the scene's simulation.seed")->check(whole_number(0, kMaxLL));
  impact_cmd->add_option("--threads", impact.threads, "Worker threads (results do not depend on it)")
      ->check(whole_number(1, 256))
      ->capture_default_str();
  impact_cmd->add_flag("--view", impact.view, "Also write DIR/view.html: the samples' scatter, each sample's motion in 3-D");
  impact_cmd->add_flag("--plot", impact.plot,
                       "Also write the Anitescu-Potra solutions and sequential orderings and draw post_impact.png");
  impact_cmd->add_flag("--all-solutions", impact.all_solutions,
                       "List every solution of the Anitescu-Potra LCP instead of sampling");
  impact_cmd->add_option("--orderings", orderings, "'all': list the outcome of every cyclic sequential ordering")
      ->check(CLI::IsMember({"all"}));
  impact_cmd->add_option("--format", impact.format, "Samples file: csv (samples.csv) or hdf5 (samples.h5, exact binary)")
      ->check(CLI::IsMember({"csv", "hdf5"}))
      ->capture_default_str();
  add_set(impact_cmd, impact.overrides);
  add_verbosity(impact_cmd, verbosity);
}

void Cli::add_batch() {
  batch_cmd = app.add_subcommand(
      "batch", "Run a scene many times, each impact drawing from its law; write DIR/runs.csv and DIR/summary.json");
  batch_cmd->add_option("scene", batch.scene, "Scene file (YAML)")->required();
  batch_cmd->add_option("--runs", batch.runs, "Number of runs N")->check(whole_number(1, kMaxLong))->capture_default_str();
  batch_cmd->add_option("-o,--output", batch.output_dir, "Output directory (default as for run)")->check(not_empty());
  batch_cmd
      ->add_option("--law", batch.law,
                   "Impact law, overriding the scene's simulation.law (" + law_names_text() + "; event-driven integrator only)")
      ->check(not_empty());
  batch_cmd->add_option("--seed", batch.seed, "Seed S; run i uses a seed made from (S, i) alone")
      ->check(whole_number(0, kMaxLL));
  batch_cmd->add_option("--threads", batch.threads, "Worker threads (results do not depend on it)")
      ->check(whole_number(1, 256))
      ->capture_default_str();
  batch_cmd->add_option("--first", batch.first, "First run of this slice")->check(whole_number(0, kMaxLong))->capture_default_str();
  batch_cmd->add_option("--count", batch.count, "Runs in this slice (default: through run N-1)")
      ->check(whole_number(0, kMaxLong));
  batch_cmd->add_flag("--resume", batch.resume, "Keep the finished runs in DIR/runs.csv and complete the rest");
  batch_cmd->add_flag("--force", batch.force, "Overwrite the results already in DIR (without it, batch refuses)");
  batch_cmd->add_flag("--plot", batch.plot, "Also draw histograms.png, and the plots of runs written by --trajectories");
  batch_cmd->add_flag("--view", batch.view, "Also write DIR/view.html: the runs written by --trajectories overlaid in 3-D");
  batch_cmd->add_option("--format", batch.format, "csv (runs.csv) or hdf5 (runs.csv, and runs.h5 from it once complete)")
      ->check(CLI::IsMember({"csv", "hdf5"}))
      ->capture_default_str();
  batch_cmd->add_option("--trajectories", batch.trajectories,
                        "Runs 0..K-1 also write DIR/runs/<i>/trajectory.csv and events.csv")
      ->check(whole_number(0, kMaxLong))
      ->capture_default_str();
  add_set(batch_cmd, batch.overrides);
  add_verbosity(batch_cmd, verbosity);
}

void Cli::add_converge() {
  converge_cmd = app.add_subcommand(
      "converge", "Run a fixed-step integrator at several step sizes against the event-driven solution; write DIR/convergence.csv");
  converge_cmd->add_option("scene", converge.scene, "Scene file (YAML)")->required();
  converge_cmd->add_option("--steps", converge.steps, "Step sizes h, comma-separated (e.g. 0.01,0.005,0.0025)")
      ->required()
      ->delimiter(',')
      ->check(positive_finite());
  converge_cmd->add_option("--integrator", converge.integrator,
                           "time-stepping or drumwright (default: the scene's, time-stepping if it is event-driven)");
  converge_cmd->add_option("-o,--output", converge.output_dir, "Output directory (default as for run)")->check(not_empty());
  converge_cmd->add_option("--law", converge.law, "Impact law of the event-driven reference")->check(not_empty());
  converge_cmd->add_option("--seed", converge.seed, "Seed, overriding the scene's simulation.seed")->check(whole_number(0, kMaxLL));
  converge_cmd->add_flag("--plot", converge.plot, "Also draw convergence.png (error against h, log-log)");
  add_set(converge_cmd, converge.overrides);
  add_verbosity(converge_cmd, verbosity);
}

void Cli::add_view() {
  view_cmd = app.add_subcommand("view", "Write DIR/view.html: a run's (or a batch's trajectories') 3-D view for a browser");
  view_cmd->add_option("dir", view_dir, "A directory written by run --view or --plot, or batch --trajectories K --view")
      ->required();
  view_cmd->add_option("--color", view_color, "A batch's runs.csv column that colours its ghosts (default: its last outcome)")
      ->check(not_empty());
  add_verbosity(view_cmd, verbosity);
}

void Cli::add_merge() {
  merge_cmd = app.add_subcommand("merge", "Join batch slices (directories with runs.csv) into one batch");
  merge_cmd->add_option("slices", merge_inputs, "Slice directories")->required();
  merge_cmd->add_option("-o,--output", merge_output, "Output directory")->required()->check(not_empty());
  add_verbosity(merge_cmd, verbosity);
}

void Cli::add_sweep() {
  sweep_cmd = app.add_subcommand(
      "sweep", "Run `run`, `impact` or `batch` at every point of a grid of scene parameters; write DIR/sweep.csv");
  sweep_cmd->add_option("scene", sweep.scene, "Scene file (YAML)")->required();
  sweep_cmd->add_option("--param", sweep.params, "KEY=START:STOP:N (N values, both ends included) or KEY=V1,V2,...; repeatable")
      ->required()
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sweep_cmd->add_option("-o,--output", sweep.output_dir,
                        "Output directory (default: the scene's output directory with -sweep appended)")
      ->check(not_empty());
  sweep_cmd->add_flag("--force", sweep.force, "Overwrite a sweep already in DIR");
  sweep_cmd->add_flag("--resume", sweep.resume,
                      "Complete an interrupted sweep in DIR: keep the points it finished, run the others (a batch point "
                      "keeps its runs so far)");
  sweep_cmd->add_flag("--plot", sweep.plot, "Also draw DIR/sweep.png (the statistics against the parameters)");
  add_set(sweep_cmd, sweep.overrides);
  add_verbosity(sweep_cmd, verbosity);
  sweep_cmd->footer(
      "After the sweep's own options: -- run|impact|batch [that command's options, not -o or --set]\n"
      "Example: impactsim sweep scenes/box_on_incline.yaml --param materials.mu=0:0.5:11 -- run");
}

// Fixed thresholds for glibc's allocator instead of its sliding ones. The time-stepping schemes
// build each step's LCP in fresh matrices of a few MiB; where the heap's layout left those blocks
// at its top, glibc returned them to the system at every free and faulted them back in at the next
// step, so a run's time in the kernel depended on unrelated allocations. Blocks below 32 MiB come
// from the heap, and it is trimmed only above 64 MiB free.
void steady_allocator() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

}  // namespace

int main(int argc, char** argv) {
  steady_allocator();
  spdlog::set_default_logger(spdlog::stderr_color_st("impactsim"));
  spdlog::set_pattern("[%l] %v");
  if (argc > 1) {
    if (const std::string unknown = unknown_command(argv[1]); !unknown.empty()) {
      spdlog::error("{}", unknown);
      return kExitUsage;
    }
  }
  Cli cli;
  // sweep's command follows `--`: split it off before parsing (CLI11 would still read the sweep's
  // own options, --plot or -o, among the words after `--` of a subcommand).
  int parsed = argc;
  if (argc > 1 && std::string(argv[1]) == "sweep") {
    for (int i = 2; i < argc; ++i)
      if (std::string(argv[i]) == "--") {
        parsed = i;
        cli.sweep_inner.assign(argv + i + 1, argv + argc);
        break;
      }
  }
  try {
    cli.app.parse(parsed, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  const std::string command_line = command_line_text(argc, argv);
  cli.set_command_line(command_line);
  cli.sweep.command_line = command_line;
  const Verbosity& v = cli.verbosity;
  spdlog::set_level(v.quiet ? spdlog::level::warn : v.verbose ? spdlog::level::debug : spdlog::level::info);
  if (*cli.sweep_cmd && cli.sweep_inner.empty()) {
    spdlog::error("sweep: give the command to run at each point after --: -- run|impact|batch [options]");
    return kExitUsage;
  }
  // Every failure the commands foresee has its message and exit code; anything else is a fault of
  // impactsim's, reported as one rather than let through as an abort.
  try {
    return *cli.sweep_cmd ? sweep(cli) : cli.dispatch();
  } catch (const std::exception& e) {
    spdlog::error("internal error: {} (please report it with the command line above)", e.what());
  } catch (...) {
    spdlog::error("internal error: an unknown exception (please report it with the command line above)");
  }
  return kExitSimulation;
}
