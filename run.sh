#!/usr/bin/env bash
# docread's two entry points on a fresh Debian/Ubuntu machine with Python 3.11+:
#   bash run.sh demo    docread over the sample documents (examples/demo.py)
#   bash run.sh test    ruff + the whole test suite
# Both install what is missing first: system packages via apt-get, a virtualenv in .venv, and the
# package with all its extras from pyproject.toml.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

PYTHON=${PYTHON:-python3}
VENV=.venv

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "==> apt-get install $*"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

system_packages() {
  local missing=()
  command -v tesseract >/dev/null || missing+=(tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd)
  command -v antiword >/dev/null || missing+=(antiword)
  ldconfig -p 2>/dev/null | grep -q 'libmagic\.so\.1' || missing+=(libmagic1)
  "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
}

python_env() {
  "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "docread needs Python 3.11 or newer ($PYTHON is $("$PYTHON" --version))" >&2; exit 1; }
  [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
  local stamp="$VENV/.docread-installed"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "==> pip install -e .[all,dev]"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -e ".[all,dev]"
    touch "$stamp"
  fi
}

case "${1:-}" in
  demo)
    system_packages; python_env
    exec "$VENV/bin/python" examples/demo.py "${@:2}"
    ;;
  test)
    system_packages; python_env
    "$VENV/bin/ruff" check .
    exec "$VENV/bin/python" -m pytest "${@:2}"
    ;;
  *)
    echo "usage: bash run.sh demo|test [args]" >&2
    exit 2
    ;;
esac
