"""The journal: every event that changes a game, in SQLite, written before it takes effect.

The table state machine is deterministic: the same events at the same table times give the same
game. So the journal stores events, not states, and a restart rebuilds the game by replaying them.
An event is committed (WAL, `synchronous=FULL`: the row is on the SD card when `append` returns)
before the table acts on it, so a power cut loses at most an event the players never saw take
effect.

Table time. Events carry the *table time* in milliseconds: a clock that only runs while the
service runs. A heartbeat row, rewritten every second or two, records how far table time got; after a
crash or power cut the service resumes table time from the later of the heartbeat and the last
event. The time the Pi was down is therefore a pause for every clock, and a wall-clock jump (a Pi
without a real-time clock setting its time by NTP) moves nothing. The heartbeat is written with
`synchronous=NORMAL`: losing one costs the mover at most one heartbeat interval, never a score.

The write-ahead log is copied into the database file (a checkpoint) after every event that commits a turn or
a director's action, so the database file alone holds every committed turn: a backup of that one file (or
`referee games backup`, which copies both consistently) loses at most the tiles of the turn being played. The
checkpoint's result is checked: a program holding a read transaction on the journal keeps it from completing,
and that is a warning (`checkpoint_behind`).
The event that ends a game and the game's end mark are one transaction: a kill cannot leave a finished game
listed as "not finished". The service opens the journal as its one writer (`writer=True`): a lock on the
database file itself, the one guarantee that a second referee cannot write into the live game.
`quick_check` (run at start and before a backup) finds a damaged file, and a backup never lands on the
journal's own files (`journal_file_named`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from game.errors import RefereeError
from referee.journal_writer import HeartbeatWriter
from referee.table.state import Event

log = logging.getLogger(__name__)

# Events after which the write-ahead log is checkpointed into the database file: each one commits a turn
# or is a person's decision. Board pictures, link changes and timer ticks wait for the next of these.
CHECKPOINT_KINDS = frozenset({"clock", "control", "roll"})

class JournalError(RefereeError, ValueError):
    """The journal cannot be opened, or holds something this version cannot read."""


class JournalBusy(JournalError):
    """Another write (an event, the heartbeat) has held the journal longer than a caller would wait: the SD card
    has not answered it. Nothing was written; the caller may try again once the card answers."""

    def __init__(self, path: str, waited_s: float) -> None:
        super().__init__(f"{path}: the SD card has not answered the journal's last write for {waited_s:.0f} s")
        self.waited_s = waited_s


SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_utc TEXT NOT NULL,
    table_name TEXT NOT NULL,
    kind TEXT NOT NULL,
    players TEXT NOT NULL,      -- JSON list of names
    setup TEXT NOT NULL,        -- JSON: what the state machine was built from, so a replay rebuilds it
    ended_utc TEXT              -- NULL while the game runs
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t_ms INTEGER NOT NULL,      -- table time
    wall_utc TEXT NOT NULL,     -- for people reading the journal; never used to compute anything
    kind TEXT NOT NULL,
    data TEXT NOT NULL,         -- JSON
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS heartbeat (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    t_ms INTEGER NOT NULL,
    wall_utc TEXT NOT NULL
);
-- How far a reader of the journal got, by name: the tournament publisher's "acknowledged by the broker"
-- cursor (docs/tournament-network.md). Added without a schema bump: older referees ignore the table.
CREATE TABLE IF NOT EXISTS outbox (
    name TEXT PRIMARY KEY,
    game_id INTEGER NOT NULL,   -- the last game whose header was delivered
    event_pos INTEGER NOT NULL  -- the rowid of the last event row delivered (rowids only grow: rows are never deleted)
);
"""


@dataclass(frozen=True)
class GameRow:
    id: int
    created_utc: str
    table_name: str
    kind: str
    players: tuple[str, ...]
    setup: Mapping[str, Any]
    ended_utc: str | None
    events: int


