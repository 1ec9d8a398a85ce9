#pragma once
// Which impactsim made a result: the project version (CMakeLists.txt) and the git commit of the
// source tree it was built from, written at build time by tools/version.cmake ("unknown" outside a
// git checkout; "-dirty" appended when tracked files had uncommitted changes).
namespace impactsim {

const char* impactsim_version();
const char* impactsim_commit();

}  // namespace impactsim
