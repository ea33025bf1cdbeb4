#include "build_info.h"

// Only this file includes the generated header, so a new commit recompiles one C file and
// relinks; no Swift module that imports CBuildInfo is rebuilt.
#if __has_include("build_info_generated.h")
#include "build_info_generated.h"
#endif
#ifndef VRENDER_BUILD_VERSION
#define VRENDER_BUILD_VERSION ""
#endif
#ifndef VRENDER_BUILD_COMMIT
#define VRENDER_BUILD_COMMIT ""
#endif

const char *vrender_build_version(void) { return VRENDER_BUILD_VERSION; }
const char *vrender_build_commit(void) { return VRENDER_BUILD_COMMIT; }
