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

// The callbacks of a run that tallies its rows and events, and with a trajectory directory also
// writes its files there (and the poses of its animation with `plot`).
RunCallbacks tally_callbacks(const Scene& scene, RunTally& tally, const std::string& trajectory_dir, bool plot,
                             std::unique_ptr<RunFiles>& files, std::unique_ptr<PoseWriter>& poses) {
  auto count = [&tally](const Event& e) { tally.event(e); };
  auto keep = [&tally](const Sample& s) { tally.sample(s); };
  RunCallbacks cb;
  if (!trajectory_dir.empty()) {
    files = std::make_unique<RunFiles>(trajectory_dir, scene);
    if (plot) {
      write_outlines(trajectory_dir, scene);
      poses = std::make_unique<PoseWriter>(trajectory_dir, scene);
    }
    cb = files->callbacks(count);
    cb.sample = [&poses, keep, write = cb.sample](const Sample& s) {
      write(s);
      if (poses) poses->row(s);
      keep(s);
    };
    cb.event_sample = [&poses, write = cb.event_sample](const Sample& s) {
      write(s);
      if (poses) poses->event_row(s);
    };
  } else {
    cb.sample = keep;
    cb.event = count;
  }
  cb.stopped = keep;
  cb.stop = [] { return caught_signal() != 0; };  // an interrupted batch drops this row: end it soon
  return cb;
}

}  // namespace

std::vector<std::string> run_columns(const Scene& scene) {
  std::vector<std::string> c{"run", "seed"};
  for (const std::string& d : draw_columns(scene)) c.push_back(d);
  for (const char* n : {"status", "reason", "t_final", "impacts", "events", "time_steps", "stepped_time", "dependent_closes", "t_rest",
                        "deepest_penetration"}) c.push_back(n);
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

std::string format_run(const Scene& scene, const RunRecord& r) {
  const int precision = scene.output.precision;
  std::vector<std::string> cells{std::to_string(r.run), std::to_string(r.seed)};
  for (double x : r.coordinates) cells.push_back(format_number(x, precision));
  for (double x : r.parameters) cells.push_back(format_number(x, precision));
  if (r.invalid_draw) {  // the drawn parameters make no valid scene: a failed row, empty beyond
    cells.push_back(r.status);
    cells.push_back(r.reason);
    cells.resize(run_columns(scene).size() - 1);
    cells.push_back(as_cell(r.message));
    return join_cells(cells);
  }
  for (const std::string& c :
       {r.status, r.reason, format_number(r.t_final, precision), std::to_string(r.impacts), std::to_string(r.events),
        std::to_string(r.time_steps), format_number(r.stepped_time, precision), std::to_string(r.dependent_closes),
        r.t_rest >= 0 ? format_number(r.t_rest, precision) : std::string(),
        std::isnan(r.deepest_penetration) ? std::string() : format_number(r.deepest_penetration, precision)})
    cells.push_back(c);
  for (double x : r.q) cells.push_back(format_number(x, precision));
  for (double x : r.v) cells.push_back(format_number(x, precision));
  cells.push_back(format_number(r.kinetic_energy, precision));
  for (bool c : r.closed) cells.push_back(c ? "1" : "0");
  for (size_t k = 0; k < r.outcomes.size(); ++k)
    cells.push_back(scene.outcomes[k].whole() ? std::to_string(static_cast<long>(r.outcomes[k]))
                                              : format_number(r.outcomes[k], precision));
  cells.push_back(as_cell(r.message));
  return join_cells(cells);
}

RunRecord run_record(const Scene& base, const System& base_quiet, const ImpactLaw& base_law, const std::string& law_name,
                     std::uint64_t seed, long run, const std::string& trajectory_dir, bool plot) {
  RunRecord record;
  record.run = run;
  record.seed = sample_seed(seed, static_cast<std::uint64_t>(run));
  Rng rng(record.seed);
  RunDraw draw = draw_run(base, rng);
  record.coordinates = draw.coordinates;
  record.parameters = draw.parameters;
  if (!draw.error.empty()) {
    record.status = "failed";
    record.reason = "invalid_draw";
    record.invalid_draw = true;
    record.message = draw.error;
    return record;
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
  RunTally tally(scene, draw.initial);
  std::unique_ptr<RunFiles> files;
  std::unique_ptr<PoseWriter> poses;  // for the animation of a plotted run
  RunCallbacks cb = tally_callbacks(scene, tally, trajectory_dir, plot, files, poses);
  try {
    tally.finished(simulate(files ? scene.system : quiet, law, draw.initial, rng, cb));
  } catch (const SimulationError& e) {
    record.status = "failed";
    record.reason = stop_reason_code(e.reason());
    record.message = e.what();
  }
  record.t_final = tally.t_final();
  record.impacts = tally.impacts();
  record.events = tally.events();
  record.time_steps = tally.time_steps();
  record.stepped_time = tally.stepped_time();
  record.deepest_penetration = tally.deepest_penetration();
  record.dependent_closes = tally.dependent_closes();
  record.t_rest = tally.t_rest();
  record.q.assign(tally.q().begin(), tally.q().end());
  record.v.assign(tally.v().begin(), tally.v().end());
  record.kinetic_energy = tally.kinetic_energy();
  record.closed = tally.closed();
  record.outcomes = tally.outcome_values(record.closed);
  return record;
}

std::string run_one(const Scene& base, const System& base_quiet, const ImpactLaw& base_law, const std::string& law_name,
                    std::uint64_t seed, long run, const std::string& trajectory_dir, bool plot) {
  return format_run(base, run_record(base, base_quiet, base_law, law_name, seed, run, trajectory_dir, plot));
}

}  // namespace impactsim
