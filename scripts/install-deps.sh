#!/usr/bin/env bash
# Installs the Debian packages vrender needs to build, test and run, when any is missing.
# Idempotent: does nothing (and needs no network) when everything is already there.
# Uses sudo when not root.   usage: scripts/install-deps.sh [--slurm] [--browser] [--package]
#
# --slurm (or CI=true in the environment) adds Slurm and munge, which only the scale-out tests
# need (scripts/slurm-cluster.sh runs a private single-node cluster with them); a newcomer's
# `make demo` / `make test` does not pull in a batch scheduler.
# --browser (or CI=true) adds Debian's chromium and pip, which only the studio page's browser
# test needs (`make test-studio`: Playwright from PyPI drives that chromium; no browser download).
# --package adds what only packaging needs (`make deb`, `make test-install`, `make test-deb`):
# dpkg-shlibdeps, strip, lintian, man-db (man, lexgrog), debootstrap, and zsh and fish for the
# completion checks. Not in CI=true: the targets that need them pass --package themselves.
set -euo pipefail

with_slurm=false
with_browser=false
with_package=false
[ "${CI:-}" = true ] && with_slurm=true && with_browser=true
for arg in "$@"; do
  case $arg in
    --slurm) with_slurm=true ;;
    --browser) with_browser=true ;;
    --package) with_package=true ;;
    *) echo "install-deps: unknown option $arg (usage: install-deps.sh [--slurm] [--browser] [--package])" >&2; exit 2 ;;
  esac
done

packages=(
  pkg-config
  libavformat-dev libavcodec-dev libswscale-dev libswresample-dev libavutil-dev
  libpng-dev
  # `concat --stabilize`: libvidstab (motion detection, the warp)
  libvidstab-dev
  libfreetype-dev fonts-dejavu-core fonts-wqy-microhei
  # burned-in captions: shaping (HarfBuzz) and right-to-left order (FriBidi)
  libharfbuzz-dev libfribidi-dev
  libebur128-dev
  # the synthetic presenter's voice, and captions' reference speech (espeak-ng)
  libespeak-ng-dev
  # chunk files' SHA-256 (libcrypto)
  libssl-dev
  tmux
  # scripts/check-imports.sh (make test) reads the module graph with it
  python3
  ffmpeg
  libvulkan-dev mesa-vulkan-drivers glslc vulkan-validationlayers
  # microphones: ALSA, PulseAudio; the server, paplay and aplay for their tests
  libasound2-dev alsa-utils
  libpulse-dev pulseaudio pulseaudio-utils
  # the sound tests' busy machine (make test-audio, the ALSA rounds in make test-vivid)
  stress-ng
)
# Nothing starts on install without systemd; scripts/slurm-cluster.sh starts its own daemons.
$with_slurm && packages+=(slurmctld slurmd slurm-client munge)
$with_browser && packages+=(chromium python3-pip)
$with_package && packages+=(dpkg-dev binutils lintian man-db debootstrap zsh fish)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
# apt runs one at a time, and steps of .ci/run run side by side (its `together`): one
# install-deps waits for another, on a lock of this very script (no file to create).
exec {script_lock}<"$0"
flock "$script_lock"
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
