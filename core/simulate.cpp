#include "core/simulate.hpp"

#include <cmath>
#include <sstream>

#include "core/dynamics.hpp"

namespace impactsim {

std::pair<double, double> energies(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Kinematics kin(model);
  update_kinematics(model, q, kin);
  update_velocities(model, q, v, kin);
  return {kinetic_energy(model, kin), potential_energy(model, kin)};
}

}  // namespace impactsim
