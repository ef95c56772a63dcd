"""The director's own copy of every game, in SQLite: survives a restart of the director's laptop.

One row per event `(table, game, seq)` (a duplicate delivery is ignored by the primary key, so each event is
stored once), the latest snapshot per game (the score sheet the exports are written from), the pairing each
table was given per round, and which round and division a game belongs to. After a restart the hall is
rebuilt from this file, then refreshed from the broker's retained snapshots and the tables' replays.

Events and snapshots, hundreds a second in a large hall, are written by a writer thread in batches (one
transaction for whatever queued up meanwhile), so the director's event loop never waits on the disk: a
slow SD card or a checkpoint's fsync delays the copy, not the hall page. Every read first waits until what
was queued before it is written (`flush`), so a read sees every write made before it. A director killed
with events still queued loses them from its copy only: at its next start `resume_points` says where its
copy stops, and the tables replay the rest.
"""

from __future__ import annotations

import json
import logging
import queue
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    tbl INTEGER NOT NULL, game INTEGER NOT NULL, seq INTEGER NOT NULL,
    kind TEXT NOT NULL, data TEXT NOT NULL, time REAL NOT NULL, at TEXT NOT NULL,
    PRIMARY KEY (tbl, game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS games (
    tbl INTEGER NOT NULL, game INTEGER NOT NULL,
    round INTEGER, division TEXT, ids TEXT, snapshot TEXT, seq INTEGER NOT NULL DEFAULT -1,
    PRIMARY KEY (tbl, game)
);
CREATE TABLE IF NOT EXISTS pairings (
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, division TEXT NOT NULL, players TEXT NOT NULL,
    first INTEGER, ids TEXT NOT NULL,
    PRIMARY KEY (round, tbl)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sheets (
    tbl INTEGER NOT NULL, game INTEGER NOT NULL, seq INTEGER NOT NULL, sheet TEXT NOT NULL,
    PRIMARY KEY (tbl, game)
);
"""


_INSERT_EVENT = "INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?, ?)"
_INSERT_GAME = "INSERT OR IGNORE INTO games (tbl, game) VALUES (?, ?)"
_SAVE_SHEET = ("INSERT INTO sheets VALUES (?, ?, ?, ?) ON CONFLICT (tbl, game) DO UPDATE SET seq = excluded.seq, "
               "sheet = excluded.sheet WHERE excluded.seq >= sheets.seq")
_UPDATE_SNAPSHOT = "UPDATE games SET snapshot = ?, seq = ? WHERE tbl = ? AND game = ? AND seq <= ?"


@dataclass(frozen=True)
class StoredGame:
    table: int
    game: int
    round: int | None
    division: str | None
    ids: list[int | None]
    snapshot: dict[str, Any] | None
    seq: int


class Store:
    """SQLite in WAL mode; every method is safe from any thread (one connection behind a lock)."""

    BATCH = 500  # writes at most in one transaction

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
        self.duplicates = 0  # events that were stored already (a redelivery after a restart)
        self.failed_writes = 0
        self._queue: queue.Queue[tuple[str, tuple[Any, ...]] | None] = queue.Queue()
        self._writer = threading.Thread(target=self._write_loop, name="director-store", daemon=True)
        self._writer.start()

    def close(self) -> None:
        """Write what is queued, stop the writer, close the file."""
        self._queue.put(None)
        self._writer.join(30)
        with self._lock:
            self._db.close()

    def flush(self) -> None:
        """Return once every write queued before this call is in the file."""
        if self._writer.is_alive():
            self._queue.join()

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            batch = [first]
            while len(batch) < self.BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            ops = [op for op in batch if op is not None]
            try:
                if ops:
                    with self._tx() as db:
                        for sql, args in ops:
                            cur = db.execute(sql, args)
                            if sql is _INSERT_EVENT and cur.rowcount == 0:
                                self.duplicates += 1
            except sqlite3.Error:
                # the disk is full or failing: the hall goes on from memory, and what this copy lacks is
                # asked of the tables again at the next start (resume_points)
                self.failed_writes += len(ops)
                log.exception("the director's copy of the games could not be written (%d writes lost)", len(ops))
            finally:
                for _ in batch:
                    self._queue.task_done()
            if None in batch:
                return

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # --- events --------------------------------------------------------------------------------

    def add_event(self, table: int, game: int, seq: int, kind: str, data: Any, time: float, at: str, *,
                  game_row: bool = True) -> None:
        """Queue one event for the file; one already stored (a redelivery) is counted in `duplicates`.
        `game_row` False: the event of a game the director has not taken as the table's yet (no row in
        `games`, so no result, and a restart does not show it)."""
        self._queue.put((_INSERT_EVENT, (table, game, seq, kind, json.dumps(data, ensure_ascii=False), time, at)))
        if game_row:
            self._queue.put((_INSERT_GAME, (table, game)))

    def add_game(self, table: int, game: int) -> None:
        """A game taken as the table's (its header came in the journal's order)."""
        self._queue.put((_INSERT_GAME, (table, game)))

    def forget_games(self, table: int, games: list[int]) -> None:
        """Drop games of a table from the copy: their events, rows and sheets (a director's reset)."""
        self.flush()
        with self._tx() as db:
            for game in games:
                for name in ("events", "games", "sheets"):
                    db.execute(f"DELETE FROM {name} WHERE tbl = ? AND game = ?", (table, game))

    def event_seqs(self, table: int, game: int) -> list[int]:
        self.flush()
        with self._lock:
            return [r[0] for r in self._db.execute(
                "SELECT seq FROM events WHERE tbl = ? AND game = ? ORDER BY seq", (table, game))]

    def events(self, table: int, game: int) -> list[tuple[int, str, Any]]:
        self.flush()
        with self._lock:
            rows = self._db.execute("SELECT seq, kind, data FROM events WHERE tbl = ? AND game = ? ORDER BY seq",
                                    (table, game)).fetchall()
        return [(seq, kind, json.loads(data)) for seq, kind, data in rows]

    def timed_events(self, table: int, game: int) -> list[tuple[int, str, Any, float]]:
        """A game's stored events with their table time, in order: what a score sheet is replayed from."""
        self.flush()
        with self._lock:
            rows = self._db.execute("SELECT seq, kind, data, time FROM events WHERE tbl = ? AND game = ? "
                                    "ORDER BY seq", (table, game)).fetchall()
        return [(seq, kind, json.loads(data), float(t)) for seq, kind, data, t in rows]

    # --- score sheets replayed from the events (tournament/director/sheets.py) -------------------------

    def save_sheet(self, table: int, game: int, seq: int, sheet: dict[str, Any]) -> None:
        """Queue a game's sheet, replayed up to `seq`, for the file (an older one arriving late is ignored)."""
        self._queue.put((_SAVE_SHEET, (table, game, seq, json.dumps(sheet, ensure_ascii=False))))

    def sheets(self, table: int | None = None,
               game: int | None = None) -> dict[tuple[int, int], tuple[int, dict[str, Any]]]:
        """Per game, the cached sheet and the seq it was replayed to."""
        self.flush()
        query = "SELECT tbl, game, seq, sheet FROM sheets"
        args: tuple[Any, ...] = ()
        if table is not None and game is not None:
            query, args = query + " WHERE tbl = ? AND game = ?", (table, game)
        with self._lock:
            rows = self._db.execute(query, args).fetchall()
        return {(t, g): (q, json.loads(sheet)) for t, g, q, sheet in rows}

    def pause_events(self, table: int, game: int) -> list[tuple[int, str, str, Any]]:
        """The director commands and the table's control actions of a game, in order (who paused it)."""
        self.flush()
        with self._lock:
            rows = self._db.execute("SELECT seq, kind, at, data FROM events WHERE tbl = ? AND game = ? "
                                    "AND kind IN ('director', 'control') ORDER BY seq", (table, game)).fetchall()
        return [(seq, kind, at, json.loads(data)) for seq, kind, at, data in rows]

    def untaken_headers(self) -> list[tuple[int, int, str, Any, float, str]]:
        """The stored headers of games without a row (not taken as their table's yet): (table, game, kind,
        data, time, at)."""
        self.flush()
        with self._lock:
            rows = self._db.execute("SELECT e.tbl, e.game, e.kind, e.data, e.time, e.at FROM events e WHERE e.seq = 0 "
                                    "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.tbl = e.tbl AND g.game = e.game)"
                                    ).fetchall()
        return [(t, g, k, json.loads(d), float(tm), at) for t, g, k, d, tm, at in rows]

    def last_seqs(self) -> dict[tuple[int, int], int]:
        """The highest stored seq of every game, to ask for what came after it once the director is back."""
        self.flush()
        with self._lock:
            rows = self._db.execute("SELECT tbl, game, MAX(seq) FROM events GROUP BY tbl, game").fetchall()
        return {(t, g): s for t, g, s in rows}

    # --- games -----------------------------------------------------------------------------------

    def save_snapshot(self, table: int, game: int, seq: int, snapshot: dict[str, Any]) -> None:
        """Queue the newest snapshot of a game for the file (an older one arriving late is ignored)."""
        self._queue.put((_INSERT_GAME, (table, game)))
        self._queue.put((_UPDATE_SNAPSHOT, (json.dumps(snapshot, ensure_ascii=False), seq, table, game, seq)))

    def assign_game(self, table: int, game: int, round_: int, division: str, ids: list[int | None]) -> None:
        """Say which round and division a game belongs to (once: a game keeps its round)."""
        self.flush()
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO games (tbl, game) VALUES (?, ?)", (table, game))
            db.execute("UPDATE games SET round = ?, division = ?, ids = ? WHERE tbl = ? AND game = ? AND round IS NULL",
                       (round_, division, json.dumps(ids), table, game))

    def games(self, table: int | None = None, game: int | None = None) -> list[StoredGame]:
        self.flush()
        query = "SELECT tbl, game, round, division, ids, snapshot, seq FROM games"
        args: tuple[Any, ...] = ()
        if table is not None:
            query += " WHERE tbl = ?"
            args = (table,)
            if game is not None:
                query += " AND game = ?"
                args = (table, game)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY tbl, game", args).fetchall()
        return [StoredGame(t, g, r, d, json.loads(i) if i else [None, None], json.loads(s) if s else None, q)
                for t, g, r, d, i, s, q in rows]

    def game_sheets(self, table: int | None = None, game: int | None = None, round_: int | None = None
                    ) -> list[tuple[StoredGame, tuple[int, dict[str, Any]] | None, int]]:
        """Games (all, one table's, one game, or one round's) with their cached sheet (seq replayed to, sheet)
        and their highest stored seq, in one query: each game costs its own rows only (the primary keys'
        indexes), never a pass over every event of the event."""
        self.flush()
        where, args = [], []
        for column, value in (("g.tbl", table), ("g.game", game), ("g.round", round_)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        query = ("SELECT g.tbl, g.game, g.round, g.division, g.ids, s.seq, s.sheet, "
                 "(SELECT MAX(e.seq) FROM events e WHERE e.tbl = g.tbl AND e.game = g.game) "
                 "FROM games g LEFT JOIN sheets s ON s.tbl = g.tbl AND s.game = g.game"
                 + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY g.tbl, g.game")
        with self._lock:
            rows = self._db.execute(query, tuple(args)).fetchall()
        return [(StoredGame(t, g, r, d, json.loads(i) if i else [None, None], None, -1),
                 None if sheet is None else (q, json.loads(sheet)), -1 if last is None else int(last))
                for t, g, r, d, i, q, sheet, last in rows]

    # --- pairings --------------------------------------------------------------------------------

    def save_pairings(self, rows: list[dict[str, Any]]) -> None:
        with self._tx() as db:
            for p in rows:
                db.execute("INSERT OR REPLACE INTO pairings VALUES (?, ?, ?, ?, ?, ?)",
                           (p["round"], p["table"], p["division"], json.dumps(p["players"], ensure_ascii=False),
                            p["first"], json.dumps(p["ids"])))

    def pairings(self, round_: int | None = None) -> list[dict[str, Any]]:
        query = "SELECT round, tbl, division, players, first, ids FROM pairings"
        args: tuple[Any, ...] = ()
        if round_ is not None:
            query += " WHERE round = ?"
            args = (round_,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY round, tbl", args).fetchall()
        return [{"round": r, "table": t, "division": d, "players": json.loads(p), "first": f, "ids": json.loads(i)}
                for r, t, d, p, f, i in rows]

    def set_meta(self, key: str, value: Any) -> None:
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def meta(self, key: str, default: Any = None) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default
