"""Whether the director reaches its broker, said on the hall page and in the log.

A director started with a wrong broker address used to serve a green "live" hall of 0 tables and log nothing:
paho's network thread retries a failed connect silently. A table in the same case logs "cannot reach broker
... retrying" (tournament/publisher_loop.py); this watch gives the director the same words, and the page a
state it shows in red (`GET /api/session`, `GET /api/hall`): the broker's address, since when it is out of
reach, why (the connect's own error: connection refused, a name that does not resolve, a refused login) and
that the director keeps trying.

It hooks into the director's paho client from outside (`attach`): its connect, connect-failure and
disconnect callbacks, and its `reconnect` (the one place the connect's OSError is seen: paho's loop only
calls the failure callback, without the reason). Callbacks run on paho's thread; `state()` is read by the
page's handlers on the director's loop, so the state sits behind a lock.
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
        self._lock = threading.Lock()
        self.connected = False
        self.error: str | None = "connecting"
        self.since: str | None = None  # when the present outage began (None while connected)
        self.tries = 0  # failed connects in the present outage
        self.listeners: list[Callable[[], None]] = []
        self._seen_error = False  # reconnect() saw the connect's error (on_connect_fail then adds nothing)

    # --- what happened (paho's thread) -----------------------------------------------------------

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

    # --- the hooks ----------------------------------------------------------------------------------

    def attach(self, client: Any) -> None:
        """Follow a paho client (after its owner set its own `on_connect` and `on_disconnect`, which keep
        running first: the director's link says a lost broker on every page with them)."""
        owner_connect = client.on_connect
        owner_disconnect = client.on_disconnect

        def on_connect(c: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
            if owner_connect is not None:
                owner_connect(c, userdata, flags, reason_code, properties)
            if getattr(reason_code, "is_failure", False):
                self.failed(f"the broker refused the login: {reason_code}")
            else:
                self.up()

        def on_disconnect(c: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any) -> None:
            if owner_disconnect is not None:
                owner_disconnect(c, userdata, flags, reason_code, properties)
            if getattr(reason_code, "is_failure", True):  # not the director's own disconnect at its stop
                self.lost(str(reason_code))

        def on_connect_fail(c: Any, userdata: Any) -> None:
            with self._lock:
                seen = self._seen_error
                self._seen_error = False
            if not seen:  # paho gave no reason (reconnect() was not the one that failed)
                self.failed("no answer")

        original = client.reconnect

        def reconnect() -> Any:
            try:
                return original()
            except OSError as exc:
                with self._lock:
                    self._seen_error = True
                self.failed(str(exc) or type(exc).__name__)
                raise

        client.on_connect = on_connect
        client.on_disconnect = on_disconnect
        client.on_connect_fail = on_connect_fail
        setattr(client, "reconnect", reconnect)  # noqa: B010 - an instance attribute over paho's method
