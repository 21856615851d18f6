#!/usr/bin/env bash
# Sets up what `make demo` and `make test` need: system packages, then .venv with the project.
# Usage: scripts/setup.sh [--test]
set -euo pipefail
cd "$(dirname "$0")/.."

extras=""
[ "${1:-}" = "--test" ] && extras="[test]"
# System packages the product or its tests need (Debian / Raspberry Pi OS names).
system_packages=(python3-venv espeak-ng alsa-utils systemd)
# The club's-screen tests drive Debian's chromium with Playwright (no browser download).
[ -n "$extras" ] && system_packages+=(chromium)

say() { echo "setup: $*" >&2; }

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${system_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
# python3-venv is only needed when the interpreter cannot make a venv by itself.
if [ ${#missing[@]} -gt 0 ] && python3 -c "import ensurepip, venv" 2>/dev/null; then
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
