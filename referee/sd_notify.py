"""systemd's notify protocol (sd_notify(3)) with the standard library: readiness, status, watchdog.

Under `Type=notify` systemd waits for `READY=1` before it counts the referee as started, and with
`WatchdogSec=` it restarts the service when `WATCHDOG=1` stops arriving. The protocol is one
datagram per message to the Unix socket named by `$NOTIFY_SOCKET` (a leading `@` means Linux's
abstract namespace). Outside systemd the variable is unset and every call is a quiet no-op.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send `message` (e.g. "READY=1\\nSTATUS=...") to systemd. True when sent, False when not under systemd."""
    env = os.environ if env is None else env
    address = env.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message.encode("utf-8"), address)
    except OSError as exc:
        log.warning("could not notify systemd (%s): %s", env.get("NOTIFY_SOCKET"), exc)
        return False
    return True


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """Seconds between watchdog pings: half of `$WATCHDOG_USEC`, as sd_watchdog_enabled(3) advises;
    None when no watchdog is asked for (or it is meant for another process, `$WATCHDOG_PID`)."""
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid.isdigit() and int(pid) != os.getpid()):
        return None
    return int(usec) / 2e6


class Watchdog:
    """Pings systemd's watchdog from the service loop, only as often as needed. The loop calls `ping()`
    each round; a loop that hangs stops the pings and systemd restarts the referee."""

    def __init__(self, clock: Callable[[], float], env: Mapping[str, str] | None = None) -> None:
        self._env = env
        self._clock = clock
        self.interval = watchdog_interval(env)
        self._last = float("-inf")
        self.pings = 0

    def ping(self) -> None:
        if self.interval is None:
            return
        now = self._clock()
        if now - self._last >= self.interval:
            if notify("WATCHDOG=1", self._env):
                self.pings += 1
            self._last = now