@dataclass(frozen=True)
class EventRow:
    """An event row as stored, with its journal-wide position (`pos`, the row's rowid): what the tournament
    publisher sends."""

    pos: int
    game_id: int
    seq: int
    t_ms: int
    wall_utc: str
    kind: str
    data: Mapping[str, Any]


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    """One SQLite file of games and their events. Safe to share between threads (one lock).

    `writer=True` (the service) takes an exclusive lock on the database file for the journal's life and
    refuses to open when another process holds it."""

    def __init__(self, path: str | Path, *, writer: bool = False) -> None:
        self.path = str(path)
        self._writer_lock: Any = None
        # Events of a game that could not be read (broken JSON): skipped, kept in the file, reported.
        self.unreadable: dict[int, list[int]] = {}
        if self.path != ":memory:":
            try:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # a state folder the referee may not write (a wrong table.state_dir)
                raise JournalError(f"{self.path}: cannot open the journal ({exc.strerror or exc})") from None
        if writer and self.path != ":memory:":
            self._writer_lock = _lock_database(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise JournalError(f"{self.path}: journal schema {row[0]} is newer than this referee reads "
                                   f"({SCHEMA_VERSION}); update the referee")
        except sqlite3.Error as exc:
            if self._writer_lock is not None:
                self._writer_lock.close()
            if type(exc) is sqlite3.DatabaseError or "malformed" in str(exc):
                raise JournalError(f"{self.path}: cannot open the journal: it is damaged ({exc}); restore a "
                                   "backup (docs/backup.md)") from None
            raise JournalError(f"{self.path}: cannot open the journal ({exc})") from None
        self._lock = threading.Lock()
        self._seq: dict[int, int] = {}
        # How long the current write has waited for the disk (the table shows an alert past a few seconds).
        self.clock: Callable[[], float] = time.monotonic
        self._busy_since: float | None = None
        self._heartbeats = HeartbeatWriter(self._write_heartbeat)
        # Log frames the last checkpoint could not copy because another program reads the journal (0: none).
        self.checkpoint_behind = 0

    def waiting_s(self) -> float:
        """Seconds the write in progress has waited for the disk so far (0 when none is in progress)."""
        since = self._busy_since
        return 0.0 if since is None else max(0.0, self.clock() - since)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        self._busy_since = self.clock()
        try:
            yield
        finally:
            self._busy_since = None

    def quick_check(self) -> list[str]:
        """SQLite's `PRAGMA quick_check` of the whole file: [] when it is sound, else what SQLite found (a few
        lines). Run at start and before a backup: a file cut short or overwritten on the card must be an alert,
        never a game resumed in silence or a backup copied over a good one. It reads every page (a few ms for a
        season of games on a Pi)."""
        with self._lock:
            try:
                rows = self._db.execute("PRAGMA quick_check(5)").fetchall()
            except sqlite3.DatabaseError as exc:
                return [str(exc)]
        found = [line.strip() for (row,) in rows for line in str(row).splitlines()
                 if line.strip() and not line.startswith("*** in database")]
        return [] if found == ["ok"] else found

    def _unreadable(self, exc: sqlite3.Error) -> JournalError:
        """The one-line error of a read that failed: a damaged file says so and what to do."""
        if type(exc) is sqlite3.DatabaseError or "malformed" in str(exc):
            return JournalError(f"{self.path}: the journal is damaged ({exc}); restore a backup (docs/backup.md)")
        return JournalError(f"{self.path}: cannot read the journal ({exc})")

    def close(self) -> None:
        self._heartbeats.close()
        with self._lock:
            self._db.close()
            if self._writer_lock is not None:
                self._writer_lock.close()
                self._writer_lock = None

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file (without waiting for readers)."""
        with self._lock:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """A passive checkpoint, its result checked (called with the lock held). SQLite answers (busy, frames in
        the log, frames copied); fewer copied than logged means another program holds a read transaction on the
        journal (an open `sqlite3` shell, a file browser, a copy in progress), so the database file alone no
        longer holds every committed turn: `checkpoint_behind` says by how many frames, and the table shows it
        as a warning until a checkpoint completes again."""
        try:
            with self._writing():
                row = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as exc:  # the rows are safe in the log already; the next turn tries again
            log.warning("%s: the checkpoint failed (%s); the turns are safe in the write-ahead log", self.path, exc)
            return
        if row is None:
            return
        busy, logged, copied = (int(v) for v in row)
        behind = logged - copied if logged >= 0 and copied >= 0 else 0
        if busy or behind > 0:
            if not self.checkpoint_behind:
                log.warning("%s: another program holds a read transaction on the journal, so the checkpoint "
                            "copied %d of %d log frames: the database file alone no longer holds every committed "
                            "turn (the write-ahead log does); close that program", self.path, max(copied, 0),
                            max(logged, 0))
            self.checkpoint_behind = max(behind, 1)
        else:
            if self.checkpoint_behind:
                log.info("%s: the checkpoint completed again", self.path)
            self.checkpoint_behind = 0

    def backup(self, dest: str | Path) -> None:
        """A consistent copy of the whole journal (the log's rows included) in one file at `dest`; never onto the
        journal's own files (JournalError)."""
        own = journal_file_named(dest, self.path) if self.path != ":memory:" else None
        if own is not None:
            raise JournalError(f"{dest}: that is the live journal's own file {own}; back up to another file")
        target = sqlite3.connect(str(dest))
        try:
            with self._lock:
                self._db.backup(target)
        except sqlite3.Error as exc:
            raise JournalError(f"{dest}: cannot write the backup ({exc})") from None
        finally:
            target.close()

    # --- games -----------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _held(self, wait_s: float | None) -> Iterator[None]:
        """The journal's lock; with `wait_s`, JournalBusy (nothing done) once another *write* has held it that long
        (a read, a backup, holds it without waiting for the card: then this waits for it, as without `wait_s`)."""
        if not self._lock.acquire(timeout=-1 if wait_s is None else wait_s):
            if self._busy_since is not None:
                raise JournalBusy(str(self.path), self.waiting_s())
            self._lock.acquire()
        try:
            yield
        finally:
            self._lock.release()

    def new_game(self, table_name: str, kind: str, players: list[str], setup: Mapping[str, Any], *,
                 wait_s: float | None = None) -> int:
        """A new game's row; a card that cannot be written raises JournalError (nothing was created). `wait_s`:
        as in `append`."""
        with self._held(wait_s), self._writing():
            try:
                cur = self._db.execute(
                    "INSERT INTO games (created_utc, table_name, kind, players, setup) VALUES (?, ?, ?, ?, ?)",
                    (_utc_now(), table_name, kind, json.dumps(players, ensure_ascii=False),
                     json.dumps(setup, sort_keys=True, ensure_ascii=False)),
                )
            except sqlite3.Error as exc:
                raise JournalError(f"{self.path}: cannot write to the journal ({exc})") from None
            game_id = int(cur.lastrowid or 0)
            self._seq[game_id] = 0
            return game_id

    def end_game(self, game_id: int) -> None:
        with self._lock, self._writing():
            try:
                self._db.execute("UPDATE games SET ended_utc = ? WHERE id = ? AND ended_utc IS NULL",
                                 (_utc_now(), game_id))
            except sqlite3.Error as exc:
                raise JournalError(f"{self.path}: cannot write to the journal ({exc})") from None

    def games(self) -> list[GameRow]:
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT g.id, g.created_utc, g.table_name, g.kind, g.players, g.setup, g.ended_utc, "
                    "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id"
                ).fetchall()
            except sqlite3.Error as exc:
                raise self._unreadable(exc) from None
        return [self._game_row(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]) for r in rows]

    def _game_row(self, game_id: int, created: str, table: str, kind: str, players: str, setup: str,
                  ended: str | None, events: int) -> GameRow:
        """A `games` row decoded; one damaged by a bad card or a hand edit raises JournalError naming the game
        (a traceback at start was a restart loop under systemd)."""
        where = f"{self.path}: game {game_id}"
        try:
            names = json.loads(players)
        except (ValueError, TypeError, RecursionError):
            raise JournalError(f"{where}: its players are not JSON ({str(players)[:40]!r}); the journal is "
                               "damaged: call the director (move the file aside to start afresh)") from None
        if (not isinstance(names, list) or not 2 <= len(names) <= 4
                or not all(isinstance(n, str) and n.strip() for n in names)):
            raise JournalError(f"{where}: its players are not a list of 2 to 4 names ({str(players)[:40]!r}); "
                               "the journal is damaged: call the director") from None
        try:
            decoded = json.loads(setup)
        except (ValueError, TypeError, RecursionError):
            raise JournalError(f"{where}: its setup is not JSON; the journal is damaged: call the director "
                               "(move the file aside to start afresh)") from None
        if not isinstance(decoded, dict):
            raise JournalError(f"{where}: its setup is not a JSON object; the journal is damaged: call the "
                               "director") from None
        return GameRow(game_id, created, table, kind, tuple(names), decoded, ended, events)

    def game(self, game_id: int) -> GameRow:
        for g in self.games():
            if g.id == game_id:
                return g
        raise JournalError(f"{self.path}: there is no game {game_id} in the journal")

    def last_game(self) -> GameRow | None:
        """The most recent game, finished or not."""
        games = self.games()
        return games[-1] if games else None

    def unfinished_game(self) -> GameRow | None:
        """The most recent game that has not ended: the one to resume after a restart."""
        open_games = [g for g in self.games() if g.ended_utc is None]
        return open_games[-1] if open_games else None

    # --- events ----------------------------------------------------------------------------------

    def append(self, game_id: int, event: Event, *, ends_game: bool = False, wait_s: float | None = None) -> int:
        """Write one event durably and return its sequence number. Call before applying the event.

        `ends_game`: the event ends the game; its row and the game's end mark are written in one transaction.
        `wait_s`: wait at most this long for another write still holding the journal (a frozen SD card), then
        raise JournalBusy having written nothing; None waits for it (what the table's own inputs do)."""
        with self._held(wait_s):
            seq = self._seq.get(game_id)
            if seq is None:
                row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,))
                seq = int(row.fetchone()[0])
            seq += 1
            try:
                self._busy_since = self.clock()
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.execute(
                        "INSERT INTO events (game_id, seq, t_ms, wall_utc, kind, data) VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, seq, int(event.t), _utc_now(), event.kind, event.to_json()),
                    )
                    if ends_game:
                        self._db.execute("UPDATE games SET ended_utc = ? WHERE id = ? AND ended_utc IS NULL",
                                         (_utc_now(), game_id))
                    self._db.execute("COMMIT")
                except BaseException:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise JournalError(f"{self.path}: cannot write to the journal ({exc})") from None
            finally:
                self._busy_since = None
            self._seq[game_id] = seq
            if ends_game or event.kind in CHECKPOINT_KINDS:
                self._checkpoint()
            return seq

    def last_seq(self, game_id: int) -> int:
        """The sequence number of the game's last event (0 when it has none)."""
        with self._lock:
            seq = self._seq.get(game_id)
            if seq is None:
                row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,))
                seq = self._seq[game_id] = int(row.fetchone()[0])
            return seq

    def events(self, game_id: int) -> Iterator[Event]:
        """The game's events in order. An event that cannot be read (its JSON broken, by a bad card or a hand
        edit) is skipped and noted in `unreadable`, so the rest of the game still comes back."""
        for _, event in self.numbered_events(game_id):
            yield event

    def numbered_events(self, game_id: int) -> Iterator[tuple[int, Event]]:
        """`events` with each event's sequence number, for a message that names the event."""
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT seq, t_ms, kind, data FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
                ).fetchall()
            except sqlite3.Error as exc:
                raise self._unreadable(exc) from None
        bad: list[int] = []
        for seq, t, kind, data in rows:
            try:
                parsed = json.loads(data)
                if not isinstance(parsed, dict):
                    raise ValueError("not a JSON object")
            except (ValueError, TypeError, RecursionError) as exc:
                log.error("%s: game %s event %s (%s) cannot be read and is skipped: %s", self.path, game_id, seq,
                          kind, exc)
                bad.append(int(seq))
                continue
            yield int(seq), Event(kind, int(t), parsed)
        if bad:
            self.unreadable[game_id] = bad
        else:
            self.unreadable.pop(game_id, None)

    def heartbeat(self, game_id: int, t_ms: int, *, wait: bool = True) -> None:
        """Record how far table time got. Not fsynced (see the module docstring). `wait=False` (the service
        loop) hands it to the heartbeat thread and returns at once, however slow the disk is."""
        if wait:
            self._write_heartbeat(game_id, t_ms)
        else:
            self._heartbeats.submit(game_id, t_ms)

    def _write_heartbeat(self, game_id: int, t_ms: int) -> None:
        with self._lock, self._writing(), contextlib.suppress(sqlite3.Error):  # a lost one costs <= 2 s of a clock
            self._db.execute("PRAGMA synchronous=NORMAL")
            try:
                self._db.execute(
                    "INSERT INTO heartbeat (game_id, t_ms, wall_utc) VALUES (?, ?, ?) "
                    "ON CONFLICT(game_id) DO UPDATE SET t_ms = MAX(t_ms, excluded.t_ms), wall_utc = excluded.wall_utc",
                    (game_id, int(t_ms), _utc_now()),
                )
            finally:
                self._db.execute("PRAGMA synchronous=FULL")

    def resume_time(self, game_id: int) -> int:
        """The table time to resume from: the later of the last heartbeat and the last event."""
        with self._lock:
            try:
                hb = self._db.execute("SELECT t_ms FROM heartbeat WHERE game_id = ?", (game_id,)).fetchone()
                ev = self._db.execute("SELECT MAX(t_ms) FROM events WHERE game_id = ?", (game_id,)).fetchone()
            except sqlite3.Error as exc:
                raise self._unreadable(exc) from None
        return max(int(hb[0]) if hb else 0, int(ev[0]) if ev and ev[0] is not None else 0)

    # --- readers of the journal: the tournament outbox --------------------------------------------------

    def outbox_cursor(self, name: str) -> tuple[int, int]:
        """(game id, event position) a named reader stored, (0, 0) when it never did."""
        with self._lock:
            row = self._db.execute("SELECT game_id, event_pos FROM outbox WHERE name = ?", (name,)).fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def set_outbox_cursor(self, name: str, game_id: int, event_pos: int) -> None:
        """Store a reader's cursor. Not fsynced, like the heartbeat: losing it costs re-sending, never data."""
        with self._lock:
            self._db.execute("PRAGMA synchronous=NORMAL")
            try:
                self._db.execute(
                    "INSERT INTO outbox (name, game_id, event_pos) VALUES (?, ?, ?) "
                    "ON CONFLICT(name) DO UPDATE SET game_id = excluded.game_id, event_pos = excluded.event_pos",
                    (name, int(game_id), int(event_pos)))
            except sqlite3.Error as exc:
                raise JournalError(f"{self.path}: cannot store the {name} cursor ({exc})") from None
            finally:
                self._db.execute("PRAGMA synchronous=FULL")

    def games_after(self, game_id: int, limit: int) -> list[GameRow]:
        """Games with an id above `game_id`, oldest first (events counted as 0: not needed here)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created_utc, table_name, kind, players, setup, ended_utc FROM games WHERE id > ? "
                "ORDER BY id LIMIT ?", (game_id, limit)).fetchall()
        return [self._game_row(r[0], r[1], r[2], r[3], r[4], r[5], r[6], 0) for r in rows]

    def rows_after(self, pos: int, limit: int) -> list[EventRow]:
        """Event rows after journal position `pos`, in the order they were written."""
        with self._lock:
            rows = self._db.execute(
                "SELECT rowid, game_id, seq, t_ms, wall_utc, kind, data FROM events WHERE rowid > ? "
                "ORDER BY rowid LIMIT ?", (pos, limit)).fetchall()
        return [EventRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6])) for r in rows]

    def tail(self) -> tuple[int, int] | None:
        """(game id, seq) of the newest game and its last event (seq 0 before its first); None when empty."""
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
            if row is None or row[0] is None:
                return None
            game = int(row[0])
            seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game,)).fetchone()
        return game, int(seq[0])

    def rows(self, game_id: int, first: int, last: int | None = None) -> list[EventRow]:
        """Event rows `first`..`last` (None: to the end) of one game."""
        with self._lock:
            rows = self._db.execute(
                "SELECT rowid, game_id, seq, t_ms, wall_utc, kind, data FROM events WHERE game_id = ? AND seq >= ? "
                "AND seq <= ? ORDER BY seq", (game_id, first, last if last is not None else 2**62)).fetchall()
        return [EventRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6])) for r in rows]


# The files SQLite keeps for one journal: the database, the write-ahead log, its index, a rollback journal.
JOURNAL_SUFFIXES = ("", "-wal", "-shm", "-journal")


def journal_file_named(dest: str | Path, journal: str | Path) -> str | None:
    """Which of the journal's own files `dest` names (by path, through a symbolic link, or as a hard link of
    it), or None. A backup written there would replace the live game under the running referee: its next moves
    would go to a file no longer there, and be lost at the next restart."""
    target = Path(dest).expanduser()
    try:
        resolved = target.resolve()
    except (OSError, RuntimeError):  # a symbolic link loop: not one of the journal's files either way
        return None
    base = Path(journal).resolve()
    for suffix in JOURNAL_SUFFIXES:
        own = base.with_name(base.name + suffix)
        if resolved == own:
            return own.name
        with contextlib.suppress(OSError):
            if target.exists() and own.exists() and os.path.samefile(target, own):
                return own.name
    return None


def file_is_sound(path: str | Path) -> bool:
    """Whether `path` is an SQLite file that passes `PRAGMA quick_check` (opened read-only, nothing written)."""
    p = Path(path)
    if not p.is_file():
        return False
    try:
        db = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        return db.execute("PRAGMA quick_check(1)").fetchall() == [("ok",)]
    except sqlite3.Error:
        return False
    finally:
        db.close()


def _lock_database(path: str) -> Any:
    """An exclusive `flock` on the database file itself (SQLite's own locks are POSIX locks, which `flock`
    does not touch on Linux), held for the journal's life by its one writer."""
    try:
        f = open(path, "a+b")  # noqa: SIM115 - held open for the journal's life, closed in close()
    except OSError as exc:
        raise JournalError(f"{path}: cannot open the journal ({exc.strerror or exc})") from None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise JournalError(f"{path}: another referee is writing this journal (stop it first: "
                           "`systemctl stop referee`)") from None
    return f
