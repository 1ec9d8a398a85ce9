#include "impact/sequential.hpp"

#include <random>

#include <Eigen/SparseCore>

#include "impact/laws.hpp"
#include "impact/anitescu_potra.hpp"
#include "impact/circular_cone.hpp"

namespace impactsim {
namespace {

constexpr int kRoundsPerContact = 10;

// Position of scene contact `id` within the impact, or -1.
int position(const ContactSpace& c, int id) {
  if (c.ids.empty()) return id < c.contacts() ? id : -1;
  for (size_t k = 0; k < c.ids.size(); ++k)
    if (c.ids[k] == id) return static_cast<int>(k);
  return -1;
}

class SequentialImpact : public PreparedImpact {
 public:
  SequentialImpact(const ContactSpace& c, const Eigen::VectorXd& v_minus, const SequentialSettings& settings)
      : v_minus_(v_minus), J_n_(c.J_n.sparseView()), tangent_dim_(c.tangent_dim), settings_(settings),
        whole_(c), M_llt_(mass_factor(c)) {
    const int m = c.contacts();
    cap_ = settings.max_impacts > 0 ? settings.max_impacts : kRoundsPerContact * m;
    // One factor of M for every single contact's operator (a row of 100 balls: 201 of them), and
    // no copy of M in their spaces.
    for (int i = 0; i < m; ++i) {
      singles_.push_back(contact_rows(c, {i}));
      operators_.push_back(anitescu_potra_operator(singles_.back(), M_llt_));
    }
    for (int id : settings.list)
      if (position(c, id) >= 0) list_.push_back(position(c, id));
    if (list_.empty())
      for (int k = 0; k < m; ++k) list_.push_back(k);
    start_ = std::max(0, position(c, settings.start));
  }

  ImpactResult draw(Rng& rng) const override {
    const int m = static_cast<int>(J_n_.rows()), td = tangent_dim_;
    ImpactResult r;
    r.kinetic_energy_minus = 0.5 * v_minus_.dot(whole_.M * v_minus_);
    r.v_plus = v_minus_;
    r.impulse_n = Eigen::VectorXd::Zero(m);
    r.impulse_t = Eigen::VectorXd::Zero(m * td);
    for (int turn = 0;; ++turn) {
      const Eigen::VectorXd vn = J_n_ * r.v_plus;
      if (vn.minCoeff() >= -settings_.tolerance) break;
      if (r.steps >= cap_) {
        finish_simultaneously(r);
        break;
      }
      const int i = next_contact(turn, vn, rng);
      const ImpactResult one = single_impact(i, r.v_plus);
      if (!one.ok) {
        r.ok = false;
        r.diagnostic = "sequential: " + one.diagnostic;
        break;
      }
      r.v_plus = one.v_plus;
      r.impulse_n[i] += one.impulse_n[0];
      r.impulse_t.segment(i * td, td) += one.impulse_t;
      r.lcp_residual = std::max(r.lcp_residual, one.lcp_residual);
      r.cone_residual = std::max(r.cone_residual, one.cone_residual);
      r.lcp_solves += one.lcp_solves;
      r.ordering.push_back(i);
      ++r.steps;
    }
    r.kinetic_energy_plus = 0.5 * r.v_plus.dot(whole_.M * r.v_plus);
    return r;
  }

 private:
  // Contact i's impact alone from v, in its friction cone (the polygon's operator is kept).
  ImpactResult single_impact(int i, const Eigen::VectorXd& v) const {
    if (uses_circular_cone(singles_[i])) return solve_anitescu_potra(singles_[i], M_llt_, v, {}, false);
    return solve_anitescu_potra(singles_[i], operators_[i], v, {}, false);
  }

