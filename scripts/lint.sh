#!/usr/bin/env bash
# `npm run lint`: ESLint with typescript-eslint's type-aware rules (eslint.config.js), ruff over all of
# the repo's Python and mypy --strict over the sandbox runtime and the zygote (pyproject.toml).
# Runs all three and exits non-zero if any of them reports a finding.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-lint-tools.sh || exit 2
rc=0
echo '# eslint' >&2
node node_modules/eslint/bin/eslint.js --max-warnings 0 . || rc=1
echo '# ruff' >&2
.venv/bin/ruff check . || rc=1
echo '# mypy --strict' >&2
.venv/bin/mypy || rc=1
exit $rc
