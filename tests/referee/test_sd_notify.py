from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path

from referee.sd_notify import Watchdog, notify, watchdog_interval


def _receiver(tmp_path: Path) -> tuple[socket.socket, str]:
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    return sock, path


def test_ready_reaches_a_path_socket(tmp_path: Path) -> None:
    sock, path = _receiver(tmp_path)
    with sock:
        assert notify("READY=1\nSTATUS=table ready", {"NOTIFY_SOCKET": path})
        assert sock.recv(256) == b"READY=1\nSTATUS=table ready"


def test_abstract_socket_address() -> None:
    name = f"referee-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(64) == b"WATCHDOG=1"


def test_outside_systemd_nothing_is_sent() -> None:
    assert notify("READY=1", {}) is False
    assert watchdog_interval({}) is None


def test_watchdog_pings_at_half_the_interval(tmp_path: Path) -> None:
    sock, path = _receiver(tmp_path)
    now = [0.0]
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())}
    wd = Watchdog(lambda: now[0], env)
    assert wd.interval == 5.0
    with sock:
        for t in (0.0, 1.0, 4.9, 5.0, 9.0, 10.1):
            now[0] = t
            wd.ping()
        assert wd.pings == 3  # at 0, 5.0 and 10.1
        assert [sock.recv(64) for _ in range(3)] == [b"WATCHDOG=1"] * 3


def test_watchdog_for_another_process_is_ignored() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid() + 1)}) is None
