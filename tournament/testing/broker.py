"""A real Mosquitto on a free loopback port, with a generated configuration, for tests and benchmarks.

Each `Broker` has its own folder: configuration, password file (made with ``mosquitto_passwd``), ACL and
persistence. It is started and stopped by its process id; `kill` sends SIGKILL (a crash: what the broker
had not saved is gone) and `start` again reuses the same port and persistence folder, as a restarted
service would.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import TracebackType

from tournament.acl import write_password_file

START_TIMEOUT_S = 10.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mosquitto_path() -> str | None:
    """The mosquitto binary (Debian installs it in /usr/sbin, often not on a user's PATH)."""
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.access(p, os.X_OK)), None)


class BrokerError(RuntimeError):
    """Mosquitto did not start, or is not installed."""


class Broker:
    """One Mosquitto process. `users` maps user name -> password; `acl` is an ``acl_file`` text (None: no ACL,
    every authenticated user may do anything). `extra` lines are appended to the configuration (bridges)."""

    def __init__(self, folder: str | Path, users: Mapping[str, str], acl: str | None = None, *,
                 port: int | None = None, extra: str = "", max_queued: int = 100_000,
                 base: str | None = None) -> None:
        self.folder = Path(folder)
        self.users = dict(users)
        self.acl = acl
        self.port = port or free_port()
        self.extra = extra
        self.max_queued = max_queued
        self.base = base  # a whole configuration instead of the generated one (a shipped file under test)
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = self.folder / "mosquitto.log"
        self._written = False

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def _write(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "data").mkdir(exist_ok=True)
        write_password_file(self.folder / "passwords", self.users)
        me = pwd.getpwuid(os.getuid()).pw_name
        lines = [
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous false",
            # Run as whoever started it: as root, Mosquitto would switch to the "mosquitto" user, which
            # cannot read a temporary folder.
            f"user {me}",
            f"password_file {self.folder / 'passwords'}",
            "persistence true",
            f"persistence_location {self.folder / 'data'}/",
            "autosave_interval 1",
            f"max_queued_messages {self.max_queued}",
            "max_inflight_messages 100",
            "set_tcp_nodelay true",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
        ]
        if self.acl is not None:
            (self.folder / "acl").write_text(self.acl, encoding="utf-8")
            lines.append(f"acl_file {self.folder / 'acl'}")
        if self.base is not None:
            lines = [self.base.format(port=self.port, passwords=self.folder / "passwords", acl=self.folder / "acl",
                                      data=self.folder / "data", user=me)]
        conf = self.folder / "mosquitto.conf"
        conf.write_text("\n".join(lines) + "\n" + self.extra + "\n", encoding="utf-8")
        self._written = True
        return conf

    def start(self) -> None:
        """Start Mosquitto (again) and return once it accepts connections on its port."""
        if self.process and self.process.poll() is None:
            return
        binary = mosquitto_path()
        if binary is None:
            raise BrokerError("mosquitto is not installed (Debian package 'mosquitto'; `make system-deps`)")
        conf = self.folder / "mosquitto.conf" if self._written else self._write()
        log = self.log_path.open("ab")
        self.process = subprocess.Popen([binary, "-c", str(conf)], stdout=log, stderr=log,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrokerError(f"mosquitto exited with {self.process.returncode}: "
                                  f"{self.log_path.read_text(errors='replace')[-2000:]}")
            with contextlib.suppress(OSError), socket.create_connection((self.host, self.port), timeout=0.2):
                return
            time.sleep(0.02)  # readiness poll of a child process, bounded by START_TIMEOUT_S
        self.stop()
        raise BrokerError(f"mosquitto did not listen on port {self.port} within {START_TIMEOUT_S} s")

    def _signal(self, sig: signal.Signals) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        """A clean stop (SIGTERM): Mosquitto saves its persistence file first."""
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        """A crash (SIGKILL): what was not saved yet is lost, as on a power cut."""
        self._signal(signal.SIGKILL)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def __enter__(self) -> Broker:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


@contextlib.contextmanager
def running_broker(folder: str | Path, users: Mapping[str, str], acl: str | None = None,
                   **kwargs: object) -> Iterator[Broker]:
    """`Broker` as a context manager that always stops it."""
    broker = Broker(folder, users, acl, **kwargs)  # type: ignore[arg-type]
    try:
        broker.start()
        yield broker
    finally:
        broker.stop()
