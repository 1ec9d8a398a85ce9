#include "core/pin.hpp"

namespace impactsim {
namespace {

void pin_phi_and_G(const Model& model, const Kinematics& kin, const std::vector<PinDef>& pins, Eigen::VectorXd& phi,
                   Eigen::MatrixXd& G) {
  const int d = pin_rows(model);
  phi.setZero(static_cast<int>(pins.size()) * d);
  G.setZero(phi.size(), model.nv);
  for (size_t k = 0; k < pins.size(); ++k) {
    const PinDef& pin = pins[k];
    for (const auto& [body, point, sign] : {std::tuple{pin.body_a, pin.point_a, 1.0}, std::tuple{pin.body_b, pin.point_b, -1.0}}) {
      const Vec3 x = body < 0 ? point : point_position(kin, body, point);
      phi.segment(k * d, d) += sign * x.head(d);
      for (int j = body; j >= 0; j = model.bodies[j].parent) {
        const Joint& joint = model.bodies[j].joint;
        for (int c = 0; c < joint.nv; ++c)
          G.block(k * d, joint.v_index + c, d, 1) += sign * point_jacobian_column(kin, j, c, x).tail<3>().head(d);
      }
    }
  }
}

}  // namespace

int pin_rows(const Model& model) { return model.planar ? 2 : 3; }

void evaluate_pins(const Model& model, const std::vector<PinDef>& pins, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, Kinematics& kin, PinState& out) {
  update_kinematics(model, q, kin);
  pin_phi_and_G(model, kin, pins, out.phi, out.G);
  // Gdot v by a central difference of G v along qdot = Gamma(q) v.
  const double h = 1e-6 / std::max(1.0, v.cwiseAbs().maxCoeff());
  out.Gdot_v.setZero(out.phi.size());
  for (double sign : {1.0, -1.0}) {
    integrate_configuration(model, q, v, sign * h, out.q_shift);
    update_kinematics(model, out.q_shift, kin);
    pin_phi_and_G(model, kin, pins, out.phi_shift, out.G_shift);
    out.Gdot_v += sign * (out.G_shift * v) / (2 * h);
  }
}

}  // namespace impactsim
