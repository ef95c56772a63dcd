"""Whether the director reaches its broker, said on the hall page and in the log.

A director started with a wrong broker address used to serve a green "live" hall of 0 tables and log nothing:
paho retries a failed connect silently. A table in the same case logs "cannot reach broker
... retrying" (tournament/publisher_loop.py); this watch gives the director the same words, and the page a
state it shows in red (`GET /api/session`, `GET /api/hall`): the broker's address, since when it is out of
reach, why (the connect's own error: connection refused, a name that does not resolve, a refused login) and
that the director keeps trying.

The director's link (tournament/director/link.py) tells it what happens: a connect that failed (with the
socket's error or the broker's refusal), a connection accepted, a connection lost. All of it runs on the
director's loop, where the page's handlers read `state()`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger(__name__)

REPEAT_EVERY = 60  # failed tries between two log lines of one outage (paho retries about once a second)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class BrokerWatch:
    """The director's connection to `url`: connected, or out of reach since when and why."""

    def __init__(self, url: str, *, retry_s: float = 1.0, now: Callable[[], str] = _now) -> None:
        self.url = url
        self.retry_s = retry_s
        self._now = now
        self._lock = threading.Lock()  # `state()` may be read from another thread (a test's, a benchmark's)
        self.connected = False
        self.error: str | None = "connecting"
        self.since: str | None = None  # when the present outage began (None while connected)
        self.tries = 0  # failed connects in the present outage
        self.listeners: list[Callable[[], None]] = []

    # --- what happened (the link, on the director's loop) ---------------------------------------------

    def failed(self, why: str) -> None:
        """A connect that did not get through (the socket's error, or the broker's refusal)."""
        with self._lock:
            first = self.connected or self.tries == 0
            changed = why != self.error
            self.connected = False
            self.error = why
            self.since = self.since or self._now()
            self.tries += 1
            tries = self.tries
        if first or changed:
            log.warning("director: cannot reach broker %s (%s); retrying every %g s", self.url, why, self.retry_s)
        elif tries % REPEAT_EVERY == 0:
            log.warning("director: still cannot reach broker %s (%s) after %d tries; retrying", self.url, why, tries)
        self._tell()

    def up(self) -> None:
        with self._lock:
            was = self.tries
            self.connected, self.error, self.since, self.tries = True, None, None, 0
        if was:
            log.info("director: broker %s reached after %d failed tries", self.url, was)
        self._tell()

    def lost(self, why: str) -> None:
        with self._lock:
            if not self.connected:
                return
            self.connected, self.error, self.since = False, f"connection lost: {why}", self._now()
        log.warning("director: lost broker %s (%s); reconnecting", self.url, why)
        self._tell()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()

    # --- for the page -------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """`connected`, `url`, `error`, `since` (ISO, UTC), `tries` and the words the page shows."""
        with self._lock:
            connected, error, since, tries = self.connected, self.error, self.since, self.tries
        if connected:
            text = f"broker {self.url}: connected"
        elif error == "connecting":
            text = f"connecting to broker {self.url}…"
        else:
            text = f"cannot reach broker {self.url}: {error}; retrying"
        return {"connected": connected, "url": self.url, "error": error, "since": since, "tries": tries,
                "text": text}
