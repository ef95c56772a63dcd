"""Score sheets the director computes itself, from the journaled events it received: the results' only source.

A table's snapshot is a view for the hall page: anyone holding the table's broker login can publish one with
any scores (issue 24 row 3: a forged snapshot made a result 999-1 and flipped the winner). The events are what
the table journaled, numbered and checked for gaps by the receiver; the director replays them through a
`Replayer` (the real table's state machine, handed in by `referee director`: the tournament package never
imports the table's service) and results, standings, tsh lines and GCG files are written from that sheet.

A sheet is kept per game, fed in order: the header (seq 0) starts it, each next seq is applied, anything else
waits for the receiver's replay (which delivers in order). A game met mid-way (a director restarted from its
store) is rebuilt once from the stored events. Each sheet is cached in the store when its moves or state
change, so a restart does not replay every ended game again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from tournament.payloads import HEADER_SEQ

log = logging.getLogger(__name__)

# what a sheet holds: the fields of a snapshot the results are written from (tournament/director/core.py), and
# `pragmas`, the table's own GCG pragmas of the game (its setup's: title, tiles, variant, lexicon, challenge rule);
# a move of `moves` may carry the `rack` the table's engine knows (Scramble's dice), which a snapshot leaves out
SHEET_KEYS = ("players", "moves", "state", "result", "edition", "game", "pragmas")


class GameSheet(Protocol):
    """One game replayed from its events."""

    def apply(self, kind: str, data: Mapping[str, Any], time_s: float) -> None:
        """One journaled event (after the header), in order. An event the game refuses changes nothing."""

    def sheet(self) -> dict[str, Any]:
        """The game now, with the keys `SHEET_KEYS` (players with name and score, moves, ...; `pragmas` the
        table's GCG pragmas and a move's `rack`, which a sheet may leave out: the GCG is then written without)."""

    def mark(self) -> tuple[Any, ...]:
        """(rows of the score sheet, scores, ended): cheap, asked after every event; the sheet is written to the
        store only when this changes."""


class Replayer(Protocol):
    """Starts a `GameSheet` from a game's header (seq 0: players and the journaled setup)."""

    def start(self, header: Mapping[str, Any]) -> GameSheet:
        """Raise ValueError saying why a header cannot be replayed (a damaged setup, a lexicon not here)."""


StoredEvents = Callable[[int, int], list[tuple[int, str, Any, float]]]  # (table, game) -> (seq, kind, data, time)


@dataclass
class _Live:
    sheet: GameSheet | None  # None: the header could not be replayed (`error` says why)
    next_seq: int
    error: str = ""
    saved: tuple[Any, ...] = ()  # `GameSheet.mark` of the copy in the store


class Sheets:
    """Every game's sheet from its events. `stored(table, game)` reads a game's stored events (a rebuild);
    `save(table, game, seq, sheet)` caches a sheet in the store."""

    def __init__(self, replayer: Replayer, stored: StoredEvents,
                 save: Callable[[int, int, int, dict[str, Any]], None]) -> None:
        self.replayer = replayer
        self.stored = stored
        self.save = save
        self._live: dict[tuple[int, int], _Live] = {}
        self.refused = 0  # headers that could not be replayed
        # the loop feeds events while a worker thread may read sheets (the standings, a round's zip)
        self._lock = threading.RLock()

    def _start(self, table: int, game: int, header: Mapping[str, Any]) -> _Live:
        try:
            return _Live(self.replayer.start(header), HEADER_SEQ + 1)
        except ValueError as exc:
            self.refused += 1
            log.warning("table %s game %s: its events cannot be replayed (%s): no result from it", table, game, exc)
            return _Live(None, HEADER_SEQ + 1, str(exc))

    def _rebuild(self, table: int, game: int, upto: int | None = None) -> _Live | None:
        """The game replayed from the store's unbroken run of events from its header (up to seq `upto`)."""
        events = self.stored(table, game)
        if not events or events[0][0] != HEADER_SEQ or not isinstance(events[0][2], dict):
            return None
        live = self._start(table, game, events[0][2])
        for seq, kind, data, time_s in events[1:]:
            if seq != live.next_seq or (upto is not None and seq > upto):
                break
            self._apply(live, kind, data, time_s)
        self._live[(table, game)] = live
        return live

    @staticmethod
    def _apply(live: _Live, kind: str, data: Any, time_s: float) -> None:
        if live.sheet is not None:
            live.sheet.apply(kind, data if isinstance(data, dict) else {}, time_s)
        live.next_seq += 1

    def on_event(self, table: int, game: int, seq: int, kind: str, data: Any, time_s: float) -> None:
        """One event as the receiver delivers it (in order per game; anything out of order is left for the
        replay that fills the gap, or for a rebuild from the store)."""
        with self._lock:
            self._on_event(table, game, seq, kind, data, time_s)

    def _on_event(self, table: int, game: int, seq: int, kind: str, data: Any, time_s: float) -> None:
        key = (table, game)
        live = self._live.get(key)
        if seq == HEADER_SEQ:
            if live is None and isinstance(data, dict):
                self._live[key] = live = self._start(table, game, data)
                self._keep(table, game, live)
            return
        if live is None:
            live = self._rebuild(table, game, upto=seq - 1)
            if live is None:
                return
        if seq != live.next_seq:
            return
        self._apply(live, kind, data, time_s)
        self._keep(table, game, live)

    def _keep(self, table: int, game: int, live: _Live) -> None:
        if live.sheet is None:
            return
        mark = live.sheet.mark()
        if mark != live.saved:
            live.saved = mark
            sheet = live.sheet.sheet()
            self.save(table, game, live.next_seq - 1, {k: sheet.get(k) for k in SHEET_KEYS})

    def sheet(self, table: int, game: int, cached: tuple[int, dict[str, Any]] | None = None,
              last_seq: int = -1) -> dict[str, Any] | None:
        """The game's sheet from its events: the live one, else the store's copy (`cached`: the seq it was
        replayed to and the sheet) when no stored event is past it (`last_seq`), else rebuilt from the stored
        events; None when the director holds no header of it."""
        with self._lock:
            return self._sheet(table, game, cached, last_seq)

    def _sheet(self, table: int, game: int, cached: tuple[int, dict[str, Any]] | None,
               last_seq: int) -> dict[str, Any] | None:
        live = self._live.get((table, game))
        if live is None and cached is not None and cached[0] >= last_seq:
            return cached[1]
        if live is None:
            live = self._rebuild(table, game)
        if live is None or live.sheet is None:
            return None
        sheet = live.sheet.sheet()
        return {k: sheet.get(k) for k in SHEET_KEYS}

    def error(self, table: int, game: int) -> str:
        with self._lock:
            live = self._live.get((table, game))
            return live.error if live is not None else ""

    def forget(self, table: int, game: int) -> None:
        with self._lock:
            self._live.pop((table, game), None)
