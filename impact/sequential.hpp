#pragma once
// Sequential impacts (Halm and Posa §2.2.2; Ivanov; Seghete and Murphey): one contact at a time, each
// resolved by the single-contact Anitescu-Potra law (inelastic and frictional, with the contact's
// restitution), until no contact approaches. The order is a policy:
// - list: the given contacts in turn, the list repeated while contacts still approach;
// - cyclic: start, start+1, ..., m-1, 0, 1, ... (the paper's A,B,A,... and B,A,B,...); a contact
//   that does not approach at its turn takes a null impact, as in the paper's code;
// - random: a contact drawn uniformly from those approaching at each turn.
// The ordering actually used is returned in ImpactResult::ordering.
#include <vector>

#include "impact/impact_law.hpp"
#include "numerics/settings.hpp"

namespace impactsim {

struct SequentialSettings {
  enum class Order { list, cyclic, random } order = Order::cyclic;
  // Contacts are named by ContactSpace::ids when the impact has them, else by position. Listed
  // contacts that are not part of an impact are skipped; a start that is not part of it starts at
  // the first contact.
  std::vector<int> list;    // for Order::list
  int start = 0;            // first contact for Order::cyclic
  // The authors' stopping rule (Halm and Posa's released code: 10 rounds of single impacts, a
  // contact approaches while J_n v < -2.2e-6). Past the cap the sample is flagged as not terminated
  // and what still approaches is resolved by one simultaneous Anitescu-Potra impact over the
  // impact's contacts, so the law always ends with no contact approaching.
  int max_impacts = 0;       // single impacts allowed; 0: 10 per contact of the impact
  double tolerance = 2.2e-6; // [m/s] a contact with J_n v >= -tolerance no longer approaches
};

// A scene's simulation.sequential settings (impact/laws.hpp declares them) as the law takes them.
SequentialSettings sequential_settings(const Settings& settings);

class SequentialLaw : public ImpactLaw {
 public:
  explicit SequentialLaw(SequentialSettings settings = {}) : settings_(std::move(settings)) {}
  std::string_view name() const override { return "sequential"; }
  // Each contact's single-contact LCP operator is built once per impact.
  std::unique_ptr<PreparedImpact> prepare(const ContactSpace& contacts, const Eigen::VectorXd& v_minus) const override;

 private:
  SequentialSettings settings_;
};

}  // namespace impactsim
