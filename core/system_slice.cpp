#include "core/system_slice.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace impactsim {
namespace {

// Each joint's span of q and v in `model`, appended to (q_index, v_index).
void joint_spans(const Model& model, int body, std::vector<int>& q_index, std::vector<int>& v_index) {
  const Joint& j = model.bodies[body].joint;
  const int next = body + 1 < static_cast<int>(model.bodies.size()) ? body + 1 : -1;
  const int q_end = next < 0 ? model.nq : model.bodies[next].joint.q_index;
  const int v_end = next < 0 ? model.nv : model.bodies[next].joint.v_index;
  for (int k = j.q_index; k < q_end; ++k) q_index.push_back(k);
  for (int k = j.v_index; k < v_end; ++k) v_index.push_back(k);
}

}  // namespace

std::vector<std::vector<int>> contacts_by_body(const System& sys) {
  std::vector<std::vector<int>> out(sys.model.bodies.size());
  for (int i = 0; i < sys.contacts.size(); ++i) {
    const int a = sys.contacts.contact(i).body_a, b = sys.contacts.body_b(i);
    if (a >= 0) out[a].push_back(i);
    if (b >= 0 && b != a) out[b].push_back(i);
  }
  return out;
}

SystemSlice slice_system(const System& sys, const std::vector<int>& bodies,
                         const std::vector<std::vector<int>>& by_body) {
  SystemSlice s;
  s.system.simulation = sys.simulation;
  s.system.contact = sys.contact;
  s.system.integrator = sys.integrator;
  s.system.time_stepping = sys.time_stepping;
  s.system.drumwright = sys.drumwright;
  s.system.model.gravity = sys.model.gravity;
  s.bodies = bodies;
  const int n = static_cast<int>(sys.model.bodies.size());
  std::vector<int> body_map(n, -1);
  Model& model = s.system.model;
  model.bodies.clear();
  for (int b : bodies) {
    if (sys.model.bodies[b].parent != -1) throw std::invalid_argument("slice_system: body " + sys.model.bodies[b].name + " is not a root");
    body_map[b] = static_cast<int>(model.bodies.size());
    model.bodies.push_back(sys.model.bodies[b]);
    joint_spans(sys.model, b, s.q_index, s.v_index);
  }
  finalize_model(model);
  const std::vector<Geometry>& geometries = sys.contacts.geometries();
  std::vector<int> geometry_map(geometries.size(), -1);
  std::vector<Geometry> kept;
  for (size_t g = 0; g < geometries.size(); ++g) {
    if (geometries[g].body >= 0 && body_map[geometries[g].body] < 0) continue;
    geometry_map[g] = static_cast<int>(kept.size());
    kept.push_back(geometries[g]);
    if (kept.back().body >= 0) kept.back().body = body_map[kept.back().body];
  }
  std::vector<int> candidates;  // every contact of the slice's bodies, once, in order
  for (int b : bodies) candidates.insert(candidates.end(), by_body[b].begin(), by_body[b].end());
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::unordered_map<int, int> contact_map;
  std::vector<ContactDef> contacts;
  for (int i : candidates) {
    ContactDef c = sys.contacts.contact(i);
    const bool a_kept = c.body_a < 0 || body_map[c.body_a] >= 0;
    if (!a_kept || geometry_map[c.geometry_b] < 0 || (c.geometry_a >= 0 && geometry_map[c.geometry_a] < 0)) continue;
    if (c.body_a >= 0) c.body_a = body_map[c.body_a];
    c.geometry_b = geometry_map[c.geometry_b];
    if (c.geometry_a >= 0) c.geometry_a = geometry_map[c.geometry_a];
    contact_map[i] = static_cast<int>(contacts.size());
    s.contacts.push_back(i);
    contacts.push_back(c);
  }
  for (ContactDef& c : contacts) {
    const auto gate = contact_map.find(c.only_ahead_of);
    c.only_ahead_of = gate != contact_map.end() ? gate->second : -1;
  }
  s.system.contacts = ContactModel(std::move(kept), std::move(contacts), sys.contacts.planar());
  s.system.pins.clear();
  return s;
}

void gather_state(const SystemSlice& slice, const System& whole, const Eigen::VectorXd& x, Eigen::VectorXd& out) {
  const int nq = static_cast<int>(slice.q_index.size()), nv = static_cast<int>(slice.v_index.size());
  out.resize(nq + nv);
  for (int k = 0; k < nq; ++k) out[k] = x[slice.q_index[k]];
  for (int k = 0; k < nv; ++k) out[nq + k] = x[whole.model.nq + slice.v_index[k]];
}

void scatter_state(const SystemSlice& slice, const System& whole, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   Eigen::VectorXd& x) {
  for (size_t k = 0; k < slice.q_index.size(); ++k) x[slice.q_index[k]] = q[k];
  for (size_t k = 0; k < slice.v_index.size(); ++k) x[whole.model.nq + slice.v_index[k]] = v[k];
}

}  // namespace impactsim
