"""The broadcast's HTTP side: `/tourney.js`, the spectator view, the overlays, their slots, the delay.

Routes (docs/director.md, "Broadcasting the event"):

- `GET /tourney.js` tsh's file as loaded with the pairings, each ended game's scores filled in
- `GET /watch` every table, to choose one (`GET /api/watch` the same as JSON); `GET /watch/N` a spectator's
  view of table N; `GET /overlay/N?fields=...` an overlay for OBS or a hall screen; `GET /overlay/slot/K` the
  overlay of whichever table stream slot K is aimed at
- `GET /broadcast/events?table=N` or `?slot=K`: server-sent `view` events, the table as spectators see it
  (through the delay); `GET /api/watch/N` the same once, as JSON; `GET /api/broadcast` the delay, the slots
  and the event's language
- `POST /api/broadcast/slot/K` `{"table": N}` aims slot K; `POST /api/broadcast/delay` `{"moves": N}` or
  `{"seconds": S}` sets the event's delay: both behind the director key, as the director's commands are

Everything a spectator sees goes through one `Broadcast`: each table's pictures go into its `DelayLine` as
the hall changes, and what is due is pushed to the pages watching it, encoded once for all of them and
coalesced per page as the hall's own stream is (tournament/pagekit/hub.py). The director's own pages
(`/`, `/table/N`, `/api/table/N`) read the hall directly: never delayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from aiohttp import web

from tournament.broadcast.delay import Delay, DelayError, DelayLine
from tournament.broadcast.feed import ResultCache, TourneyFeed
from tournament.broadcast.view import spectator_view
from tournament.director.access import Refused
from tournament.director.core import Director
from tournament.director.hall import TableTile
from tournament.pagekit.hub import Hub, Page
from tournament.pairings import PairingsError
from tournament.results import GameRecord

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).with_name("static")
KEEPALIVE_S = 15.0
TICK_S = 0.25  # how often a delayed picture coming due is looked for
MAX_SLOTS = 16
TOURNEY_META = "tourney_js"  # the store's copy of the tsh file last loaded with the pairings
SLOTS_META = "broadcast_slots"
DELAY_META = "broadcast_delay"
LANGUAGES = ("en", "de")

Authorise = Callable[[web.Request], None]
ReadBody = Callable[[web.Request], Awaitable[dict[str, Any]]]


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


VIEW = "view"  # the one key of a spectator's page: the newest picture replaces the one waiting


def _watches(page: Page) -> tuple[int | None, int | None]:
    """(table, slot): what a spectator's page follows, one of them."""
    table, slot = page.want
    return table, slot


