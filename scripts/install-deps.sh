#!/usr/bin/env bash
# Installs the Debian packages vrender needs to build, test and run, when any is missing.
# Idempotent: does nothing (and needs no network) when everything is already there.
# Uses sudo when not root.   usage: scripts/install-deps.sh
set -euo pipefail

packages=(
  pkg-config
  libavformat-dev libavcodec-dev libswscale-dev libswresample-dev libavutil-dev
  libpng-dev
  libfreetype-dev fonts-dejavu-core fonts-wqy-microhei
  tmux
  ffmpeg
  libvulkan-dev mesa-vulkan-drivers glslc vulkan-validationlayers
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
