"""Server-sent events: every snapshot the table publishes goes to every open page at once.

The table calls its listeners from its own thread; the hub hands each snapshot to the web server's loop
with `call_soon_threadsafe` and encodes it once for all pages. A page that falls behind (a phone on a
weak Wi-Fi) gets the newest snapshot, not a backlog: the coalescing hub the director's hall uses too
(tournament/pagekit/hub.py), one key per page, ordered by the snapshot's seq.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Hashable
from typing import Any

from aiohttp import web

from referee.table.api import Snapshot, TableView
from tournament.pagekit.hub import Hub, Page

SNAPSHOT = "snapshot"  # the one key of a table page: the newest snapshot replaces the one waiting


def encode_event(snapshot: Snapshot) -> bytes:
    """One SSE message: `id` is the snapshot's seq, so a reconnecting page can tell old from new."""
    data = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
    return f"id: {snapshot.get('seq', 0)}\nevent: snapshot\ndata: {data}\n\n".encode()


class SnapshotHub:
    """Subscribes to the table once and fans its snapshots out to the open pages."""

    def __init__(self, table: TableView) -> None:
        self._table = table
        self._hub = Hub()
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
        self._hub.close()

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
        for page in self._hub.pages:
            page.offer(SNAPSHOT, (seq, message), order=seq)

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """GET /events: the current snapshot at once, then every new one, with keep-alives in between."""
        last_seq = -1

        def first() -> bytes:
            nonlocal last_seq
            current = self._table.snapshot()
            last_seq = int(current.get("seq", 0))
            return b"retry: 1000\n\n" + encode_event(current)

        def render(batch: dict[Hashable, Any]) -> bytes | None:
            nonlocal last_seq
            seq, message = batch[SNAPSHOT]
            if seq <= last_seq:  # older than what the page has (it came while the page opened)
                return None
            last_seq = seq
            return bytes(message)

        return await self._hub.serve(request, Page(), first, render)
