#!/usr/bin/env bash
# Installs the system libraries umilog needs (Debian/Ubuntu), if they are missing, and any
# further Debian packages named as arguments (scripts/bench.sh adds its tools).
set -euo pipefail
command -v swift >/dev/null || { echo "setup: swift is not on PATH; install Swift 6 (https://swift.org/install) first" >&2; exit 1; }
missing=()
command -v dpkg-query >/dev/null || { echo "setup: dpkg-query is missing; this script installs with apt on Debian or Ubuntu" >&2; exit 1; }
for pkg in libxml2-dev libsqlite3-dev libssl-dev zlib1g-dev pkg-config "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: ${missing[*]} must be installed, as root (sudo is not available)" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  # env, not a prefix: sudo would clear the variable.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
