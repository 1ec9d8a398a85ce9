#include "python/sampling.hpp"

#include <pybind11/stl.h>

#include "app/parallel_map.hpp"
#include "app/sample_seed.hpp"
#include "impact/laws.hpp"
#include "impact/outcome_class.hpp"

namespace impactsim::python {
namespace {

struct Interrupted {};

// The arrays of n samples, allocated under the GIL and filled without it (rows are disjoint).
struct SampleBuffers {
  py::array_t<double> v_plus, impulse_n, impulse_t, vn, vt, ke_minus, ke, lcp_residual, cone_residual;
  py::array_t<long long> sample, lcp_solves, steps;
  py::array_t<bool> terminated, ok;
  py::array_t<std::int8_t> status, classes;

  SampleBuffers(long n, long nv, long m, long td)
      : v_plus({n, nv}), impulse_n({n, m}), impulse_t({n, m * td}), vn({n, m}), vt({n, m * td}), ke_minus(n), ke(n),
        lcp_residual(n), cone_residual(n), sample(n), lcp_solves(n), steps(n), terminated(n), ok(n), status(n),
        classes({n, m}) {}
};

// Raw row pointers into the buffers: what the workers write through.
struct Rows {
  double *v_plus, *impulse_n, *impulse_t, *vn, *vt, *ke_minus, *ke, *lcp_residual, *cone_residual;
  long long *sample, *lcp_solves, *steps;
  bool *terminated, *ok;
  std::int8_t *status, *classes;
  long nv, m, td;

  Rows(SampleBuffers& b, long nv_, long m_, long td_)
      : v_plus(b.v_plus.mutable_data()), impulse_n(b.impulse_n.mutable_data()), impulse_t(b.impulse_t.mutable_data()),
        vn(b.vn.mutable_data()), vt(b.vt.mutable_data()), ke_minus(b.ke_minus.mutable_data()), ke(b.ke.mutable_data()),
        lcp_residual(b.lcp_residual.mutable_data()), cone_residual(b.cone_residual.mutable_data()),
        sample(b.sample.mutable_data()), lcp_solves(b.lcp_solves.mutable_data()), steps(b.steps.mutable_data()),
        terminated(b.terminated.mutable_data()), ok(b.ok.mutable_data()), status(b.status.mutable_data()),
        classes(b.classes.mutable_data()), nv(nv_), m(m_), td(td_) {}

