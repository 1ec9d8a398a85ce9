#include "app/batch_row.hpp"

#include <memory>
#include <optional>

#include "app/interrupt.hpp"
#include "app/number_text.hpp"
#include "app/plot_output.hpp"
#include "app/run_draw.hpp"
#include "app/run_files.hpp"
#include "app/run_tally.hpp"
#include "app/sample_seed.hpp"
#include "impact/laws.hpp"

namespace impactsim {
namespace {

std::string format_number(double x, int precision) { return std::string(NumberText(x, precision).view()); }

// A message as one CSV cell: no commas or line breaks.
std::string as_cell(std::string text) {
  for (char& c : text)
    if (c == ',') c = ';';
    else if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

std::vector<std::string> run_columns(const Scene& scene) {
  std::vector<std::string> c{"run", "seed"};
  for (const std::string& d : draw_columns(scene)) c.push_back(d);
  for (const char* n : {"status", "reason", "t_final", "impacts", "events", "time_steps", "dependent_closes", "t_rest"}) c.push_back(n);
  for (const auto& n : scene.system.model.q_names) c.push_back("final." + n);
  for (const auto& n : scene.system.model.v_names) c.push_back("final." + n);
  c.push_back("final.kinetic_energy");
  for (const ContactDef& d : scene.system.contacts.contacts()) c.push_back(d.name + ".closed");
  for (const OutcomeDef& o : scene.outcomes) c.push_back(o.name);
  c.push_back("message");
  return c;
}

std::string join_cells(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t k = 0; k < cells.size(); ++k) line += (k ? "," : "") + cells[k];
  return line;
}

System final_row_only(System s) {
  s.simulation.output_interval = s.simulation.t_end;
  return s;
}

std::string run_one(const Scene& base, const System& base_quiet, const ImpactLaw& base_law, const std::string& law_name,
                    std::uint64_t seed, long run, const std::string& trajectory_dir, bool plot) {
  const int precision = base.output.precision;
  const std::uint64_t run_seed = sample_seed(seed, static_cast<std::uint64_t>(run));
  Rng rng(run_seed);
  RunDraw draw = draw_run(base, rng);
  std::vector<std::string> cells{std::to_string(run), std::to_string(run_seed)};
  for (double x : draw.coordinates) cells.push_back(format_number(x, precision));
  for (double x : draw.parameters) cells.push_back(format_number(x, precision));
  if (!draw.error.empty()) {  // the drawn parameters make no valid scene: a failed row, empty beyond
    cells.push_back("failed");
    cells.push_back("invalid_draw");
    cells.resize(run_columns(base).size() - 1);
    cells.push_back(as_cell(draw.error));
    return join_cells(cells);
  }
  // With drawn parameters the run has its own scene, and so its own system and law.
  const Scene& scene = draw.scene_or(base);
  std::optional<System> own_quiet;
  std::unique_ptr<ImpactLaw> own_law;
  if (draw.scene) {
    own_quiet = final_row_only(scene.system);
    own_law = make_law(law_name, scene.laws);
  }
  const System& quiet = own_quiet ? *own_quiet : base_quiet;
  const ImpactLaw& law = own_law ? *own_law : base_law;
  const System& system = scene.system;
  const State& initial = draw.initial;
  RunTally tally(scene, initial);
  auto count = [&](const Event& e) { tally.event(e); };
  auto keep = [&](const Sample& s) { tally.sample(s); };
  std::unique_ptr<RunFiles> files;
  std::unique_ptr<PoseWriter> poses;  // for the animation of a plotted run
  RunCallbacks cb;
  if (!trajectory_dir.empty()) {
    files = std::make_unique<RunFiles>(trajectory_dir, scene);
    if (plot) {
      write_outlines(trajectory_dir, scene);
      poses = std::make_unique<PoseWriter>(trajectory_dir, scene);
    }
    cb = files->callbacks(count);
    cb.sample = [&, write = cb.sample](const Sample& s) {
      write(s);
      if (poses) poses->row(s);
      keep(s);
    };
  } else {
    cb.sample = keep;
    cb.event = count;
  }
  cb.stopped = keep;
  cb.stop = [] { return caught_signal() != 0; };  // an interrupted batch drops this row: end it soon
  std::string status = "ok", reason, message;
  try {
    simulate(files ? system : quiet, law, initial, rng, cb);
  } catch (const SimulationError& e) {
    status = "failed";
    reason = stop_reason_code(e.reason());
    message = as_cell(e.what());
  }
  for (const std::string& c :
       {status, reason, format_number(tally.t_final(), precision), std::to_string(tally.impacts()),
        std::to_string(tally.events()), std::to_string(tally.time_steps()), std::to_string(tally.dependent_closes()),
        tally.t_rest() >= 0 ? format_number(tally.t_rest(), precision) : std::string()})
    cells.push_back(c);
  for (double x : tally.q()) cells.push_back(format_number(x, precision));
  for (double x : tally.v()) cells.push_back(format_number(x, precision));
  cells.push_back(format_number(tally.kinetic_energy(), precision));
  const std::vector<bool> closed = tally.closed();
  for (bool c : closed) cells.push_back(c ? "1" : "0");
  const std::vector<double> outcomes = tally.outcome_values(closed);
  for (size_t k = 0; k < outcomes.size(); ++k)
    cells.push_back(scene.outcomes[k].whole() ? std::to_string(static_cast<long>(outcomes[k]))
                                              : format_number(outcomes[k], precision));
  cells.push_back(message);
  return join_cells(cells);
}

}  // namespace impactsim
