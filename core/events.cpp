#include "core/events.hpp"

#include <ostream>
#include <sstream>

namespace impactsim {

std::string format_time(double t) {
  std::ostringstream s;
  s.precision(12);
  s << t;
  return s.str();
}

std::string_view event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::impact: return "impact";
    case EventKind::zeno: return "zeno";
    case EventKind::iwc: return "iwc";
    case EventKind::liftoff: return "liftoff";
    case EventKind::stick: return "stick";
    case EventKind::slip: return "slip";
    case EventKind::rest: return "rest";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& out, EventKind kind) { return out << event_kind_name(kind); }

bool is_impact(EventKind kind) {
  return kind == EventKind::impact || kind == EventKind::zeno || kind == EventKind::iwc;
}

}  // namespace impactsim
