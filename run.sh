#!/usr/bin/env bash
# docread's two entry points on a fresh Debian/Ubuntu machine with Python 3.11+:
#   bash run.sh demo    docread over the sample documents (examples/demo.py)
#   bash run.sh test    ruff, mypy + the whole test suite (pytest -n: one worker per core, + 1)
# and any other command run inside the virtualenv, from the folder you are in:
#   bash run.sh docread load docs/ --jsonl docs.jsonl
#   bash run.sh python examples/ray_ingest.py examples/samples out.parquet
# All install what is missing first: system packages via apt-get, a virtualenv in .venv, and the
# package with all its extras from pyproject.toml.
set -euo pipefail
HERE=$PWD  # the caller's folder: a passed-through command runs there
cd "$(dirname "${BASH_SOURCE[0]}")"

PYTHON=${PYTHON:-python3}
VENV=$PWD/.venv

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "==> apt-get install $*" >&2  # stderr: a passed-through command's stdout is its own
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

check_python() {
  "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "docread needs Python 3.11 or newer ($PYTHON is $("$PYTHON" --version 2>&1))" >&2; exit 1; }
}

system_packages() {
  local missing=()
  command -v tesseract >/dev/null || missing+=(tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd)
  command -v antiword >/dev/null || missing+=(antiword)
  # the OCR tests and bench/ocr.py draw their scans with DejaVu Sans
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
  "$PYTHON" -c 'import ctypes.util, sys; sys.exit(not ctypes.util.find_library("magic"))' \
    || missing+=(libmagic1)
  # venv needs the ensurepip of this very interpreter (python3.X-venv on Debian/Ubuntu)
  "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null \
    || missing+=("python$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-venv")
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
}

python_env() {
  [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
  local stamp="$VENV/.docread-installed"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ .ci/constraints.txt -nt "$stamp" ]; then
    echo "==> pip install -e .[all,dev]" >&2
    "$VENV/bin/python" -m pip install -q --upgrade pip >&2
    "$VENV/bin/python" -m pip install -q -e ".[all,dev]" -c .ci/constraints.txt >&2
    touch "$stamp"
  fi
}

run_tests() {
  # bytecode is written (to the __pycache__ folders git ignores) even where PYTHONDONTWRITEBYTECODE
  # is set: otherwise each pytest process (each xdist worker, each nested run) compiles and
  # assertion-rewrites every test module again, ~6 s of CPU each. (Not PYTHONPYCACHEPREFIX: it
  # would ignore the virtualenv's precompiled packages and compile Ray and the rest once more.)
  unset PYTHONDONTWRITEBYTECODE
  echo "==> ruff check ."
  "$VENV/bin/ruff" check .
  # mypy (one core; ~20 s of CPU from a clean cache, as in CI, ~1 s warm) runs beside pytest
  # rather than before it, where the other core would idle, and at the lowest priority: it takes
  # the CPU pytest's processes leave idle (a worker waiting on a subprocess, the run's last
  # modules) instead of a share of the cores they are busy on; its report follows pytest's,
  # either failing fails
  echo "==> mypy: strict on core/docread, defaults on the wrappers ([tool.mypy] in pyproject.toml)"
  local typed mypy status=0 mypy_status=0
  typed=$(mktemp)
  nice -n 19 "$VENV/bin/mypy" >"$typed" 2>&1 &
  mypy=$!
  trap "kill $mypy 2>/dev/null || true; rm -f '$typed'" EXIT
  # one pytest worker per core and one more: a test waiting (a subprocess starting, a Ray node,
  # a timeout running out) leaves its core to another worker instead of idle; a test module runs
  # on one worker (the corpus conformance module's framework loaders reuse its core loader's
  # cache), the longest modules handed out first (tests/conftest.py, LONGEST_FIRST); a dot per
  # test, the slowest listed
  local workers=$(($(nproc) + 1))
  echo "==> pytest -n $workers --dist loadscope $*"
  "$VENV/bin/python" -m pytest -n "$workers" --dist loadscope --no-loadscope-reorder \
    --durations=10 "$@" || status=$?
  # how long pytest's end waited for mypy (a clean clone's cold mypy, ~16 s of CPU, gets only
  # the CPU pytest leaves idle): what the type check added to the run's wall time
  local ended=$SECONDS
  wait "$mypy" || mypy_status=$?
  echo "==> mypy (ran beside pytest; done $((SECONDS - ended)) s after it)"
  cat "$typed"
  return $((status ? status : mypy_status))
}

case "${1:-}" in
  demo)
    check_python; system_packages; python_env
    exec "$VENV/bin/python" examples/demo.py "${@:2}"
    ;;
  test)
    check_python; system_packages; python_env
    run_tests "${@:2}"
    ;;
  "" | -h | --help)
    echo "usage: bash run.sh demo|test [args], or bash run.sh COMMAND [args] (run in .venv)" >&2
    exit 2
    ;;
  *)  # what `. .venv/bin/activate` gives, for one command, in the caller's folder
    check_python; system_packages; python_env
    cd "$HERE"
    export VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH"
    unset PYTHONHOME
    exec "$@"
    ;;
esac