  // Row k from sample `index`'s result; J_n v+ and J_t v+ as samples.csv computes them.
  void write(long k, long index, const ImpactResult& r, const ContactSpace& c, double tol) const {
    std::copy(r.v_plus.data(), r.v_plus.data() + nv, v_plus + k * nv);
    std::copy(r.impulse_n.data(), r.impulse_n.data() + r.impulse_n.size(), impulse_n + k * m);
    std::fill(impulse_t + k * m * td, impulse_t + (k + 1) * m * td, 0.0);
    std::copy(r.impulse_t.data(), r.impulse_t.data() + std::min<long>(r.impulse_t.size(), m * td), impulse_t + k * m * td);
    thread_local Eigen::VectorXd vn_k, vt_k;  // a worker's, kept: no allocation per sample
    vn_k.noalias() = c.J_n * r.v_plus;
    vt_k.noalias() = c.J_t * r.v_plus;
    std::copy(vn_k.data(), vn_k.data() + m, vn + k * m);
    std::copy(vt_k.data(), vt_k.data() + m * td, vt + k * m * td);
    ke_minus[k] = r.kinetic_energy_minus;
    ke[k] = r.kinetic_energy_plus;
    lcp_residual[k] = r.lcp_residual;
    cone_residual[k] = r.cone_residual;
    sample[k] = index;
    lcp_solves[k] = r.lcp_solves;
    steps[k] = r.steps;
    terminated[k] = r.terminated;
    ok[k] = r.ok;
    status[k] = static_cast<std::int8_t>(sample_status(r));
    for (long i = 0; i < m; ++i)
      classes[k * m + i] = static_cast<std::int8_t>(outcome_class(c, r.v_plus, static_cast<int>(i), tol));
  }
};

}  // namespace

py::dict sample_arrays(const PreparedSampler& s, long n, std::uint64_t seed, int threads, long first) {
  if (n < 0) throw py::value_error("n: must be >= 0, got " + std::to_string(n));
  if (first < 0) throw py::value_error("first: must be >= 0, got " + std::to_string(first));
  if (threads < 1) throw py::value_error("threads: must be >= 1, got " + std::to_string(threads));
  const ContactSpace& c = *s.space;
  const long nv = c.M.rows(), m = c.contacts(), td = c.tangent_dim;
  SampleBuffers buffers(n, nv, m, td);
  const Rows rows(buffers, nv, m, td);
  const double tol = outcome_tolerance(c, s.v_minus);
  std::vector<std::pair<long, std::string>> failures;
  std::mutex failures_mutex;
  without_gil([&] {
    try {
      ordered_parallel_map<char>(
          first, first + n, threads, 16384,
          [&](long i, char&) {
            if (interrupted()) throw Interrupted{};
            Rng rng(sample_seed(seed, static_cast<std::uint64_t>(i)));
            const ImpactResult r = s.prepared->sample(static_cast<std::uint64_t>(i), rng);
            rows.write(i - first, i, r, c, tol);
            if (!r.ok) {
              const std::lock_guard<std::mutex> lock(failures_mutex);
              failures.emplace_back(i, r.diagnostic);
            }
          },
          [](long, const char&) {}, [](long) {});
    } catch (const Interrupted&) {  // without_gil raises KeyboardInterrupt
    }
  });
  std::sort(failures.begin(), failures.end());
  py::dict d;
  d["sample"] = buffers.sample;
  d["v_plus"] = buffers.v_plus;
  d["impulse_n"] = buffers.impulse_n;
  d["impulse_t"] = buffers.impulse_t;
  d["vn"] = buffers.vn;
  d["vt"] = buffers.vt;
  d["kinetic_energy_minus"] = buffers.ke_minus;
  d["kinetic_energy"] = buffers.ke;
  d["lcp_solves"] = buffers.lcp_solves;
  d["steps"] = buffers.steps;
  d["terminated"] = buffers.terminated;
  d["ok"] = buffers.ok;
  d["status"] = buffers.status;
  d["classes"] = buffers.classes;
  d["lcp_residual"] = buffers.lcp_residual;
  d["cone_residual"] = buffers.cone_residual;
  d["failures"] = failures;
  d["tolerance"] = tol;
  return d;
}

ImpactState scene_first_impact(const System& system, const State& initial, const std::string& source) {
  ImpactState impact;
  bool found = false;
  without_gil([&] { found = find_first_impact(system, initial, impact); });
  if (!found)
    throw py::value_error(source + ": no impact happens before t_end = " + std::to_string(system.simulation.t_end) + " s");
  return impact;
}

std::unique_ptr<ImpactLaw> scene_law(const Scene& scene, const std::string& name) {
  const std::string law = name.empty() ? scene.law : name;
  std::unique_ptr<ImpactLaw> made = make_law(law, scene.laws);
  if (!made) throw py::value_error("law: no law named '" + law + "' (laws: " + law_names_text() + ")");
  return made;
}

py::dict impact_dict(const Scene& scene, const ImpactState& impact, const SpacePtr& space) {
  py::dict d;
  d["t"] = impact.t;
  d["q"] = to_array(impact.q);
  d["v_minus"] = to_array(impact.v_minus);
  d["space"] = std::const_pointer_cast<ContactSpace>(space);
  std::vector<std::string> names;
  for (int id : impact.space.ids) names.push_back(scene.system.contacts.contact(id).name);
  d["contact_names"] = names;
  return d;
}

py::dict result_dict(const ImpactResult& r) {
  py::dict d;
  d["v_plus"] = to_array(r.v_plus);
  d["impulse_n"] = to_array(r.impulse_n);
  d["impulse_t"] = to_array(r.impulse_t);
  d["kinetic_energy_minus"] = r.kinetic_energy_minus;
  d["kinetic_energy"] = r.kinetic_energy_plus;
  d["lcp_solves"] = r.lcp_solves;
  d["lcp_residual"] = r.lcp_residual;
  d["cone_residual"] = r.cone_residual;
  d["ok"] = r.ok;
  d["terminated"] = r.terminated;
  d["steps"] = r.steps;
  d["ordering"] = r.ordering;
  d["diagnostic"] = r.diagnostic;
  return d;
}

}  // namespace impactsim::python
