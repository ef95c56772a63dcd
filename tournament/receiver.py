"""The receiving end of the tables' event streams: each event applied once, in order, gaps filled by replay.

Delivery over the broker is at least once and, across reconnects and replays, not always in order. The
receiver keeps, per (table, game), the next sequence number it expects. An event below it is a duplicate
and is dropped; the expected one is applied, then whatever waited behind it; one above it is held back and
the missing range is asked of the table (`request_replay`) at once, and again (from `check_gaps`) while
nothing of it arrives, backing off. A
game's header is seq 0, so a receiver that meets a game mid-way asks for it from the start.

A gap at the end of a stream (the last events lost, nothing after them) shows in the table's snapshot and
in its "online" status after a reconnect, which name the last seq (`note_snapshot`); and when a table's
next game appears, each of its older games is asked once for anything after what arrived.

Pure and single-threaded: the caller serialises `feed`, `note_snapshot` and `check_gaps` (DirectorLink
calls them all on the director's loop). A director restarted from its own store calls `restore` for each game it kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tournament.payloads import EventMessage

ApplyFn = Callable[[EventMessage], None]
# (table, game, first seq, last seq or None for "to the end")
ReplayFn = Callable[[int, int, int, int | None], None]


@dataclass
class _Stream:
    next_seq: int = 0
    held: dict[int, EventMessage] = field(default_factory=dict)
    asked_at: float | None = None  # when the current gap was last asked for
    gap_since: float | None = None  # when a gap known only from a snapshot was first seen
    grace: float = 0.0  # how long such a gap may stay open before it is asked for
    known_last: int = -1  # the highest seq the table is known to have (from events or snapshots)
    progress_at: float = 0.0  # when next_seq last moved
    tries: int = 0  # requests since the last progress (the wait before the next one doubles)
    probed: bool = False  # asked once, when a newer game of the table appeared, for anything after next_seq


@dataclass
class ReceiverStats:
    applied: int = 0
    duplicates: int = 0
    held: int = 0
    replay_requests: int = 0
    dropped_over_limit: int = 0


MAX_RETRY_S = 30.0
MAX_REPLAY = 500  # seqs asked of a table at once: a long gap is filled in chunks, each asked when the last is in
RETAINED_GRACE_S = 10.0


class Receiver:
    """See the module docstring. A gap still open is asked for again only when nothing of it arrived for
    `retry_s`, then twice that, up to 30 s: after a broker restart every table re-sends at once, and asking
    for replays while the streams are merely slow would only add load and slow them further."""

    def __init__(self, apply: ApplyFn, request_replay: ReplayFn, *, retry_s: float = 2.0, grace_s: float = 1.0,
                 max_held: int = 10_000, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.apply = apply
        self.request_replay = request_replay
        self.retry_s = retry_s
        self.grace_s = grace_s
        self.max_held = max_held
        self.monotonic = monotonic
        self.stats = ReceiverStats()
        self._streams: dict[tuple[int, int], _Stream] = {}
        self._retained_grace = RETAINED_GRACE_S

    def session_started(self, *, kept: bool) -> None:
        """The link (re)connected. With a session the broker kept, events queued for us follow the retained
        snapshots, so a gap those show waits `RETAINED_GRACE_S` for them; with a new session nothing was kept
        for us (a first start, or a broker that crashed before saving it): the gap is real, ask after `grace_s`."""
        self._retained_grace = RETAINED_GRACE_S if kept else self.grace_s

    def restore(self, table: int, game: int, next_seq: int) -> None:
        """Resume a game at `next_seq` (what the caller already applied, e.g. from its database)."""
        self._streams[(table, game)] = _Stream(next_seq=next_seq, known_last=next_seq - 1)

    def forget(self, table: int, games: list[int]) -> None:
        """Drop what is known of some games (the director reset the table's view): their next events, or a
        snapshot naming them, start them afresh from their header."""
        for game in games:
            self._streams.pop((table, game), None)

    def position(self, table: int, game: int) -> int:
        """The next seq expected of a game (0 when nothing of it arrived)."""
        stream = self._streams.get((table, game))
        return stream.next_seq if stream else 0

    def games(self) -> list[tuple[int, int]]:
        return sorted(self._streams)

    def feed(self, msg: EventMessage) -> int:
        """Take one received event; returns how many events it let through to `apply` (0 or more)."""
        stream = self._streams.get((msg.table, msg.game))
        if stream is None:
            stream = self._streams[(msg.table, msg.game)] = _Stream()
            self._probe_older(msg.table, msg.game)
        stream.known_last = max(stream.known_last, msg.seq)
        if msg.seq < stream.next_seq or msg.seq in stream.held:
            self.stats.duplicates += 1
            return 0
        if msg.seq > stream.next_seq:
            if len(stream.held) >= self.max_held:
                self.stats.dropped_over_limit += 1  # asked for again once the gap before it is filled
            else:
                stream.held[msg.seq] = msg
                self.stats.held += 1
            if stream.asked_at is None:  # a new gap: ask now (a gap already asked for is retried by check_gaps)
                self._ask(msg.table, msg.game, stream)
            return 0
        applied = 0
        nxt: EventMessage | None = msg
        while nxt is not None:
            self.apply(nxt)
            applied += 1
            stream.next_seq = nxt.seq + 1
            nxt = stream.held.pop(stream.next_seq, None)
        self.stats.applied += applied
        stream.progress_at = self.monotonic()
        stream.tries = 0
        if not stream.held and stream.known_last < stream.next_seq:
            stream.asked_at = stream.gap_since = None
        return applied

    def note_snapshot(self, table: int, game: int | None, seq: int, *, retained: bool = False) -> None:
        """A snapshot says the table's game reached `seq`. The events may simply be on their way (snapshots
        and events travel on different topics), so a gap seen only here is asked for by `check_gaps` once it
        has stayed open for `grace_s`; for a retained snapshot delivered on re-joining a kept session (the
        queued events follow it) for 10 s (see `session_started`)."""
        if game is None:
            return
        stream = self._streams.setdefault((table, game), _Stream())
        if seq > stream.known_last:
            stream.known_last = seq
        if stream.known_last >= stream.next_seq:
            grace = self._retained_grace if retained else self.grace_s
            if stream.gap_since is None:
                stream.gap_since, stream.grace = self.monotonic(), grace
            else:  # a live position shortens the wait a retained one set
                stream.grace = min(stream.grace, grace)

    def check_gaps(self) -> None:
        """Ask (again) for every gap open longer than its grace, at most every `retry_s` (call it twice a
        second or so)."""
        now = self.monotonic()
        for (table, game), stream in self._streams.items():
            if not stream.held and stream.known_last < stream.next_seq:
                continue
            if stream.asked_at is None:
                if stream.held or (stream.gap_since is not None and now - stream.gap_since >= stream.grace):
                    self._ask(table, game, stream)
                continue
            wait = min(MAX_RETRY_S, self.retry_s * 2 ** max(0, stream.tries - 1))
            if now - max(stream.asked_at, stream.progress_at) >= wait:
                self._ask(table, game, stream)

    def _probe_older(self, table: int, game: int) -> None:
        """A table's new game: whatever ended its previous games after what arrived (a tail the broker lost)
        left no gap to notice, so ask each of them once for anything after what we have."""
        for (t, g), older in self._streams.items():
            if t == table and g < game and not older.probed:
                older.probed = True
                self.stats.replay_requests += 1
                self.request_replay(t, g, older.next_seq, None)

    def missing(self) -> int:
        """How many seqs known to exist have not been applied yet, over all games."""
        return sum(max(0, s.known_last + 1 - s.next_seq - len(s.held)) for s in self._streams.values())

    def _ask(self, table: int, game: int, stream: _Stream) -> None:
        now = self.monotonic()
        first = stream.next_seq
        last = min(stream.held) - 1 if stream.held else stream.known_last
        if last < first:
            return
        last = min(last, first + MAX_REPLAY - 1)
        stream.asked_at = now
        stream.tries += 1
        self.stats.replay_requests += 1
        self.request_replay(table, game, first, last)
