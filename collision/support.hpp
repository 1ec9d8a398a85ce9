#pragma once
// Support points of the solid shapes: the point of the solid farthest along a direction. They give
// the lowest point of a shape over a halfspace (an exact signed distance) and the deepest points
// along a separating axis.
//
// Conventions: u and the result are in the shape's own frame (collision/shape.hpp); u need not be
// unit but must not be zero. Where several points are farthest (a face or edge facing u), the one
// returned is the centre of that face or edge, so the answer does not flicker between corners.
// A halfspace has no support point along most directions; support_point refuses it (throws
// std::invalid_argument).
#include "collision/shape.hpp"

namespace impactsim {

Vec3 support_point(const Shape& shape, const Vec3& u);

// max over the solid of u . x, u in the shape frame (the support function h(u)).
inline double support_value(const Shape& shape, const Vec3& u) { return u.dot(support_point(shape, u)); }

}  // namespace impactsim
