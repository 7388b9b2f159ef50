#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (Ubuntu); the zip is
# unpacked into $ROOT/source. Built by `autograder gradescope @ASSIGNMENT@`; see docs/gradescope.md.
#
#   1. a Python >= 3.11 with venv, from apt (Ubuntu 22.04: python3.11; Debian 12, Ubuntu 24.04: python3)
#   2. $ROOT/venv with the grader installed from $ROOT/source (not editable)
#   3. a self-check: the reference solution must score full marks here, in this image's sandbox
#   4. permissions: source/ (hidden suite, reference solution) readable by root only, the
#      venv readable by everyone, because the sandboxed worker runs as an unprivileged user
#
# AUTOGRADER_ROOT (default /autograder) moves every path, for testing outside Gradescope.
# SETUP_SKIP_APT=1 skips apt, but only when a suitable Python is already installed.
set -euo pipefail

ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
VENV="$ROOT/venv"
ASSIGNMENT="@ASSIGNMENT@"
MAX_SCORE="@MAX_SCORE@"

log() { echo "setup.sh: $*"; }

suitable_python() {
    local candidate path
    for candidate in python3.13 python3.12 python3.11 python3; do
        path="$(command -v "$candidate" 2>/dev/null)" || continue
        if "$path" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$path"
            return 0
        fi
    done
    return 1
}

install_python() {
    local packages
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=300 update -qq
    if apt-cache show python3.11-venv >/dev/null 2>&1; then
        packages="python3.11 python3.11-venv"
    else
        packages="python3 python3-venv"  # the distribution's own Python is 3.11 or newer
    fi
    log "apt-get install $packages"
    # shellcheck disable=SC2086
    # --no-upgrade: a no-op where they are installed already (never an upgrade behind the image's back)
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends --no-upgrade $packages
}

started=$SECONDS
if [ "${SETUP_SKIP_APT:-}" = 1 ] && suitable_python >/dev/null; then
    log "SETUP_SKIP_APT=1: not running apt"
elif command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
    if ! install_python; then
        suitable_python >/dev/null || { log "apt-get failed and there is no Python >= 3.11 with venv" >&2; exit 1; }
        log "apt-get failed; using the Python already installed"
    fi
fi
PYTHON="$(suitable_python)" || {
    log "no Python >= 3.11 with the venv module; install python3.11 and python3.11-venv" >&2
    exit 1
}
log "Python: $PYTHON ($("$PYTHON" --version 2>&1)), apt step $((SECONDS - started)) s"

started=$SECONDS
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$SOURCE"
rm -rf "$SOURCE/build" "$SOURCE"/*.egg-info  # pip's in-tree build leftovers
"$VENV/bin/python" -m compileall -q "$VENV/lib" >/dev/null || true
log "grader installed into $VENV in $((SECONDS - started)) s"

# Permissions before the self-check, so that it runs exactly as a submission will.
chmod go+x "$ROOT"                  # the worker must reach $ROOT/venv ...
chmod -R go+rX,go-w "$VENV"         # ... and read, never change, the Python it shares with the grader
chmod -R go-rwx "$SOURCE"           # hidden suite, reference solution, course.yml: root only
chown -R 0:0 "$SOURCE" 2>/dev/null || true

started=$SECONDS
check="$(mktemp -d)"
cd "$SOURCE"  # as run_autograder: the grader's own droppings stay root-only
"$VENV/bin/autograder" --course "$SOURCE/course.yml" grade "$ASSIGNMENT" "$SOURCE/solutions/$ASSIGNMENT/solution.py" \
    --results "$check/results.json" --quiet || true
if ! "$VENV/bin/python" - "$check/results.json" "$MAX_SCORE" <<'PY'
import json, sys
try:
    score = json.load(open(sys.argv[1], encoding="utf-8"))["score"]
except (OSError, ValueError, KeyError) as error:
    sys.exit(f"no results: {error}")
sys.exit(0 if abs(score - float(sys.argv[2])) < 1e-6 else f"score {score} of {sys.argv[2]}")
PY
then
    log "SELF-CHECK FAILED: the reference solution does not get full marks in this image (see above)" >&2
    rm -rf "$check"
    exit 1
fi
rm -rf "$check"
chmod -R go-rwx "$SOURCE"  # again: what the self-check wrote there (caches) is root-only too
log "self-check passed: the reference solution scores $MAX_SCORE in $((SECONDS - started)) s"
