#!/usr/bin/env bash
# Print the Python that `make` builds .venv with: the first Python >= 3.11 that can make a
# venv, preferring one whose interpreter is not linked to a shared libpython.
#
# Why: pyenv and most source builds configure --enable-shared, and their interpreter calls
# into libpython through the PLT; a distribution's python3.11 (Debian's, for one) is one
# optimised executable, and runs the tests about a fifth faster (README, "Set up"). So a
# shared build found first on PATH (a pyenv shim) gives way to an unshared one further on,
# and to the system's own; with none unshared, the first that works is used.
#
# PYTHON=... on the make command line skips all this. The choice is printed to stderr when
# it is not simply the first candidate.
set -u

candidates=()
for name in python3.11 python3 python3.12 python3.13; do
    path=$(command -v "$name" 2>/dev/null) && candidates+=("$path")
done
for path in /usr/bin/python3.11 /usr/bin/python3 /usr/local/bin/python3.11 /usr/local/bin/python3; do
    [ -x "$path" ] && candidates+=("$path")
done

# Exit 0: usable and unshared; 3: usable, linked to a shared libpython (or not knowable);
# anything else: not usable (too old, or no venv/ensurepip, as in Debian without python3-venv).
probe='
import sys
if sys.version_info < (3, 11):
    sys.exit(1)
import ensurepip, venv  # noqa: F401  (a venv needs both)
try:
    with open("/proc/self/maps") as maps:
        shared = any("libpython" in line for line in maps)
except OSError:
    shared = True  # not Linux: nothing to go by, keep the PATH order
sys.exit(3 if shared else 0)
'

first=""
for path in "${candidates[@]}"; do
    "$path" -c "$probe" >/dev/null 2>&1
    rc=$?
    if [ "$rc" -eq 0 ]; then
        if [ -n "$first" ] && [ "$first" != "$path" ]; then
            echo "pick-python: $path (an unshared build; $first runs through a shared libpython, ~20% slower; PYTHON=... to choose)" >&2
        fi
        echo "$path"
        exit 0
    fi
    [ "$rc" -eq 3 ] && [ -z "$first" ] && first=$path
done
if [ -n "$first" ]; then
    echo "$first"
    exit 0
fi
echo "pick-python: no Python >= 3.11 with venv found on PATH (set PYTHON=...)" >&2
exit 1
