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

# CJK glyphs for the browser tests' zh-Hant pages (screenshots would show boxes without them)
if ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null
  else
    echo "warning: fonts-noto-cjk missing and no root: Chinese pages may render as boxes" >&2
  fi
fi
# PostgreSQL server binaries for the tests marked postgres (tests/pgcluster.py starts a
# throw-away cluster as an unprivileged user on a free port and stops it at the end)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "warning: PostgreSQL binaries missing and no root: postgres tests will be skipped" >&2
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
# the optional extras the suite tests: RL adapters (tests/rl: OpenSpiel, PettingZoo, Gymnasium),
# Ray and pyarrow (tests/sim: a real Ray head, Parquet output), psycopg (tests/server on
# PostgreSQL)
.venv/bin/python -m pip install -q -e '.[rl,ray,parquet,postgres]'
# in parallel (pytest-xdist), one worker a core of the CI machine (2): the sequential suite keeps
# one core busy almost all the time (its CPU time is ~90 % of its wall time), and more workers
# than cores would only slow the tests that bound a latency (a websocket within 200 ms).
# CB_TEST_WORKERS=N sets the count; 0 runs in this one process.
exec .venv/bin/python -m pytest -p no:cacheprovider -n "${CB_TEST_WORKERS:-2}" --dist load "$@"
