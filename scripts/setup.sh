#!/usr/bin/env bash
# Sets up what `make demo` and `make test` need: system packages, then .venv with the project.
# Usage: scripts/setup.sh [--test]
# With --test also .venv-pi: the Raspberry Pi's own stack on this Debian, as scripts/install-pi.sh
# makes it on the Pi: Debian's python3 with --system-site-packages, Debian's OpenCV and numpy
# (python3-opencv, python3-numpy: 4.6 and 1.24 on bookworm), the pinned packages of
# scripts/requirements-pi.txt, the project without its pip dependencies, and the test tools.
set -euo pipefail
cd "$(dirname "$0")/.."

extras=""
[ "${1:-}" = "--test" ] && extras="[test]"
# System packages the product or its tests need (Debian / Raspberry Pi OS names).
system_packages=(python3-venv espeak-ng alsa-utils systemd)
# The club's-screen tests drive Debian's chromium with Playwright (no browser download), and
# the tests' second venv runs on the Pi's own OpenCV, numpy and aiohttp.
# sqlite3 is the repair a damaged store's message names (tested).  The hub's tests start their
# own mosquitto (with mosquitto_passwd's password file), and .venv-pi uses Debian's paho-mqtt 1.6
# as the Pi does (.venv has PyPI's 2.x: device.mqtt works with both).
[ -n "$extras" ] && system_packages+=(chromium python3-opencv python3-numpy python3-aiohttp sqlite3 \
  mosquitto python3-paho-mqtt)

say() { echo "setup: $*" >&2; }

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${system_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
# python3-venv is only needed when the interpreter cannot make a venv by itself (.venv-pi is made
# by Debian's python3, which needs it).
if [ ${#missing[@]} -gt 0 ] && [ -z "$extras" ] && python3 -c "import ensurepip, venv" 2>/dev/null; then
  missing=("${missing[@]/python3-venv}")
  missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    say "please install these packages as root, then run make again: apt-get install ${missing[*]}"; exit 1
  fi
  say "installing system packages: ${missing[*]}"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python3 - <<'PY' || { say "Python 3.11 or newer is needed (python3 is $(python3 --version 2>&1))"; exit 1; }
import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)
PY

if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  python3 -m venv .venv
fi
stamp=".venv/.installed${extras:+-test}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  say "installing frisian-companion${extras} into .venv (log: .venv/setup.log)"
  if ! { .venv/bin/python -m pip install --upgrade pip && .venv/bin/python -m pip install -e ".${extras}"; } \
      > .venv/setup.log 2>&1; then
    tail -n 20 .venv/setup.log >&2
    say "installing failed; the whole log is in .venv/setup.log"
    exit 1
  fi
  touch "$stamp"
fi

[ -n "$extras" ] || exit 0

# .venv-pi: the Raspberry Pi's stack (see the top).  Debian's own interpreter, whose
# dist-packages hold python3-opencv and python3-numpy (a python3 earlier on PATH may be another).
debian_python=/usr/bin/python3
pi_stamp=".venv-pi/.installed"
if [ ! -x .venv-pi/bin/python ]; then
  "$debian_python" -c "import cv2, numpy" 2>/dev/null \
    || { say "$debian_python cannot import cv2 and numpy: apt-get install python3-opencv python3-numpy"; exit 1; }
  say "creating .venv-pi (Debian's python3, OpenCV and numpy: the Raspberry Pi's stack)"
  "$debian_python" -m venv --system-site-packages .venv-pi
fi
if [ ! -f "$pi_stamp" ] || [ pyproject.toml -nt "$pi_stamp" ] || [ scripts/requirements-pi.txt -nt "$pi_stamp" ]; then
  say "installing frisian-companion[test] into .venv-pi without pip's OpenCV or numpy (log: .venv-pi/setup.log)"
  # The test tools, as pyproject's test extra names them (installed by name: none needs numpy).
  test_tools=$(.venv-pi/bin/python - <<'PY'
import tomllib
print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["test"]))
PY
)
  if ! { .venv-pi/bin/python -m pip install --require-hashes -r scripts/requirements-pi.txt \
         && .venv-pi/bin/python -m pip install --no-deps --no-build-isolation -e . \
         && .venv-pi/bin/python -m pip install $test_tools; } > .venv-pi/setup.log 2>&1; then
    tail -n 20 .venv-pi/setup.log >&2
    say "installing into .venv-pi failed; the whole log is in .venv-pi/setup.log"
    exit 1
  fi
  touch "$pi_stamp"
fi
# Pip's OpenCV or numpy in .venv-pi would test pip's stack twice and the Pi's never.
.venv-pi/bin/python - <<'PY' || { say ".venv-pi must use Debian's OpenCV and numpy (see above): remove .venv-pi and run make test again"; exit 1; }
import sys, cv2, numpy
for module in (cv2, numpy):
    if not module.__file__.startswith("/usr/lib/python3/dist-packages/"):
        sys.exit(f"setup: .venv-pi imports {module.__name__} from {module.__file__}, not Debian's python3-opencv/python3-numpy")
PY
