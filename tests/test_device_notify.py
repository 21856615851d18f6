"""sd_notify over a real Unix datagram socket in a temporary folder (and the abstract namespace)."""

from __future__ import annotations

import os
import socket
import uuid

import pytest

from device.notify import Notifier, watchdog_interval


@pytest.fixture
def listener(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield path, sock
    sock.close()


def test_messages_reach_the_socket(listener, monkeypatch):
    path, sock = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    n = Notifier()
    assert n.enabled
    assert n.ready("watching board")
    assert sock.recv(4096) == b"READY=1\nSTATUS=watching board"
    assert n.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert n.status("move 12:\n 32-28")
    assert sock.recv(4096) == b"STATUS=move 12: 32-28"
    assert n.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket():
    name = f"frisian-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        assert Notifier("@" + name).ready()
        assert sock.recv(4096) == b"READY=1"
    finally:
        sock.close()


def test_no_socket_is_a_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    n = Notifier()
    assert not n.enabled
    assert not n.ready() and not n.watchdog() and not n.stopping()


def test_vanished_socket_warns_once_and_goes_on(tmp_path, caplog):
    n = Notifier(str(tmp_path / "gone.sock"))
    assert not n.ready()
    assert not n.watchdog()
    assert sum("cannot notify systemd" in r.getMessage() for r in caplog.records) == 1


def test_watchdog_interval():
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "x"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}) is None
