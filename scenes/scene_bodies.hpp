#pragma once
// A scene's bodies: the `world` shapes and each entry of `bodies` (its joint, shapes, mass and
// inertia, initial coordinates), read as scenes/README.md documents them. Every failure names the
// file, line and key.
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include "collision/contact.hpp"
#include "core/model.hpp"
#include "core/state.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

constexpr double kDeg = std::numbers::pi / 180.0;

// The shapes of a list: body -1 for the world's (static, where a halfspace may go).
std::vector<Geometry> read_shapes(const Field& list, int body, const std::string& owner, bool static_body,
                                  const std::string& scene_file);

Joint read_joint(const Field& f);

// [Ixx, Iyy, Izz] or the six entries [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] [kg m^2], a physical inertia.
Mat3 read_inertia(const Field& f);

// Mass properties: explicit (mass + inertia), from shapes at a density, or from shapes scaled to a mass.
void read_mass(const Field& f, const std::vector<Geometry>& shapes, Body& b);

// Whether a joint's coordinate is an angle (or angular velocity), which may be given in degrees.
bool is_angle(JointType type, std::string_view coordinate);

// Initial coordinates by name ("theta", "vx", ...) into state; angles may be given as <name>_deg.
void read_initial(const Field& f, const Body& b, State& state);

// The entries of `bodies` appended to model (after a robot's links) with their shapes appended to
// geometries; the fields of the entries, in order. An undefined list reads as none.
std::vector<Field> read_bodies(const Field& bodies, const std::string& file, Model& model,
                               std::vector<Geometry>& geometries);

}  // namespace impactsim
