#pragma once
// Samples of a prepared impact as numpy arrays, drawn as `impactsim impact` draws them: sample i
// from a generator seeded by (seed, i) alone (app/sample_seed.hpp), so the arrays are the same for
// any number of threads and equal, number for number, to samples.csv's columns.
#include <cstdint>
#include <memory>

#include "core/first_impact.hpp"
#include "impact/impact_law.hpp"
#include "scenes/scene.hpp"
#include "python/bindings.hpp"

namespace impactsim::python {

// A contact space shared with the prepared impacts that refer to it.
using SpacePtr = std::shared_ptr<const ContactSpace>;

// A law's impact at one (space, v_minus), ready to sample from Python.
struct PreparedSampler {
  SpacePtr space;
  Eigen::VectorXd v_minus;
  std::shared_ptr<const PreparedImpact> prepared;
  std::string law;
};

// Samples first .. first + n - 1 on `threads` threads, the GIL released: a dict of arrays (v_plus,
// impulse_n, impulse_t, vn, vt, kinetic_energy_minus, kinetic_energy, lcp_solves, steps, terminated,
// ok, status, classes, lcp_residual, cone_residual, sample) and the failed samples' diagnostics.
py::dict sample_arrays(const PreparedSampler& s, long n, std::uint64_t seed, int threads, long first = 0);

// The first impact of a scene (core/first_impact.hpp), found with the GIL released; ValueError
// where none happens before t_end.
ImpactState scene_first_impact(const System& system, const State& initial, const std::string& source);

// The law `name` ("" = the scene's simulation.law) with the scene's settings; ValueError naming the
// laws for an unknown name.
std::unique_ptr<ImpactLaw> scene_law(const Scene& scene, const std::string& name);

// An impact as the package hands it out: t, q, v_minus, the contact space and its contacts' names.
py::dict impact_dict(const Scene& scene, const ImpactState& impact, const SpacePtr& space);

// One ImpactResult as a dict of arrays and numbers (v_plus, impulses, energies, ordering, ...).
py::dict result_dict(const ImpactResult& r);

}  // namespace impactsim::python
