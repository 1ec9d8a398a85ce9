#pragma once
// Per-contact outcome classes of a post-impact velocity v+ (Halm and Posa's classes of Figs. 9-14):
//   lift   J_n v+ > tol (separating)
//   slide  closed, |J_t v+| > tol
//   rest   closed, not sliding, and every entry of v+ within tol (the whole system at rest)
//   stick  closed, not sliding, the system still moving
// tol is a speed [m/s].
// A sample with no trustworthy outcome has no classes at all: it is `collide` (the law hit its step
// cap with a contact still approaching) or `failed` (an LCP failure or a rise of kinetic energy). The
// authors' sampler discards both (Halm and Posa's released code; the dissertation's digest, errata);
// samples.csv labels them so and the class tables leave them out.
#include "impact/impact_law.hpp"

namespace impactsim {

enum class OutcomeClass { rest, stick, slide, lift };
constexpr int kOutcomeClasses = 4;

// "rest", "stick", "slide", "lift".
const char* outcome_class_name(OutcomeClass c);

OutcomeClass outcome_class(const ContactSpace& contacts, const Eigen::VectorXd& v_plus, int i, double tol);

// The tol `impact` classifies an impact's samples with: 1e-6 of the fastest approach (J_n v-), and
// at least 1e-6 m/s.
double outcome_tolerance(const ContactSpace& contacts, const Eigen::VectorXd& v_minus);

enum class SampleStatus { accepted, collide, failed };

// "accepted", "collide", "failed".
const char* sample_status_name(SampleStatus s);

// collide when the law did not terminate, else failed when its result is not ok, else accepted.
SampleStatus sample_status(const ImpactResult& r);

}  // namespace impactsim
