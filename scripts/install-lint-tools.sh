#!/usr/bin/env bash
# The Python linters (requirements-dev.txt: ruff, mypy) in the project venv .venv. Idempotent: skipped
# while the pins are unchanged and both tools are there. scripts/bootstrap.sh --test and scripts/lint.sh run it.
set -euo pipefail
cd "$(dirname "$0")/.."
STAMPS=$PWD/.stamps
mkdir -p "$STAMPS"
say() { printf '[lint-tools] %s\n' "$*" >&2; }
want=$(cat requirements-dev.txt requirements.lock | sha256sum | cut -c1-16)
if [ -x .venv/bin/ruff ] && [ -x .venv/bin/mypy ] && [ "$(cat "$STAMPS/lint-tools" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
if [ ! -x .venv/bin/pip ]; then
  say "no project venv (.venv/bin/pip): run bash scripts/bootstrap.sh first"
  exit 1
fi
say "installing ruff and mypy into .venv (requirements-dev.txt)"
if .venv/bin/pip install -q --disable-pip-version-check -r requirements-dev.txt -c requirements.lock; then
  echo "$want" > "$STAMPS/lint-tools"
else
  say "WARNING: ruff/mypy could not be installed (see pip's error above); the Python linters are unavailable"
  exit 1
fi
