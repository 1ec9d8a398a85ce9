// Batches and a scene's impact from Python: the numbers of runs.csv and samples.csv as arrays, run
// by the same code as the commands (app/batch_row.hpp, python/sampling.hpp), so they are equal.
#include <pybind11/stl.h>

#include "app/batch_row.hpp"
#include "app/parallel_map.hpp"
#include "python/bindings.hpp"
#include "python/sampling.hpp"
#include "scenes/scene.hpp"

namespace impactsim::python {
namespace {

struct Interrupted {};

// One column of runs.csv as an array: float64 for numbers (NaN where the cell is empty), a list of
// strings for status, reason and message; run and seed are integers.
class Columns {
 public:
  Columns(const std::vector<std::string>& names, size_t rows) : names_(names), numbers_(names.size()), texts_(names.size()) {
    for (size_t k = 0; k < names.size(); ++k) {
      if (is_text(names[k])) texts_[k].reserve(rows);
      else numbers_[k].reserve(rows);
    }
  }
  static bool is_text(const std::string& name) { return name == "status" || name == "reason" || name == "message"; }

  void add(const RunRecord& r) {
    size_t k = 0;
    auto number = [&](double x) { numbers_[k++].push_back(x); };
    auto text = [&](const std::string& s) { texts_[k++].push_back(s); };
    number(static_cast<double>(r.run));
    number(0.0);  // the seed, kept exactly in seeds_
    seeds_.push_back(r.seed);
    for (double x : r.coordinates) number(x);
    for (double x : r.parameters) number(x);
    text(r.status);
    text(r.reason);
    const double none = std::nan("");
    if (r.invalid_draw) {
      while (k + 1 < names_.size()) number(none);
      text(r.message);
      return;
    }
    for (double x : {r.t_final, static_cast<double>(r.impacts), static_cast<double>(r.events),
                     static_cast<double>(r.time_steps), r.stepped_time, static_cast<double>(r.dependent_closes)})
      number(x);
    number(r.t_rest >= 0 ? r.t_rest : none);
    number(r.deepest_penetration);
    for (double x : r.q) number(x);
    for (double x : r.v) number(x);
    number(r.kinetic_energy);
    for (bool c : r.closed) number(c ? 1.0 : 0.0);
    for (double x : r.outcomes) number(x);
    text(r.message);
  }

  py::dict dict() const {
    py::dict d;
    for (size_t k = 0; k < names_.size(); ++k) {
      if (names_[k] == "run") {
        std::vector<long long> runs(numbers_[k].begin(), numbers_[k].end());
        d["run"] = py::array_t<long long>(static_cast<py::ssize_t>(runs.size()), runs.data());
      } else if (names_[k] == "seed") {
        d["seed"] = py::array_t<std::uint64_t>(static_cast<py::ssize_t>(seeds_.size()), seeds_.data());
      } else if (is_text(names_[k])) {
        d[py::str(names_[k])] = texts_[k];
      } else {
        d[py::str(names_[k])] = py::array_t<double>(static_cast<py::ssize_t>(numbers_[k].size()), numbers_[k].data());
      }
    }
    return d;
  }

 private:
  std::vector<std::string> names_;
  std::vector<std::vector<double>> numbers_;
  std::vector<std::vector<std::string>> texts_;
  std::vector<std::uint64_t> seeds_;
};

py::dict batch(const Scene& scene, long runs, const std::string& law_name, long long seed, int threads, long first) {
  if (runs < 0 || first < 0) throw py::value_error("runs and first: must be >= 0");
  if (threads < 1) throw py::value_error("threads: must be >= 1, got " + std::to_string(threads));
  const std::string name = law_name.empty() ? scene.law : law_name;
  const std::unique_ptr<ImpactLaw> law = scene_law(scene, name);
  const std::uint64_t batch_seed = seed >= 0 ? static_cast<std::uint64_t>(seed) : scene.seed;
  const System quiet = final_row_only(scene.system);
  const std::vector<std::string> names = run_columns(scene);
  Columns columns(names, static_cast<size_t>(runs));
  without_gil([&] {
    try {
      ordered_parallel_map<RunRecord>(
          first, first + runs, threads, std::max<long>(64, 16L * threads),
          [&](long i, RunRecord& r) {
            if (interrupted()) throw Interrupted{};
            r = run_record(scene, quiet, *law, name, batch_seed, i, "", false);
          },
          [&](long, const RunRecord& r) { columns.add(r); }, [](long) {});
    } catch (const Interrupted&) {  // without_gil raises KeyboardInterrupt
    }
  });
  py::dict d;
  d["columns"] = names;
  d["data"] = columns.dict();
  d["seed"] = batch_seed;
  d["law"] = name;
  return d;
}

py::dict impact(const Scene& scene, long samples, const std::string& law_name, long long seed, int threads) {
  const std::string name = law_name.empty() ? scene.law : law_name;
  const std::unique_ptr<ImpactLaw> law = scene_law(scene, name);
  const ImpactState impact = scene_first_impact(scene.system, scene.initial, scene.source);
  PreparedSampler s{std::make_shared<ContactSpace>(impact.space), impact.v_minus, nullptr, name};
  without_gil([&] { s.prepared = law->prepare(*s.space, s.v_minus); });
  const std::uint64_t sample_seed = seed >= 0 ? static_cast<std::uint64_t>(seed) : scene.seed;
  py::dict d = sample_arrays(s, samples, sample_seed, threads);
  for (const auto& [key, value] : impact_dict(scene, impact, s.space)) d[key] = value;
  d["seed"] = sample_seed;
  d["law"] = name;
  return d;
}

}  // namespace

void bind_batch(py::module_& m) {
  m.def("batch", batch, py::arg("scene"), py::arg("runs"), py::arg("law"), py::arg("seed"), py::arg("threads"),
        py::arg("first"));
  m.def("impact", impact, py::arg("scene"), py::arg("samples"), py::arg("law"), py::arg("seed"), py::arg("threads"));
}

}  // namespace impactsim::python
