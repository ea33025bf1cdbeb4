#!/usr/bin/env bash
# Prints vrender's version, made from VERSION and git (the .deb and `vrender --version` use it):
#   0.9.0                     HEAD is tagged v0.9.0 (a release)
#   0.9.0+git439.f75d9c5      anything else: the commit count makes later commits sort later
#   0.9.0+git439.f75d9c5.dirty   ...with uncommitted changes to tracked files
#   0.9.0                     outside a git checkout (a source tarball)
# Usage: scripts/version.sh [--commit]   (--commit: the full commit hash, or nothing outside git)
set -euo pipefail
cd "$(dirname "$0")/.."
base=$(tr -d ' \n' < VERSION)
inside_git() { git rev-parse --is-inside-work-tree >/dev/null 2>&1; }
if [ "${1:-}" = --commit ]; then
    inside_git && git rev-parse HEAD
    exit 0
fi
if ! inside_git || git describe --exact-match --tags --match "v$base" >/dev/null 2>&1; then
    echo "$base"
    exit 0
fi
version="$base+git$(git rev-list --count HEAD).$(git rev-parse --short=7 HEAD)"
git diff --quiet HEAD -- 2>/dev/null || version="$version.dirty"
echo "$version"
