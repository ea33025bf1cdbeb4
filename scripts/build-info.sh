#!/usr/bin/env bash
# Writes Sources/CBuildInfo/build_info_generated.h (git-ignored): the version and commit that
# `vrender --version` prints. make runs it before every build. The file is rewritten only when a
# value changed, so an unchanged tree rebuilds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
header=Sources/CBuildInfo/build_info_generated.h
wanted=$(printf '// Written by scripts/build-info.sh: do not edit, do not commit.\n#define VRENDER_BUILD_VERSION "%s"\n#define VRENDER_BUILD_COMMIT "%s"\n' \
    "$(scripts/version.sh)" "$(scripts/version.sh --commit)")
if [ ! -f "$header" ] || [ "$(cat "$header")" != "$wanted" ]; then
    # Renamed into place: .ci/run's side-by-side steps (make test, make fuzz) run this together.
    printf '%s\n' "$wanted" > "$header.tmp.$$" && mv -f "$header.tmp.$$" "$header"
    # A header that appears after a build without it is not in that build's dependency list.
    touch Sources/CBuildInfo/build_info.c
fi