class Broadcast:
    """What spectators see of every table, through the event's delay, and where the stream slots point."""

    def __init__(self, director: Director, *, delay: Delay | None = None, language: str = "",
                 clock: Callable[[], float] | None = None) -> None:
        self.director = director
        self.clock = clock or director.clock
        self.language = language if language in LANGUAGES else ""  # "": each page follows its table
        stored = director.store.meta(DELAY_META)
        self.delay = delay if delay is not None else Delay()
        if isinstance(stored, dict):  # the delay the director set last, kept over a restart
            with contextlib.suppress(DelayError, TypeError):
                self.delay = Delay(**stored)
        raw_slots = director.store.meta(SLOTS_META) or {}
        self.slots: dict[int, int] = {int(k): int(v) for k, v in raw_slots.items()} if isinstance(raw_slots, dict) \
            else {}
        self.results = ResultCache(director)
        self.feed = TourneyFeed(lambda: director.store.meta(TOURNEY_META), self.results.records)
        self._results: dict[int, tuple[Any, ...]] = {}  # table -> its ended game and scores (what the feed follows)
        self._lines: dict[int, DelayLine] = {}
        self._shown: dict[int, tuple[Any, str]] = {}  # table -> (key of the picture shown, its JSON)
        self._hub = Hub(KEEPALIVE_S)
        for state in director.tables.values():
            self._add(state)
            result = self._result(state)
            if result is not None:
                self._results[state.table] = result
        self._unsubscribe = director.subscribe(self._on_change)

    def close(self) -> None:
        self._unsubscribe()
        self._hub.close()

    # --- pictures -------------------------------------------------------------------------------

    def _add(self, state: TableTile) -> None:
        line = self._lines.setdefault(state.table, DelayLine())
        line.add(spectator_view(state), self.clock(), self.delay)

    def _on_change(self, state: TableTile) -> None:
        self._add(state)
        self._push(state.table)
        result = self._result(state)
        if self._results.get(state.table) != result:
            if result is None:
                self._results.pop(state.table, None)
            else:
                self._results[state.table] = result
            if state.game is not None:
                self.results.touch(state.table, state.game)
            self.feed.changed()

    @staticmethod
    def _result(state: TableTile) -> tuple[Any, ...] | None:
        """A table's ended game and its scores (None while its game is not over): all the feed depends on."""
        if state.snapshot.get("state") != "ended":
            return None
        players = [p for p in state.snapshot.get("players") or [] if isinstance(p, dict)]
        return (state.game, tuple(int(p.get("score", 0)) for p in players))

    def view(self, table: int) -> dict[str, Any] | None:
        """Table `table` as spectators see it now (None: it has not reported)."""
        line = self._lines.get(table)
        return None if line is None else line.shown(self.clock(), self.delay)

    @staticmethod
    def _key(view: dict[str, Any]) -> Any:
        delay = view.get("delay") or {}
        return (view.get("game"), view.get("seq"), view.get("online"), bool(delay.get("waiting")),
                _dumps(delay) if delay else "")

    def _encoded(self, table: int) -> str | None:
        view = self.view(table)
        if view is None:
            return None
        key = self._key(view)
        shown = self._shown.get(table)
        if shown is not None and shown[0] == key:
            return shown[1]
        text = _dumps(view)
        self._shown[table] = (key, text)
        return text

    def _watchers(self, table: int) -> list[Page]:
        watchers = []
        for page in self._hub.pages:
            watched, slot = _watches(page)
            if (self.slots.get(slot) if slot is not None else watched) == table:
                watchers.append(page)
        return watchers

    def _push(self, table: int) -> None:
        """Send table `table`'s picture to the pages watching it, when it changed (encoded once for all of
        them; a table nobody watches costs no encoding)."""
        watchers = self._watchers(table)
        if not watchers:
            return
        before = self._shown.get(table)
        text = self._encoded(table)
        if text is None or (before is not None and before[1] == text):
            return
        for page in watchers:
            page.offer(VIEW, text)

    def tick(self) -> None:
        """Push every delayed picture that came due (the app calls it every `TICK_S`; tests step the clock)."""
        if self.delay.active:
            for table in list(self._lines):
                self._push(table)

    async def run_ticks(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            self.tick()

    def set_delay(self, delay: Delay) -> None:
        self.delay = delay
        self.director.store.set_meta(DELAY_META, delay.to_dict())
        self._shown.clear()
        for table in list(self._lines):
            self._push(table)

    def aim(self, slot: int, table: int) -> None:
        """Point stream slot `slot` at `table`; its overlays follow at once."""
        self.slots[slot] = table
        self.director.store.set_meta(SLOTS_META, {str(k): v for k, v in sorted(self.slots.items())})
        text = self._encoded(table) or _dumps({"table": table, "empty": True})
        for page in self._hub.pages:
            if _watches(page)[1] == slot:
                page.offer(VIEW, text)

    def public_record(self, record: GameRecord) -> GameRecord:
        """A game's record as spectators may read it: the current game of its table through the delay (its
        moves and scores as shown), any other game as it is."""
        state = self.director.tables.get(record.table)
        if not self.delay.active or state is None or record.number != state.game:
            return record
        view = self.view(record.table)
        if view is None or (view.get("state") == "ended" and not (view.get("delay") or {}).get("waiting")):
            return record
        return replace(record, moves=_known_racks(view["moves"], record.moves),
                       scores=[int(p["score"]) for p in view["players"]] or record.scores, ended=False)

    # --- the stream -----------------------------------------------------------------------------

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """GET /broadcast/events?table=N or ?slot=K: `view` events, the first one at once."""
        table = _number(request.query.get("table"))
        slot = _number(request.query.get("slot"))
        if (table is None) == (slot is None):
            return _error(400, "invalid", "ask for one table (?table=N) or one slot (?slot=K)")

        def first() -> bytes:
            aimed = self.slots.get(slot) if slot is not None else table
            text = (self._encoded(aimed) if aimed is not None else None) or _dumps(
                {"table": aimed, "empty": True, "slot": slot})
            return f"retry: 1000\nevent: view\ndata: {text}\n\n".encode()

        return await self._hub.serve(request, Page((table, slot)), first,
                                     lambda batch: f"event: view\ndata: {batch[VIEW]}\n\n".encode())


def _known_racks(shown: list[dict[str, Any]], sheet: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves spectators are shown, each with the rack the director's sheet gives the same move (the table's
    engine knows it: Scramble's rolled dice), which the snapshot they are shown from leaves out; so the delayed
    record writes the table's lines. A move the sheet holds otherwise (undone since, another played) gets no
    rack: nothing of the sheet's newer moves is shown before its time."""
    out = []
    for i, move in enumerate(shown):
        known = sheet[i] if i < len(sheet) else {}
        same = all(known.get(k) == move.get(k) for k in ("player", "kind", "notation", "score", "total"))
        out.append({**move, "rack": known["rack"]} if same and known.get("rack") else dict(move))
    return out


def _number(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() and 1 <= int(raw) <= 9999 else None


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": message, "code": code}, status=status)


def _json(data: Any, **kwargs: Any) -> web.Response:
    return web.json_response(data, dumps=_dumps, **kwargs)


BROADCAST = web.AppKey("broadcast", Broadcast)


def add_routes(app: web.Application, director: Director, broadcast: Broadcast, authorise: Authorise,
               read_body: ReadBody) -> None:
    """Register the broadcast's routes on the director's application (`authorise` and `read_body` are the
    director's own checks, so the slots and the delay are guarded as the commands are)."""
    app[BROADCAST] = broadcast

    async def tourney_js(request: web.Request) -> web.Response:
        try:
            text = await broadcast.feed.answer()
        except PairingsError as exc:
            return _error(404, "no_tsh_file", str(exc))
        return web.Response(text=text, content_type="application/javascript", charset="utf-8",
                            headers={"Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*"})

    async def page(name: str) -> web.FileResponse:
        return web.FileResponse(STATIC_DIR / name)

    async def watch_page(request: web.Request) -> web.FileResponse:
        return await page("watch.html")

    async def overlay_page(request: web.Request) -> web.FileResponse:
        return await page("overlay.html")

    async def index_page(request: web.Request) -> web.FileResponse:
        return await page("index.html")

    async def index_json(request: web.Request) -> web.Response:
        """Every table as spectators see it now, in brief (through the delay, like everything public)."""
        out = []
        for table in sorted(director.tables):
            view = broadcast.view(table)
            if view is None:
                continue
            out.append({k: view.get(k) for k in ("table", "name", "round", "division", "state", "online", "delay")}
                       | {"players": [{"name": p["name"], "score": p["score"], "on_turn": p["on_turn"]}
                                      for p in view["players"]]})
        return _json(out, headers={"Cache-Control": "no-store"})

    async def watch_json(request: web.Request) -> web.Response:
        number = int(request.match_info["n"])
        view = broadcast.view(number)
        if view is None:
            return _error(404, "no_table", f"table {number} has not reported to the broker")
        return _json(view, headers={"Cache-Control": "no-store"})

    async def info(request: web.Request) -> web.Response:
        slots = {str(k): v for k, v in sorted(broadcast.slots.items())}
        return _json({"delay": broadcast.delay.to_dict(), "slots": slots, "language": broadcast.language,
                      "event": director.name}, headers={"Cache-Control": "no-store"})

    async def aim(request: web.Request) -> web.Response:
        slot = int(request.match_info["k"])
        try:
            authorise(request)
            body = await read_body(request)
            table = body.get("table")
            if not 1 <= slot <= MAX_SLOTS:
                raise Refused(400, "invalid", f"slots are numbered 1 to {MAX_SLOTS}, not {slot}")
            if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= 9999:
                raise Refused(400, "invalid", "'table' must be a table number (1 to 9999)")
        except Refused as exc:
            return _error(exc.status, exc.code, str(exc))
        broadcast.aim(slot, table)
        log.info("stream slot %d aimed at table %d from %s", slot, table, request.remote)
        return _json({"ok": True, "slot": slot, "table": table})

    async def set_delay(request: web.Request) -> web.Response:
        try:
            authorise(request)
            body = await read_body(request)
            extra = set(body) - {"moves", "seconds"}
            if extra:
                raise Refused(400, "invalid", f"unknown field {sorted(extra)[0]!r}: send moves or seconds")
            delay = Delay(moves=body.get("moves", 0), seconds=body.get("seconds", 0))
        except Refused as exc:
            return _error(exc.status, exc.code, str(exc))
        except DelayError as exc:
            return _error(400, "invalid", str(exc))
        broadcast.set_delay(delay)
        log.info("spectators' delay set to %s from %s", delay.to_dict(), request.remote)
        return _json({"ok": True, "delay": delay.to_dict()})

    ticker: list[asyncio.Task[None]] = []

    async def on_startup(_: web.Application) -> None:
        ticker.append(asyncio.get_running_loop().create_task(broadcast.run_ticks()))

    async def on_shutdown(_: web.Application) -> None:
        broadcast.close()
        for task in ticker:
            task.cancel()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.router.add_get("/tourney.js", tourney_js)
    app.router.add_get("/watch", index_page)
    app.router.add_get("/watch/{n:\\d+}", watch_page)
    app.router.add_get("/api/watch", index_json)
    app.router.add_get("/overlay/{n:\\d+}", overlay_page)
    app.router.add_get("/overlay/slot/{k:\\d+}", overlay_page)
    app.router.add_get("/broadcast/events", broadcast.stream)
    app.router.add_get("/api/watch/{n:\\d+}", watch_json)
    app.router.add_get("/api/broadcast", info)
    app.router.add_post("/api/broadcast/slot/{k:\\d+}", aim)
    app.router.add_post("/api/broadcast/delay", set_delay)
    app.router.add_static("/cast/", STATIC_DIR, append_version=False)
