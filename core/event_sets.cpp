#include "core/event_sets.hpp"

#include <algorithm>

#include "core/event_locate.hpp"
#include "core/guards.hpp"

namespace impactsim {
namespace {

bool touches(const System& sys, const ContactModes& modes, const ContactData& data, int i) {
  const double phi = data.frames[i].phi, tol = sys.contact.distance_tolerance;
  if (phi > tol) return false;
  return !gated(sys.contacts, i) || (!behind(sys.contacts, modes, data.body.kin, data.frames, i) && phi >= -tol);
}

// Contact i touches and is not deferred (deferred_contacts; empty: none is).
bool in_event(const System& sys, const ContactModes& modes, const ContactData& data, const std::vector<bool>& deferred,
              int i) {
  return touches(sys, modes, data, i) && !(i < static_cast<int>(deferred.size()) && deferred[i]);
}

}  // namespace

// The contacts touching() flags, ascending.
std::vector<int> touching_contacts(const System& sys, const ContactModes& modes, const ContactData& data,
                                   const std::vector<bool>& deferred) {
  std::vector<int> out;
  for (int i : data.near.contacts)
    if (in_event(sys, modes, data, deferred, i)) out.push_back(i);
  return out;
}

// Contacts touching and approaching faster than the velocity tolerance.
std::vector<int> impacting(const System& sys, const ContactModes& modes, const ContactData& data,
                           const std::vector<bool>& deferred, const Eigen::VectorXd& v) {
  std::vector<int> out;
  for (int i : data.near.contacts)
    if (in_event(sys, modes, data, deferred, i) && data.jac.normal_velocity(i, v) < -sys.contact.velocity_tolerance) out.push_back(i);
  return out;
}

// The candidates of mode selection and the Zeno projection: every touching contact that is not separating.
std::vector<int> touching_not_separating(const System& sys, const ContactModes& modes, const ContactData& data,
                                         const std::vector<bool>& deferred, const Eigen::VectorXd& v) {
  std::vector<int> out;
  for (int i : data.near.contacts)
    if (in_event(sys, modes, data, deferred, i) && data.jac.normal_velocity(i, v) <= sys.contact.velocity_tolerance) out.push_back(i);
  return out;
}

double event_margin(const ContactSettings& settings) {
  return std::max(settings.broadphase_margin, settings.distance_tolerance);
}

std::vector<bool> touching(const System& sys, const ContactModes& modes, const ContactData& data,
                           const std::vector<bool>& deferred) {
  std::vector<bool> out(sys.contacts.size(), false);
  for (int i : touching_contacts(sys, modes, data, deferred)) out[i] = true;
  return out;
}

void compute_event_frames(const System& sys, const Kinematics& kin, const Broadphase& broadphase, const NearSet& near,
                          std::vector<ContactFrame>& frames) {
  broadphase.update(sys.contacts, event_margin(sys.contact), kin.R, kin.p, near, frames);
  for (int i : near.contacts) {  // gated contacts are always near
    const int j = sys.contacts.contact(i).only_ahead_of;
    if (j >= 0) frames[j] = sys.contacts.frame(kin.R, kin.p, j);  // behind() reads its tangent
  }
}

void compute_event_data(const System& sys, const ContactModes& modes, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& v, ContactData& data) {
  compute_body_dynamics(sys.model, q, v, data.body);
  compute_event_frames(sys, data.body.kin, data.broadphase, data.near, data.frames);
  compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, touching_contacts(sys, modes, data, {}),
                            data.jac);
}

bool simultaneous_contact(double phi, double vn, double t, const ContactSettings& settings) {
  const double precision = kEventTimePrecision * std::max(1.0, std::abs(t));  // locate_crossing's bracket
  return phi <= 1e-6 * settings.distance_tolerance + std::max(0.0, -vn) * precision;
}

std::vector<bool> deferred_contacts(const System& sys, const ContactModes& modes, const ContactData& data,
                                    const Eigen::VectorXd& v, double t) {
  std::vector<bool> out(sys.contacts.size(), false);
  for (int i : data.near.contacts) {
    if (modes.mode[i] != ContactMode::open || !touches(sys, modes, data, i)) continue;
    const double vn = data.jac.normal_velocity(i, v);
    out[i] = vn < -sys.contact.velocity_tolerance && !simultaneous_contact(data.frames[i].phi, vn, t, sys.contact);
  }
  return out;
}

}  // namespace impactsim
