#!/usr/bin/env bash
# The Python linters (requirements-dev.txt: ruff, mypy) in the project venv .venv, and the tests'
# S3-compatible server (requirements-moto.txt) in .venv-moto. Idempotent: skipped while the pins are
# unchanged and the tools are there. scripts/bootstrap.sh --test and scripts/lint.sh run it.
set -euo pipefail
cd "$(dirname "$0")/.."
STAMPS=$PWD/.stamps
mkdir -p "$STAMPS"
say() { printf '[lint-tools] %s\n' "$*" >&2; }
want=$(cat requirements-dev.txt requirements.lock | sha256sum | cut -c1-16)
if [ ! -x .venv/bin/pip ]; then
  say "no project venv (.venv/bin/pip): run bash scripts/bootstrap.sh first"
  exit 1
fi
if [ ! -x .venv/bin/ruff ] || [ ! -x .venv/bin/mypy ] || [ "$(cat "$STAMPS/lint-tools" 2>/dev/null)" != "$want" ]; then
  say "installing ruff and mypy into .venv (requirements-dev.txt)"
  if .venv/bin/pip install -q --disable-pip-version-check -r requirements-dev.txt -c requirements.lock; then
    echo "$want" > "$STAMPS/lint-tools"
  else
    say "WARNING: ruff/mypy could not be installed (see pip's error above); the Python linters are unavailable"
    exit 1
  fi
fi

# moto_server, the S3-compatible server of the artifact-store tests, in a venv of its own (.venv-moto):
# its botocore needs python-dateutil<3, which requirements.lock's toolchains do not allow (requirements-moto.txt).
want_moto=$(sha256sum requirements-moto.txt | cut -c1-16)
if [ ! -x .venv-moto/bin/moto_server ] || [ "$(cat "$STAMPS/moto" 2>/dev/null)" != "$want_moto" ]; then
  say "installing moto_server into .venv-moto (requirements-moto.txt)"
  [ -x .venv-moto/bin/python ] || .venv/bin/python -m venv .venv-moto
  if .venv-moto/bin/pip install -q --disable-pip-version-check -r requirements-moto.txt; then
    echo "$want_moto" > "$STAMPS/moto"
  else
    say "WARNING: moto_server could not be installed (see pip's error above); the artifact-store tests against a bucket cannot run"
    exit 1
  fi
fi
