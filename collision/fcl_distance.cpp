// FCL's templates are instantiated here only, to keep the rest of the build light.
#include "collision/fcl_distance.hpp"

#include <memory>

#include "collision/mesh.hpp"

#include <fcl/narrowphase/distance.h>

namespace impactsim {
namespace {

std::shared_ptr<fcl::CollisionGeometryd> fcl_shape(const Shape& s) {
  switch (s.type) {
    case ShapeType::box: return std::make_shared<fcl::Boxd>(s.size.x(), s.size.y(), s.size.z());
    case ShapeType::sphere: return std::make_shared<fcl::Sphered>(s.radius);
    case ShapeType::cylinder: return std::make_shared<fcl::Cylinderd>(s.radius, s.length);
    case ShapeType::capsule: return std::make_shared<fcl::Capsuled>(s.radius, s.length);
    case ShapeType::cone: return std::make_shared<fcl::Coned>(s.radius, s.length);
    case ShapeType::convex: {
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(s.hull->vertices.begin(), s.hull->vertices.end());
      auto faces = std::make_shared<std::vector<int>>();  // FCL's layout: a count, then the indices
      for (const auto& t : s.hull->triangles) faces->insert(faces->end(), {3, t[0], t[1], t[2]});
      return std::make_shared<fcl::Convexd>(vertices, static_cast<int>(s.hull->triangles.size()), faces);
    }
    case ShapeType::halfspace: break;
  }
  return nullptr;
}

fcl::Transform3d transform(const Pose& pose) {
  fcl::Transform3d X = fcl::Transform3d::Identity();
  X.linear() = pose.R;
  X.translation() = pose.p;
  return X;
}

FclDistance fcl_distance(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b, bool signed_distance) {
  FclDistance out;
  const auto ga = fcl_shape(a), gb = fcl_shape(b);
  if (!ga || !gb) {
    out.error = "FCL has no signed distance to a halfspace (FCL issue #392); use a point contact instead";
    return out;
  }
  fcl::DistanceRequestd request(true, signed_distance);  // nearest points
  request.gjk_solver_type = fcl::GST_LIBCCD;
  request.distance_tolerance = 1e-12;  // the default 1e-6 leaves errors of ~1e-5 m
  fcl::DistanceResultd result;
  try {
    fcl::distance(ga.get(), transform(pose_a), gb.get(), transform(pose_b), request, result);
  } catch (const std::exception& e) {
    out.error = std::string("FCL signed distance failed: ") + e.what();
    return out;
  }
  out.ok = true;
  out.distance = result.min_distance;
  out.point_a = result.nearest_points[0];
  out.point_b = result.nearest_points[1];
  return out;
}

}  // namespace

FclDistance fcl_signed_distance(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b) {
  return fcl_distance(a, pose_a, b, pose_b, true);
}

FclDistance fcl_gjk_distance(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b) {
  return fcl_distance(a, pose_a, b, pose_b, false);
}

}  // namespace impactsim
