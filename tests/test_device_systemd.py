"""The systemd unit (checked by systemd-analyze, with no warnings) and the Pi installer."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "frisian-companion.service"
INSTALL = ROOT / "scripts" / "install-pi.sh"


def unit_lines() -> list[str]:
    return [line.strip() for line in UNIT.read_text().splitlines()]


def settings() -> dict[str, str]:
    out = {}
    for line in unit_lines():
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            out[key] = value
    return out


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package: systemd)")
def test_systemd_analyze_verify_passes_without_a_warning(tmp_path):
    exe = tmp_path / "frisian-companion"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    text = UNIT.read_text()
    original = "ExecStart=/opt/frisian-companion/venv/bin/frisian-companion "
    assert original in text
    (tmp_path / UNIT.name).write_text(text.replace(original, f"ExecStart={exe} "))
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / UNIT.name)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr


def test_unit_runs_the_service_as_required():
    s = settings()
    assert s["Type"] == "notify"
    assert s["ExecStart"].endswith("/bin/frisian-companion run --config /etc/frisian-companion/config.toml")
    assert s["User"] == "frisian"
    assert set(s["SupplementaryGroups"].split()) == {"video", "gpio", "audio"}
    assert s["WorkingDirectory"] == "/var/lib/frisian-companion"
    assert s["StateDirectory"] == "frisian-companion"
    assert int(s["WatchdogSec"]) >= 10
    assert s["Restart"] == "on-failure"
    assert "PrivateDevices" not in s


def test_unit_has_no_inline_comments():
    for line in unit_lines():
        if line and not line.startswith(("#", ";", "[")):
            assert "#" not in line.partition("=")[2], line
            assert not line.endswith("\\"), line


def test_unit_parses_as_ini():
    # Not strict: systemd keys such as DeviceAllow= are given once per value.
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # keep the keys' case
    parser.read_string(UNIT.read_text())
    assert parser.sections() == ["Unit", "Service", "Install"]


def test_install_script_is_valid_bash_and_matches_the_unit():
    subprocess.run(["bash", "-n", str(INSTALL)], check=True)
    text = INSTALL.read_text()
    s = settings()
    venv = re.search(r"^venv=\"\$prefix/venv\"", text, re.M)
    assert venv and s["ExecStart"].startswith("/opt/frisian-companion/venv/bin/")
    assert "prefix=/opt/frisian-companion" in text
    assert "etc=/etc/frisian-companion" in text and "state=/var/lib/frisian-companion" in text
    assert "--system-site-packages" in text and "--no-deps" in text
    for package in ("python3-picamera2", "python3-opencv", "python3-numpy", "espeak-ng", "python3-venv"):
        assert package in text
    assert "systemctl enable" in text


def test_install_script_help_needs_no_root():
    done = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and "Raspberry Pi OS" in done.stdout
    bad = subprocess.run(["bash", str(INSTALL), "--bogus"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1 and "unknown option --bogus" in bad.stderr


def values(key: str) -> list[str]:
    """Every value a key is given in the unit (DeviceAllow= and the like may repeat)."""
    return [line.partition("=")[2] for line in unit_lines() if line.partition("=")[0] == key]


def exposure(unit: Path) -> float:
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", str(unit)],
                          capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", done.stdout)
    if found is None and "offline" in done.stderr:
        pytest.skip(f"this systemd-analyze cannot analyse offline: {done.stderr.strip()}")
    assert found, done.stdout + done.stderr
    return float(found.group(1))


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package: systemd)")
def test_unit_is_hardened_to_an_exposure_of_two_or_less():
    assert exposure(UNIT) <= 2.0


def test_hardening_leaves_the_service_what_it_needs():
    s = settings()
    # Devices: a closed list that names the camera, libcamera's buffers, GPIO and sound.
    assert s["DevicePolicy"] == "closed"
    allowed = {v.split()[0]: v.split()[1] for v in values("DeviceAllow")}
    for device in ("char-video4linux", "char-media", "char-vchiq", "char-dma_heap",
                   "char-gpiochip", "char-alsa"):
        assert allowed.get(device) == "rw", device
    # Its state directory stays writable under ProtectSystem=strict.
    assert s["ProtectSystem"] == "strict" and s["StateDirectory"] == "frisian-companion"
    # sd_notify (AF_UNIX), the web page and MQTT (AF_INET, AF_INET6).
    families = set(s["RestrictAddressFamilies"].split())
    assert {"AF_UNIX", "AF_INET", "AF_INET6"} <= families
    assert "PrivateNetwork" not in s and "IPAddressDeny" not in s
    assert set(s["SupplementaryGroups"].split()) == {"video", "gpio", "audio"}


def test_install_script_installs_only_pinned_hashed_packages_from_pypi():
    text = INSTALL.read_text()
    assert "--require-hashes -r \"$requirements\"" in text
    requirements = (ROOT / "scripts" / "requirements-pi.txt").read_text()
    # Requirements continue over lines ending in a backslash; comments stand alone.
    joined = re.sub(r"\\\n\s*", " ", requirements)
    entries = [line for line in joined.splitlines() if line.strip() and not line.startswith("#")]
    names = set()
    for entry in entries:
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)((?:\s+--hash=sha256:[0-9a-f]{64})+)\s*", entry)
        assert found, entry
        names.add(found.group(1).lower())
    assert {"gpiozero", "pyttsx3", "colorzero"} <= names
    assert not names & {"numpy", "opencv-python", "opencv-python-headless", "picamera2"}
    # Nothing else is installed from PyPI by name.
    for line in text.splitlines():
        if "pip install" in line:
            assert "-r \"$requirements\"" in line or "--no-deps" in line, line
