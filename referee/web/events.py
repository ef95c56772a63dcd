"""Server-sent events: every snapshot the table publishes goes to every open page at once.

The table calls its listeners from its own thread; the hub hands each snapshot to the web server's loop
with `call_soon_threadsafe` and encodes it once for all pages. A page that falls behind (a phone on a
weak Wi-Fi) gets the newest snapshot, not a backlog: a snapshot is the whole picture, so skipping the
ones in between loses nothing and keeps the latency low for everyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable

from aiohttp import web

from referee.table.api import Snapshot, TableView

KEEPALIVE_S = 15.0


def encode_event(snapshot: Snapshot) -> bytes:
    """One SSE message: `id` is the snapshot's seq, so a reconnecting page can tell old from new."""
    data = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
    return f"id: {snapshot.get('seq', 0)}\nevent: snapshot\ndata: {data}\n\n".encode()


class _Client:
    """One open page: the newest snapshot it has not been sent yet, and a flag to wake its handler."""

    def __init__(self) -> None:
        self.pending: tuple[int, bytes] | None = None
        self.wake = asyncio.Event()
        self.closed = False

    def offer(self, seq: int, message: bytes) -> None:
        if self.pending is None or seq > self.pending[0]:
            self.pending = (seq, message)
            self.wake.set()

    async def next(self, timeout: float) -> tuple[int, bytes] | None:
        """The next snapshot to send, or None after `timeout` seconds (time for a keep-alive) or on close."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), timeout)
        self.wake.clear()
        pending, self.pending = self.pending, None
        return pending


class SnapshotHub:
    """Subscribes to the table once and fans its snapshots out to the open pages."""

    def __init__(self, table: TableView) -> None:
        self._table = table
        self._clients: set[_Client] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.published = 0

    def start(self) -> None:
        """Subscribe to the table; called on the server's loop when the app starts."""
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = self._table.subscribe(self._on_snapshot)

    def stop(self) -> None:
        """Unsubscribe and let every open event stream end, so the server can shut down cleanly."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for client in self._clients:
            client.closed = True
            client.wake.set()

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        # Runs on the table's thread: must be quick and must not raise (referee.table.api's contract).
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closing: the service is stopping
            loop.call_soon_threadsafe(self._publish, snapshot)

    def _publish(self, snapshot: Snapshot) -> None:
        self.published += 1
        message = encode_event(snapshot)
        seq = int(snapshot.get("seq", 0))
        for client in self._clients:
            client.offer(seq, message)

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """GET /events: the current snapshot at once, then every new one, with keep-alives in between."""
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache",
                     "X-Accel-Buffering": "no"},
        )
        client = _Client()
        self._clients.add(client)
        try:
            await response.prepare(request)
            current = self._table.snapshot()
            last_seq = int(current.get("seq", 0))
            await response.write(b"retry: 1000\n\n" + encode_event(current))
            while not client.closed:
                item = await client.next(KEEPALIVE_S)
                if client.closed:
                    break
                if item is None:
                    await response.write(b": keepalive\n\n")
                elif item[0] > last_seq:
                    last_seq = item[0]
                    await response.write(item[1])
        except ConnectionError:
            pass  # the page went away
        finally:
            self._clients.discard(client)
        return response