  // Past the cap: one Anitescu-Potra impact over every contact from the current velocity.
  void finish_simultaneously(ImpactResult& r) const {
    r.terminated = false;
    // The whole space's operator is built here, not in prepare: few draws reach the cap, and in a
    // row of 100 balls the operator of 201 contacts cost more than every draw of its 201 orderings.
    const ImpactResult rest = uses_circular_cone(whole_)
                                  ? solve_anitescu_potra(whole_, M_llt_, r.v_plus)
                                  : solve_anitescu_potra(whole_, anitescu_potra_operator(whole_, M_llt_), r.v_plus);
    r.diagnostic = "sequential: contacts still approached after " + std::to_string(r.steps) +
                   " single impacts; the rest was resolved simultaneously (Anitescu-Potra)";
    if (!rest.ok) {
      r.ok = false;
      r.diagnostic += ": " + rest.diagnostic;
      return;
    }
    r.v_plus = rest.v_plus;
    r.impulse_n += rest.impulse_n;
    r.impulse_t += rest.impulse_t;
    r.lcp_residual = std::max(r.lcp_residual, rest.lcp_residual);
    r.lcp_solves += rest.lcp_solves;
  }

  // The contact resolved at `turn`, given the normal velocities vn.
  int next_contact(int turn, const Eigen::VectorXd& vn, Rng& rng) const {
    const int m = static_cast<int>(vn.size());
    switch (settings_.order) {
      case SequentialSettings::Order::list: return list_[turn % list_.size()];
      case SequentialSettings::Order::cyclic: return (start_ + turn) % m;
      case SequentialSettings::Order::random: break;
    }
    std::vector<int> approaching;
    for (int k = 0; k < m; ++k)
      if (vn[k] < -settings_.tolerance) approaching.push_back(k);
    return approaching[std::uniform_int_distribution<size_t>(0, approaching.size() - 1)(rng)];
  }

  Eigen::VectorXd v_minus_;
  // Each row touches at most two bodies: J_n v after a single impact costs at most 12 products a
  // contact, not nv (600 in a row of 100 balls).
  Eigen::SparseMatrix<double, Eigen::RowMajor> J_n_;
  int tangent_dim_;
  SequentialSettings settings_;
  std::vector<ContactSpace> singles_;
  std::vector<AnitescuPotraOperator> operators_;
  ContactSpace whole_;
  MassFactor M_llt_;
  std::vector<int> list_;
  int start_ = 0;
  int cap_ = 0;
};

}  // namespace

std::unique_ptr<PreparedImpact> SequentialLaw::prepare(const ContactSpace& c, const Eigen::VectorXd& v_minus) const {
  return std::make_unique<SequentialImpact>(c, v_minus, settings_);
}

}  // namespace impactsim

namespace impactsim {

SequentialSettings sequential_settings(const Settings& s) {
  SequentialSettings out;
  const std::string& order = s.word("order");
  out.order = order == "list"     ? SequentialSettings::Order::list
              : order == "random" ? SequentialSettings::Order::random
                                  : SequentialSettings::Order::cyclic;
  out.start = static_cast<int>(s.integer("start"));
  out.list = s.indices("list");
  out.max_impacts = static_cast<int>(s.integer("max_impacts"));
  out.tolerance = s.number("tolerance");
  return out;
}

const LawDescriptor& sequential_law() {
  static const LawDescriptor law = [] {
    const SequentialSettings d;
    LawDescriptor out;
    out.name = "sequential";
    out.summary = "one contact at a time, each a single-contact Anitescu-Potra impact, in a cyclic, listed or random order";
    out.settings = {
        choice_setting("order", {"cyclic", "random", "list"},
                       "`cyclic` from `start`, `random` (uniform among the approaching contacts), or `list`"),
        contact_setting("start", d.start, "the first contact", "where a cyclic order starts"),
        contacts_setting("list", "resolved in turn, the list repeated; contacts not in an impact are skipped"),
        count_setting("max_impacts", d.max_impacts, "10 per contact of the impact",
                      "single impacts before the rest is resolved simultaneously (Anitescu-Potra) and the sample flagged"),
        number_setting("tolerance", SettingKind::positive, d.tolerance, "2.2e-6",
                       "m/s; a contact with J_n v >= -tolerance no longer approaches"),
    };
    out.check = [](const Settings& s) {
      if (s.word("order") == "list" && s.indices("list").empty())
        return SettingProblem{"", "order: list needs a list of contact names"};
      return SettingProblem{};
    };
    out.make = [](const Settings& s) -> std::unique_ptr<ImpactLaw> {
      return std::make_unique<SequentialLaw>(sequential_settings(s));
    };
    return out;
  }();
  return law;
}

}  // namespace impactsim
