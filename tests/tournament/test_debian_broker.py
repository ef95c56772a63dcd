"""The hall's logins as Debian runs Mosquitto (issue 24 row 10): started as root, it drops to the user
`mosquitto` before reading its password file, and a root-owned 0600 file stopped it ("Unable to open pwfile").
`referee hall logins`, run as root as documented, leaves files that user can read. Needs root and
Debian's `mosquitto` user (the test machine has both); skipped elsewhere."""

from __future__ import annotations

import grp
import os
import shutil
import socket
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.cli import main as referee_main
from tournament.acl import table_user
from tournament.testing.broker import Broker, free_port, mosquitto_path


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder the `mosquitto` user can reach (pytest's tmp_path is under a root-only folder)."""
    folder = Path(tempfile.mkdtemp(prefix="debian-broker-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_documented_logins_step_works_with_mosquitto_dropping_to_its_user(open_folder: Path) -> None:
    if mosquitto_path() is None or os.geteuid() != 0:
        pytest.skip("needs mosquitto and root (Debian starts Mosquitto as root, which drops to 'mosquitto')")
    try:
        grp.getgrnam("mosquitto")
    except KeyError:
        pytest.skip("no 'mosquitto' user: not Debian's Mosquitto")
    acl, passwd, creds = open_folder / "tournament.acl", open_folder / "tournament.passwd", open_folder / "creds"
    assert referee_main(["hall", "logins", "--event", "open-2026", "--tables", "1-2", "--acl", str(acl),
                         "--passwords", str(passwd), "--credentials-dir", str(creds)]) == 0
    data = open_folder / "data"
    data.mkdir()
    shutil.chown(data, "mosquitto", "mosquitto")
    port = free_port()
    conf = "\n".join([f"listener {port} 127.0.0.1", "allow_anonymous false", f"password_file {passwd}",
                      f"acl_file {acl}", "user mosquitto", "persistence true", f"persistence_location {data}/",
                      "log_dest stderr"])
    broker = Broker(open_folder / "broker", {}, base=conf, port=port)
    broker.folder.mkdir()
    (broker.folder / "mosquitto.conf").write_text(conf + "\n", encoding="utf-8")
    broker._written = True  # the configuration above as it stands: the hall's own files, not generated ones
    with broker:
        user, _, password = (creds / f"{table_user(1)}.credentials").read_text(encoding="utf-8").strip().partition(":")
        assert _connects(port, user, password)
    mode = passwd.stat()
    assert stat.S_IMODE(mode.st_mode) == 0o640 and mode.st_uid == 0
    assert mode.st_gid == grp.getgrnam("mosquitto").gr_gid


def _connects(port: int, user: str, password: str) -> bool:
    """A bare MQTT 3.1.1 CONNECT with a login: True when the broker answers CONNACK 0 (accepted)."""
    def field(text: str) -> bytes:
        raw = text.encode()
        return len(raw).to_bytes(2, "big") + raw

    body = field("MQTT") + bytes([4, 0xC2]) + (15).to_bytes(2, "big") + field("probe") + field(user) + field(password)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(bytes([0x10, len(body)]) + body)
        return sock.recv(4) == b"\x20\x02\x00\x00"
