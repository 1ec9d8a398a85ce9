#pragma once
// Per-contact outcome classes of a post-impact velocity v+ (Halm and Posa's classes of Figs. 9-14):
//   lift   J_n v+ > tol (separating)
//   slide  closed, |J_t v+| > tol
//   rest   closed, not sliding, and every entry of v+ within tol (the whole system at rest)
//   stick  closed, not sliding, the system still moving
// tol is a speed [m/s].
#include "impact/impact_law.hpp"

namespace impactsim {

enum class OutcomeClass { rest, stick, slide, lift };
constexpr int kOutcomeClasses = 4;

// "rest", "stick", "slide", "lift".
const char* outcome_class_name(OutcomeClass c);

OutcomeClass outcome_class(const ContactSpace& contacts, const Eigen::VectorXd& v_plus, int i, double tol);

}  // namespace impactsim
