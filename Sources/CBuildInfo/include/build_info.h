#ifndef VRENDER_BUILD_INFO_H
#define VRENDER_BUILD_INFO_H

// What this binary was built from: scripts/build-info.sh writes the values before every build
// that make runs (build_info_generated.h, git-ignored). A plain `swift build` that never ran it
// leaves them empty, and `vrender --version` says the commit is unknown.
const char *vrender_build_version(void);
const char *vrender_build_commit(void);

#endif
