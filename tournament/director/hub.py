"""Server-sent events for the hall: every changed table goes to every open page, batched and coalesced.

A page on a slow link gets the newest tile of each table that changed, never a backlog: the tiles are whole
pictures, so skipping the ones in between loses nothing. Each tile is encoded once for all pages. A page that
shows one table subscribes to it alone and gets its full snapshot (the score sheet, the board).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import web

from tournament.director.core import Director
from tournament.director.hall import TableTile

KEEPALIVE_S = 15.0


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class _Client:
    def __init__(self, table: int | None) -> None:
        self.table = table
        self.pending: dict[int, str] = {}
        self.broker: str | None = None  # a change of the director's link to the broker, to send
        self.notices: str | None = None  # a change of the hall's own alerts, to send
        self.wake = asyncio.Event()
        self.closed = False


class HallHub:
    def __init__(self, director: Director) -> None:
        self.director = director
        self._clients: set[_Client] = set()
        self._unsubscribe = director.subscribe(self._on_change)
        self._unsubscribe_broker = director.subscribe_broker(self._on_broker)
        self._unsubscribe_notices = director.subscribe_notices(self._on_notices)

    def close(self) -> None:
        self._unsubscribe()
        self._unsubscribe_broker()
        self._unsubscribe_notices()
        for client in self._clients:
            client.closed = True
            client.wake.set()

    def _on_change(self, state: TableTile) -> None:
        tile: str | None = None
        full: str | None = None
        for client in self._clients:
            if client.table is None:
                tile = tile or _dumps(state.tile())
                client.pending[state.table] = tile
            elif client.table == state.table:
                full = full or _dumps(full_view(state))
                client.pending[state.table] = full
            else:
                continue
            client.wake.set()

    def _on_broker(self, broker: dict[str, Any]) -> None:
        for client in self._clients:
            client.broker = _dumps(broker)
            client.wake.set()

    def _on_notices(self, notices: dict[str, str]) -> None:
        for client in self._clients:
            client.notices = _dumps(notices)
            client.wake.set()

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """GET /events (every tile) or /events?table=N (that table's full view)."""
        raw = request.query.get("table")
        table = int(raw) if raw and raw.isdigit() else None
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream; charset=utf-8",
                                               "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        client = _Client(table)
        self._clients.add(client)
        try:
            await response.prepare(request)
            if table is None:
                first = "[" + ",".join(_dumps(s.tile()) for _, s in sorted(self.director.tables.items())) + "]"
            else:
                # a table that has not reported yet is shown empty, never created: only the broker's messages
                # (a table's own topics) put a table in the hall
                state = self.director.tables.get(table) or TableTile(table)
                first = "[" + _dumps(full_view(state)) + "]"
            await response.write(f"retry: 1000\nevent: broker\ndata: {_dumps(self.director.broker)}\n\n"
                                 f"event: notices\ndata: {_dumps(self.director.notices)}\n\n"
                                 f"event: tiles\ndata: {first}\n\n".encode())
            while not client.closed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(client.wake.wait(), KEEPALIVE_S)
                client.wake.clear()
                if client.closed:
                    break
                if client.notices is not None:
                    notices, client.notices = client.notices, None
                    await response.write(f"event: notices\ndata: {notices}\n\n".encode())
                if client.broker is not None:
                    broker, client.broker = client.broker, None
                    await response.write(f"event: broker\ndata: {broker}\n\n".encode())
                if not client.pending:
                    await response.write(b": keepalive\n\n")
                    continue
                batch, client.pending = client.pending, {}
                await response.write(f"event: tiles\ndata: [{','.join(batch.values())}]\n\n".encode())
        except ConnectionError:
            pass
        finally:
            self._clients.discard(client)
        return response


def full_view(state: TableTile) -> dict[str, Any]:
    """One table for its own page: the tile plus the snapshot's score sheet, premiums and pending."""
    tile = state.tile()
    snap = state.snapshot
    tile.update({"full": True, "moves": list(snap.get("moves") or []), "premiums": list(snap.get("premiums") or []),
                 "pending": snap.get("pending") or {}, "bag": snap.get("bag"), "result": snap.get("result"),
                 "table_alerts": list(snap.get("alerts") or [])})
    return tile
