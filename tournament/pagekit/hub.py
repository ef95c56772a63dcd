"""Server-sent events to every open page, coalesced: a page gets the newest of each thing that changed, never
a backlog.

Every stream the project serves is pictures, not deltas: the table's snapshot (referee/web/events.py), a
hall's tiles (tournament/director/hub.py), a spectator's view (tournament/broadcast/routes.py). A page on a
slow link (a phone on a weak Wi-Fi, a hall screen behind a busy access point) that missed some of them
loses nothing by skipping to the newest, and everyone else keeps a low latency. So each open page holds at
most one message per key (the table, "broker", ...), which the newest replaces; its handler wakes, writes
what is there in one go, and sleeps again, with a keep-alive comment when nothing came for a while.

The owners encode each message once for all pages and decide which page wants what (`Hub.pages`); this
module only holds, wakes and writes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Hashable
from typing import Any

from aiohttp import web

KEEPALIVE_S = 15.0
HEADERS = {"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache",
           "X-Accel-Buffering": "no"}


class Page:
    """One open page: what it follows (`want`, the owner's to read), and for each key the newest message it
    has not been sent yet."""

    def __init__(self, want: Any = None) -> None:
        self.want = want
        self.pending: dict[Hashable, Any] = {}
        self._order: dict[Hashable, int] = {}
        self.wake = asyncio.Event()
        self.closed = False

    def offer(self, key: Hashable, message: Any, order: int | None = None) -> None:
        """Keep `message` as what waits for `key`, replacing an older one. With `order` (a snapshot's seq), a
        message older than the one waiting never replaces it."""
        if order is not None:
            if key in self.pending and order <= self._order.get(key, order):
                return
            self._order[key] = order
        self.pending[key] = message
        self.wake.set()

    def take(self) -> dict[Hashable, Any]:
        """Everything waiting, in the order its keys first came; the page holds nothing after."""
        batch, self.pending = self.pending, {}
        self._order.clear()
        return batch

    async def next(self, timeout: float) -> dict[Hashable, Any] | None:
        """What waits, once something does or after `timeout` seconds (None then: time for a keep-alive)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), timeout)
        self.wake.clear()
        return self.take() or None


class Hub:
    """The open pages of one stream, and the loop that writes to each."""

    def __init__(self, keepalive_s: float = KEEPALIVE_S) -> None:
        self.keepalive_s = keepalive_s
        self.pages: set[Page] = set()

    def close(self) -> None:
        """Let every open stream end, so the server can shut down cleanly."""
        for page in self.pages:
            page.closed = True
            page.wake.set()

    async def serve(self, request: web.Request, page: Page, first: Callable[[], bytes],
                    render: Callable[[dict[Hashable, Any]], bytes | None]) -> web.StreamResponse:
        """Stream to `page`: `first()` at once (read after the page is open, so nothing falls in between),
        then `render(batch)` of whatever waits each time the page wakes (None: nothing to write)."""
        response = web.StreamResponse(headers=HEADERS)
        self.pages.add(page)
        try:
            await response.prepare(request)
            await response.write(first())
            while not page.closed:
                batch = await page.next(self.keepalive_s)
                if page.closed:
                    break
                data = render(batch) if batch is not None else None
                await response.write(data if data else b": keepalive\n\n")
        except ConnectionError:
            pass  # the page went away
        finally:
            self.pages.discard(page)
        return response
