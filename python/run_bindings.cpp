// One run of a scene from Python: the rows trajectory.csv would hold, the events of events.csv, and
// summary.json's numbers, as arrays; an optional Python callback sees each event as it happens.
#include <chrono>

#include <pybind11/stl.h>

#include "app/command_setup.hpp"
#include "app/run_draw.hpp"
#include "app/run_tally.hpp"
#include "app/sample_seed.hpp"
#include "python/bindings.hpp"
#include "python/sampling.hpp"
#include "scenes/scene.hpp"

namespace impactsim::python {
namespace {

// Names of the contacts `ids` of the scene.
std::vector<std::string> names_of(const Scene& scene, const std::vector<int>& ids) {
  std::vector<std::string> out;
  for (int i : ids) out.push_back(scene.system.contacts.contact(i).name);
  return out;
}

py::dict event_dict(const Scene& scene, const Event& e) {
  py::dict d;
  d["t"] = e.t;
  d["kind"] = std::string(event_kind_name(e.kind));
  d["contacts"] = names_of(scene, e.contacts);
  d["law"] = e.law;
  d["kinetic_energy_before"] = e.kinetic_before;
  d["kinetic_energy_after"] = e.kinetic_after;
  d["impulse_n"] = to_array(e.impulse_n);
  d["normal_velocity_after"] = to_array(e.normal_velocity_after);
  d["ordering"] = names_of(scene, e.ordering);
  d["impulse_t"] = to_array(e.impulse_t);
  d["rowwise_loss"] = e.rowwise_loss;
  d["duration"] = e.duration;
  return d;
}

// What one run leaves: rows (t, q, v, energies, as trajectory.csv) and events.
struct Recorded {
  std::vector<double> rows;
  std::vector<Event> events;
};

py::dict stats_dict(const RunStats& s, double wall) {
  py::dict d;
  d["steps"] = s.steps;
  d["rejected_steps"] = s.rejected_steps;
  d["evaluations"] = s.evaluations;
  d["solves"] = s.solves;
  d["events"] = s.events;
  d["impacts"] = s.impacts;
  d["penetration"] = std::max(0.0, -s.min_phi);
  d["max_residual"] = s.max_residual;
  d["max_energy_gain"] = s.max_energy_gain;
  d["wall_seconds"] = wall;
  return d;
}

py::dict result_dict(const Scene& scene, const Recorded& rec, const std::string& summary, py::dict stats) {
  const Model& m = scene.system.model;
  std::vector<std::string> columns{"t"};
  columns.insert(columns.end(), m.q_names.begin(), m.q_names.end());
  columns.insert(columns.end(), m.v_names.begin(), m.v_names.end());
  columns.push_back("kinetic_energy");
  columns.push_back("potential_energy");
  const long cols = static_cast<long>(columns.size());
  const long rows = static_cast<long>(rec.rows.size()) / cols;
  py::array_t<double> table({rows, cols});
  std::copy(rec.rows.begin(), rec.rows.end(), table.mutable_data());
  py::list events;
  for (const Event& e : rec.events) events.append(event_dict(scene, e));
  py::dict d;
  d["columns"] = columns;
  d["trajectory"] = table;
  d["events"] = events;
  d["summary"] = summary;
  d["stats"] = stats;
  return d;
}

struct RunRequest {
  std::string law, integrator;
  double step = 0.0, t_end = -1.0;
  long long seed = -1, run = -1;
};

// The scene as the request changes it (integrator, step, t_end); ValueError for what cannot be.
Scene adjusted(const Scene& base, const RunRequest& r) {
  Scene scene = base;
  if (const std::string e = law_option_problem(r.law, scene); !e.empty()) throw py::value_error(e);
  if (const std::string e = override_integrator(scene, r.integrator, r.step); !e.empty()) throw py::value_error(e);
  if (r.t_end >= 0) {
    if (!(r.t_end > 0)) throw py::value_error("t_end: must be > 0 s");
    scene.system.simulation.t_end = r.t_end;
  }
  return scene;
}

py::dict run_scene(const Scene& base, const RunRequest& request, py::object on_event) {
  const Scene scene = adjusted(base, request);
  const std::string law_name = request.law.empty() ? scene.law : request.law;
  const std::unique_ptr<ImpactLaw> law = scene_law(scene, law_name);
  const unsigned long long batch_seed = request.seed >= 0 ? static_cast<unsigned long long>(request.seed) : scene.seed;
  const unsigned long long seed =
      request.run >= 0 ? sample_seed(batch_seed, static_cast<unsigned long long>(request.run)) : batch_seed;
  Rng rng(seed);
  RunDraw draw;
  draw.initial = scene.initial;
  if (request.run >= 0) draw = draw_run(scene, rng);
  if (!draw.error.empty()) throw py::value_error("run " + std::to_string(request.run) + ": " + draw.error);
  if (draw.scene) override_integrator(*draw.scene, request.integrator, request.step);
  const Scene& active = draw.scene_or(scene);
  const std::unique_ptr<ImpactLaw> own_law = draw.scene ? make_law(law_name, active.laws) : nullptr;

  Recorded rec;
  RunTally tally(active, draw.initial);
  PythonCallback callback(std::move(on_event));
  RunCallbacks cb;
  auto row = [&](const Sample& s) {
    rec.rows.push_back(s.t);
    rec.rows.insert(rec.rows.end(), s.q.data(), s.q.data() + s.q.size());
    rec.rows.insert(rec.rows.end(), s.v.data(), s.v.data() + s.v.size());
    rec.rows.push_back(s.kinetic_energy);
    rec.rows.push_back(s.potential_energy);
  };
  cb.sample = [&](const Sample& s) {
    row(s);
    tally.sample(s);
  };
  cb.event_sample = row;
  cb.event = [&](const Event& e) {
    rec.events.push_back(e);
    tally.event(e);
    callback.call([&] { return py::object(event_dict(active, e)); });
  };
  cb.stopped = [&](const Sample& s) { tally.sample(s); };
  cb.stop = [&] { return interrupted() || callback.failed(); };
  RunStats stats;
  std::string reason, message;
  double failed_at = 0.0;
  const auto start = std::chrono::steady_clock::now();
  without_gil([&] {
    try {
      stats = simulate(active.system, own_law ? *own_law : *law, draw.initial, rng, cb);
    } catch (const SimulationError& e) {
      reason = std::string(stop_reason_code(e.reason()));
      message = e.what();
      failed_at = e.time();
    }
  });
  callback.rethrow();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (reason.empty()) tally.finished(stats);  // a failed run's statistics end with it: no depth (summary.json's null)
  py::dict result = result_dict(active, rec, run_summary_json(active, tally, reason, message), stats_dict(stats, wall));
  result["seed"] = seed;
  result["law"] = law_name;
  if (!reason.empty()) {
    py::dict attributes;
    attributes["time"] = failed_at;
    attributes["reason"] = reason;
    attributes["partial"] = result;
    raise_package_error("SimulationError", message, attributes);
  }
  return result;
}

}  // namespace

void bind_run(py::module_& m) {
  m.def(
      "run",
      [](const Scene& scene, const std::string& law, long long seed, long long run, const std::string& integrator,
         double step, double t_end, py::object on_event) {
        return run_scene(scene, RunRequest{law, integrator, step, t_end, seed, run}, std::move(on_event));
      },
      py::arg("scene"), py::arg("law"), py::arg("seed"), py::arg("run"), py::arg("integrator"), py::arg("step"),
      py::arg("t_end"), py::arg("on_event"));
}

}  // namespace impactsim::python
