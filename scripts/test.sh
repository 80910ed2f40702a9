#!/usr/bin/env bash
# Install everything (system Chromium for the browser tests, the package with its test extras in
# .venv) and run the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "warning: /usr/bin/chromium missing and no root: browser tests will be skipped" >&2
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
# the optional extras the suite tests: RL adapters (tests/rl: OpenSpiel, PettingZoo, Gymnasium),
# Ray and pyarrow (tests/sim: a real Ray head, Parquet output)
.venv/bin/python -m pip install -q -e '.[rl,ray,parquet]'
# axe-core (npm) for the browser tests' accessibility checks, injected by Playwright
if [ ! -f .cache/axe/node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null 2>&1; then
  npm install --silent --no-save --no-package-lock --prefix .cache/axe axe-core@4 >/dev/null 2>&1 \
    || echo "warning: npm install axe-core failed: the accessibility checks will be skipped" >&2
fi
exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
