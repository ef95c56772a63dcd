"""How many connections the page keeps, and for how long: a Pi's open files are a shared, small budget.

About 1,100 idle TCP connections (a slowloris, or a phone whose browser misbehaves) once filled the 1024
open files systemd allows; from then on every new client waited 45 s for nothing, and every refused accept
was logged. Three bounds keep the page answering:

- a connection that has sent no complete request within `IDLE_TIMEOUT_S` of opening is closed (this guard's
  own timer: older aiohttp releases start their keep-alive timer only after a first response), and so is
  one idle or half-way through its next request that long after a response (aiohttp's keep-alive timer);
- a request body that has not arrived within `BODY_TIMEOUT_S` is answered 408 (referee/web/app.py);
- at most `MAX_CONNECTIONS` are kept: a new one makes room by closing the oldest connection that is not in
  the middle of a request (an attacker's idle sockets go first; an open page's event stream only when
  nothing else is left, and the page then reconnects by itself);
- at most `MAX_PER_SOURCE` from one source: past that, that source's own oldest connections are closed, so
  one address's flood of reconnects or event streams never reaches the global bound and the others' pages.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 512
# Connections kept from one source (an IPv4 address or an IPv6 /64, as the PIN guard counts them). 460 event
# streams from one address once held the page (cap 512) and a new page waited up to 3 s; a source past this
# cap has its own oldest connections closed (idle ones first), nobody else's. 64 leaves room for a club whose
# phones share one address behind a NAT (a page holds one or two).
MAX_PER_SOURCE = 64
IDLE_TIMEOUT_S = 15.0
BODY_TIMEOUT_S = 10.0
BACKLOG = 2048  # connections the kernel queues before they are accepted (capped by net.core.somaxconn)
# Connections asyncio accepts in one go. asyncio takes up to its `backlog` argument in one loop iteration,
# before the guard has seen any of them connect: with 2048 a burst of 1,100 was accepted whole and ran the
# process out of open files (every accept then failed) before a single idle one could be closed. In batches
# the guard counts and closes between them, so the bound holds.
ACCEPT_BATCH = 64


class ConnectionGuard:
    """The protocol factory handed to `loop.create_server`: aiohttp's own, plus the bound on connections.

    It reads two attributes aiohttp's `RequestHandler` keeps (`_request_in_progress`, `_force_close`): there
    is no public way to ask whether a connection is busy, and guessing wrong only changes which connection
    is closed first, never whether the bound holds."""

    def __init__(self, server: web.Server, limit: int = MAX_CONNECTIONS, per_source: int = MAX_PER_SOURCE) -> None:
        if limit < 1 or per_source < 1:
            raise ValueError(f"the connection limits must be at least 1, not {limit} and {per_source}")
        self._server = server
        self.limit = limit
        self.per_source = per_source
        self.evicted = 0  # connections closed to make room (the benchmark and the log report it)
        self.evicted_per_source = 0  # of those, closed because their source held too many
        self._last_report = 0
        self._last_source_report = 0
        self._sources: dict[Any, str] = {}  # handler -> its source, while it is open
        # handler -> its first-request check, while it is open. The timer holds the handler (its buffers, its
        # transport): left to run after a close, a flood of reconnects (450 a second) kept every closed
        # connection of the last 15 s alive, 628 handlers and 1,200 timers after a 20 s flood.
        self._first_timers: dict[Any, asyncio.TimerHandle] = {}
        # aiohttp tells its server of each connection with the transport (and so the peer): the one place the
        # source of a connection is known before its first request.
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: Any, transport: asyncio.Transport) -> None:
            made(handler, transport)
            self._made(handler, transport)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            self._sources.pop(handler, None)
            timer = self._first_timers.pop(handler, None)
            if timer is not None:  # a closed connection needs no first-request check, nor to be held for it
                timer.cancel()
            lost(handler, exc)

        server.connection_made = connection_made  # type: ignore[method-assign]  # see the comment above
        server.connection_lost = connection_lost  # type: ignore[method-assign]

    def _made(self, handler: Any, transport: asyncio.Transport) -> None:
        from tournament.pagekit.guards import client_key

        peer = transport.get_extra_info("peername")
        source = client_key(str(peer[0]) if isinstance(peer, tuple) and peer else None)
        self._sources[handler] = source
        same = [h for h, s in self._sources.items() if s == source and not getattr(h, "_force_close", False)]
        excess = len(same) - self.per_source
        if excess <= 0:
            return
        # Oldest first (dicts keep insertion order), idle ones before busy ones; never the one just made.
        older = same[:-1]
        victims = ([h for h in older if not getattr(h, "_request_in_progress", False)]
                   + [h for h in older if getattr(h, "_request_in_progress", False)])[:excess]
        for victim in victims:
            victim.force_close()
            self.evicted += 1
            self.evicted_per_source += 1
        if (self.evicted_per_source >= self._last_source_report * 2
                or self.evicted_per_source - self._last_source_report >= 1000):
            log.warning("%s holds more than %d connections to the page: %d closed so far (its oldest first)",
                        source, self.per_source, self.evicted_per_source)
            self._last_source_report = self.evicted_per_source

    def __call__(self) -> asyncio.BaseProtocol:
        connections = self._server.connections
        if len(connections) + 1 > self.limit:
            live = [h for h in connections if not getattr(h, "_force_close", False)]
            excess = len(live) + 1 - self.limit
            if excess > 0:
                idle = [h for h in live if not getattr(h, "_request_in_progress", False)]
                busy = [h for h in live if getattr(h, "_request_in_progress", False)]
                # Idle ones in a batch (an eighth of the limit): under a flood the scan above then runs once
                # per batch, not once per connection; busy ones only as many as must go.
                victims = idle[:max(excess, self.limit // 8)] if len(idle) >= excess else (idle + busy)[:excess]
                for handler in victims:
                    handler.force_close()
                    self.evicted += 1
            if self.evicted >= self._last_report * 2 or self.evicted - self._last_report >= 1000:
                # log 1, 2, 4, 8 ... closings, then every thousand: a flood must not become a flood of log
                log.warning("the page is at its limit of %d connections: %d closed so far to make room for "
                            "new ones (idle ones first)", self.limit, self.evicted)
                self._last_report = self.evicted
        protocol: asyncio.BaseProtocol = self._server()
        self._first_timers[protocol] = asyncio.get_running_loop().call_later(
            self.first_request_s, self._first_request_due, protocol)
        return protocol

    first_request_s = IDLE_TIMEOUT_S

    def _first_request_due(self, handler: Any) -> None:
        """Close a connection that has not sent one whole request head since it opened (idle or slowloris)."""
        self._first_timers.pop(handler, None)
        if getattr(handler, "_force_close", False) or getattr(handler, "_request_in_progress", False):
            return
        if getattr(handler, "_request_count", 1) == 0 and getattr(handler, "transport", None) is not None:
            handler.force_close()


def listening_socket(host: str, port: int) -> socket.socket:
    """The page's listening socket with the deep kernel queue (`BACKLOG`); hand it to `loop.create_server` with
    `backlog=ACCEPT_BATCH` (asyncio's per-iteration accept count, which also resets the queue), then call
    `deepen(sock)` so the kernel queues `BACKLOG` again."""
    return socket.create_server((host, port), family=_family(host), backlog=BACKLOG, reuse_port=False)


def deepen(sock: socket.socket) -> None:
    """Give the kernel's accept queue its depth back after asyncio's `listen(ACCEPT_BATCH)`."""
    sock.listen(BACKLOG)


def _family(host: str) -> socket.AddressFamily:
    try:
        return socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror:
        return socket.AF_INET


def runner_settings() -> dict[str, Any]:
    """The `web.AppRunner` settings that bound a connection's life (see the module docstring).

    No access log: one line per request (and two per wrong PIN) filled an SD card under a flood; the
    referee logs what matters itself."""
    return {"keepalive_timeout": IDLE_TIMEOUT_S, "access_log": None, "max_line_size": 8190,
            "max_field_size": 8190, "max_headers": 64, "lingering_time": 2.0}
