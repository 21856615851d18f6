#!/usr/bin/env bash
# Installs frisian-companion as a service on Raspberry Pi OS (bookworm or later).
# Usage: sudo scripts/install-pi.sh [--start]
#
# What it does (each step is skipped when already done, so it can be run again to update):
#  1. apt packages: the camera stack, OpenCV and numpy from Raspberry Pi OS (never pip's: pip's
#     OpenCV needs numpy 2, which breaks the apt camera stack), aiohttp (the club's screen),
#     paho-mqtt (the broker publisher: Debian's 1.6, which device.mqtt supports), espeak-ng,
#     aplay, lgpio;
#  2. the system user frisian, in the groups video, gpio and audio;
#  3. a venv in /opt/frisian-companion/venv with --system-site-packages (so picamera2, cv2 and
#     numpy come from apt), and this checkout installed into it with --no-deps plus the pure-Python
#     dependencies gpiozero>=2 (Debian's python3-gpiozero is 1.6, too old for a Pi 5) and pyttsx3,
#     pinned with their hashes in scripts/requirements-pi.txt (pip --require-hashes);
#  4. the configuration /etc/frisian-companion/config.toml (from config/default.toml; an existing
#     one is kept);
#  5. the systemd unit, enabled (and started or restarted with --start).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/frisian-companion
venv="$prefix/venv"
etc=/etc/frisian-companion
state=/var/lib/frisian-companion
unit=frisian-companion.service
user=frisian
apt_packages=(python3-picamera2 python3-opencv python3-numpy python3-aiohttp python3-paho-mqtt python3-venv python3-lgpio espeak-ng alsa-utils)
requirements="$repo/scripts/requirements-pi.txt"

say() { echo "install-pi: $*" >&2; }
die() { say "error: $*"; exit 1; }

start=no
for arg in "$@"; do
  case "$arg" in
    --start) start=yes ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) die "unknown option $arg (use --start or --help)" ;;
  esac
done

[ "$(id -u)" = 0 ] || die "run me as root: sudo $0 $*"
command -v apt-get >/dev/null || die "this installer is for Raspberry Pi OS (apt-get not found)"
command -v systemctl >/dev/null || die "systemd is needed (systemctl not found)"
[ -f "$repo/pyproject.toml" ] || die "run me from a frisian-companion checkout ($repo has no pyproject.toml)"
[ -f "$requirements" ] || die "$requirements is missing: the checkout is incomplete"

# 1. apt packages
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing apt packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  say "apt packages already installed: ${apt_packages[*]}"
fi

# 2. the user and its groups
if id -u "$user" >/dev/null 2>&1; then
  say "user $user exists"
else
  say "creating the system user $user"
  useradd --system --user-group --home-dir "$state" --no-create-home --shell /usr/sbin/nologin "$user"
fi
for g in video gpio audio; do
  if getent group "$g" >/dev/null; then
    if id -nG "$user" | tr ' ' '\n' | grep -qx "$g"; then
      say "$user is in group $g"
    else
      say "adding $user to group $g"
      usermod -aG "$g" "$user"
    fi
  else
    say "warning: there is no group $g on this system (not Raspberry Pi OS?): the service may lack access"
  fi
done
install -d -o "$user" -g "$user" -m 0750 "$state"

# 3. the venv and the program
if [ ! -x "$venv/bin/python" ]; then
  say "creating $venv (with the system's site packages, for picamera2, OpenCV and numpy)"
  install -d -m 0755 "$prefix"
  python3 -m venv --system-site-packages "$venv"
else
  say "$venv exists"
fi
say "installing frisian-companion from $repo into $venv (no pip OpenCV or numpy)"
# Only the pinned, hash-checked packages come from PyPI; the program itself is built with them
# (no build isolation: setuptools is one of the pinned packages) and installed without deps.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes -r "$requirements"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation \
  --force-reinstall "$repo"
"$venv/bin/python" - <<'PY' || die "the installed program does not import: see the lines above"
import cv2, numpy, aiohttp, gpiozero, pyttsx3, device.cli
print(f"install-pi: OpenCV {cv2.__version__}, numpy {numpy.__version__}", flush=True)
try:
    import picamera2  # noqa: F401
    print("install-pi: picamera2 imports", flush=True)
except Exception as e:
    print(f"install-pi: warning: picamera2 does not import ({e}): a USB camera still works", flush=True)
PY

# 4. the configuration
install -d -m 0755 "$etc"
if [ -f "$etc/config.toml" ]; then
  say "keeping $etc/config.toml (the default is in $repo/config/default.toml)"
else
  say "writing $etc/config.toml from config/default.toml: edit pins, language and tags there"
  install -m 0644 "$repo/config/default.toml" "$etc/config.toml"
fi

# 5. the unit
target="/etc/systemd/system/$unit"
if [ -f "$target" ] && cmp -s "$repo/systemd/$unit" "$target"; then
  say "$target is up to date"
else
  say "installing $target"
  install -m 0644 "$repo/systemd/$unit" "$target"
  systemctl daemon-reload
fi
systemctl enable --quiet "$unit"
say "enabled $unit (it starts at boot)"
if [ "$start" = yes ]; then
  say "restarting $unit"
  systemctl restart "$unit"
  systemctl --no-pager --lines=5 status "$unit" || true
else
  say "start it now with: sudo systemctl start $unit; follow it with: journalctl -fu $unit"
fi
