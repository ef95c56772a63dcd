"""Server-sent events for the hall: every changed table goes to every open page, batched and coalesced.

A page on a slow link gets the newest tile of each table that changed, never a backlog: the tiles are whole
pictures, so skipping the ones in between loses nothing (the coalescing hub the table's page uses too,
tournament/pagekit/hub.py). Each tile is encoded once for all pages. A page that shows one table subscribes
to it alone and gets its full snapshot (the score sheet, the board).
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from aiohttp import web

from tournament.director.core import Director
from tournament.director.hall import TableTile
from tournament.pagekit.hub import Hub, Page

KEEPALIVE_S = 15.0


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


BROKER = "broker"  # a change of the director's link to the broker, to send
NOTICES = "notices"  # a change of the hall's own alerts, to send


class HallHub:
    """The hall's pages (tournament/pagekit/hub.py): a page of every tile follows every table (key: its number),
    a table's page follows that table's full view, and every page follows the broker and the notices."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self._hub = Hub(KEEPALIVE_S)
        self._unsubscribe = director.subscribe(self._on_change)
        self._unsubscribe_broker = director.subscribe_broker(self._on_broker)
        self._unsubscribe_notices = director.subscribe_notices(self._on_notices)

    def close(self) -> None:
        self._unsubscribe()
        self._unsubscribe_broker()
        self._unsubscribe_notices()
        self._hub.close()

    def _on_change(self, state: TableTile) -> None:
        tile: str | None = None
        full: str | None = None
        for page in self._hub.pages:
            if page.want is None:
                tile = tile or _dumps(state.tile())
                page.offer(state.table, tile)
            elif page.want == state.table:
                full = full or _dumps(full_view(state))
                page.offer(state.table, full)

    def _on_broker(self, broker: dict[str, Any]) -> None:
        for page in self._hub.pages:
            page.offer(BROKER, _dumps(broker))

    def _on_notices(self, notices: dict[str, str]) -> None:
        for page in self._hub.pages:
            page.offer(NOTICES, _dumps(notices))

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """GET /events (every tile) or /events?table=N (that table's full view)."""
        raw = request.query.get("table")
        table = int(raw) if raw and raw.isdigit() else None

        def first() -> bytes:
            if table is None:
                tiles = "[" + ",".join(_dumps(s.tile()) for _, s in sorted(self.director.tables.items())) + "]"
            else:
                # a table that has not reported yet is shown empty, never created: only the broker's messages
                # (a table's own topics) put a table in the hall
                tiles = "[" + _dumps(full_view(self.director.tables.get(table) or TableTile(table))) + "]"
            return (f"retry: 1000\nevent: broker\ndata: {_dumps(self.director.broker)}\n\n"
                    f"event: notices\ndata: {_dumps(self.director.notices)}\n\n"
                    f"event: tiles\ndata: {tiles}\n\n").encode()

        return await self._hub.serve(request, Page(table), first, _render)


def _render(batch: dict[Hashable, Any]) -> bytes:
    """The hall's notices and broker state first, then every changed tile in one `tiles` event."""
    out = []
    if NOTICES in batch:
        out.append(f"event: notices\ndata: {batch.pop(NOTICES)}\n\n")
    if BROKER in batch:
        out.append(f"event: broker\ndata: {batch.pop(BROKER)}\n\n")
    if batch:
        out.append(f"event: tiles\ndata: [{','.join(batch.values())}]\n\n")
    return "".join(out).encode()


def full_view(state: TableTile) -> dict[str, Any]:
    """One table for its own page: the tile plus the snapshot's score sheet, premiums and pending."""
    tile = state.tile()
    snap = state.snapshot
    tile.update({"full": True, "moves": list(snap.get("moves") or []), "premiums": list(snap.get("premiums") or []),
                 "pending": snap.get("pending") or {}, "bag": snap.get("bag"), "result": snap.get("result"),
                 "table_alerts": list(snap.get("alerts") or [])})
    return tile
