#pragma once
// The impact a scene describes: at its initial state if a contact touches and approaches there,
// else the first impact of its motion, found by simulating until then.
#include "core/hybrid.hpp"

namespace impactsim {

struct ImpactState {
  double t = 0.0;
  Eigen::VectorXd q;
  Eigen::VectorXd v_minus;  // the pre-impact velocity
  ContactSpace space;       // every touching contact that is not separating, ids = scene contact indices
};

// The impact set at (q, v), if a contact of it approaches.
bool impact_at(const Model& model, const ContactModel& contacts, const ContactSettings& settings,
               const Eigen::VectorXd& q, const Eigen::VectorXd& v, ContactSpace& space);

// False if no impact happens before settings.t_end; `law` resolves nothing here but is needed by the
// motion before the impact only if an earlier event needs one (it cannot: the first impact stops it).
bool find_first_impact(const Model& model, const ContactModel& contacts, const ImpactLaw& law,
                       const SimulationSettings& settings, const ContactSettings& contact_settings,
                       const State& initial, ImpactState& out);

}  // namespace impactsim
