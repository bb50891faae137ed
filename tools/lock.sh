#!/usr/bin/env bash
# `make lock`: resolve every pin again from PyPI, in fresh venvs, into constraints/*.txt.
#   main.txt    the main venv (Python 3.11): `pip install -e '.[dev]'` and its whole closure
#   harbor.txt  the Harbor venv (Python 3.12): pyproject's exact `harbor` extra and its closure
#   build.txt   the build backends of constraints/build.in (used with --build-constraint)
# Upgrading a pin is a deliberate change: run this, read `git diff constraints/`, then run
# `make test` before committing. Nothing else ever installs without these files.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
HARBOR_PYTHON=${HARBOR_PYTHON:-$("$PYTHON" tests/harbor/harbor_env.py --python)}
if [ -z "$HARBOR_PYTHON" ]; then
  echo "lock: no Python >= 3.12 for the Harbor venv (set HARBOR_PYTHON=...)" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# venv NAME PYTHON: a fresh venv with the newest pip (the one the pins will hold).
venv() {
  "$2" -m venv "$work/$1"
  "$work/$1/bin/python" -m pip install --quiet --upgrade pip
}

# freeze NAME WHAT [FREEZE ARGS...]: the venv's closure, with a header, into NAME.txt.new.
freeze() {
  local py="$work/$1/bin/python"
  "$py" -m pip check >&2
  { echo "# $2"
    echo "# Written by \`make lock\` (tools/lock.sh) with Python $("$py" -c 'import platform; print(platform.python_version(), platform.machine())'): do not edit by hand."
    "$py" -m pip freeze --all "${@:3}"
  } > "constraints/$1.txt.new"
}

echo "lock: build backends ($PYTHON)" >&2
venv build "$PYTHON"
"$work/build/bin/python" -m pip install --quiet -r constraints/build.in
freeze build "Build backends (constraints/build.in), passed to pip as --build-constraint." \
  --exclude pip

echo "lock: main venv ($PYTHON; a llama-cpp-python not in pip's wheel cache builds ~9 CPU-minutes)" >&2
venv main "$PYTHON"
pinned_build=(--build-constraint constraints/build.txt.new)
CMAKE_ARGS="${LLAMA_CMAKE_ARGS:-}" "$work/main/bin/python" -m pip install --quiet "${pinned_build[@]}" -e '.[dev]'
freeze main "The main venv: pip install -e '.[dev]' (the Makefile passes this file with -c)." \
  --exclude-editable

echo "lock: Harbor venv ($HARBOR_PYTHON)" >&2
venv harbor "$HARBOR_PYTHON"
# The Harbor version is chosen in one place: pyproject's `harbor` extra (harbor==X).
"$HARBOR_PYTHON" -c 'import tomllib
extra = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["harbor"]
print(*(spec.split(";")[0].strip() for spec in extra), sep="\n")' > "$work/harbor.in"
"$work/harbor/bin/python" -m pip install --quiet "${pinned_build[@]}" -r "$work/harbor.in"
freeze harbor "The Harbor venv of tests/harbor/harbor_env.py: pyproject's harbor extra, Python 3.12."

for name in build main harbor; do mv "constraints/$name.txt.new" "constraints/$name.txt"; done
git diff --stat -- constraints/ >&2 || true
echo "lock: done. Read \`git diff constraints/\`, then run \`make test\` before committing." >&2
