"""The live table: the state machine plus the journal, a clock, a lock and the views' listeners.

`LiveTable` implements `TableView` and `TableControl` (referee/table/api.py). Everything that
changes the game goes through `_submit`, which

1. stamps the event with the table time (`TableClock`: runs only while the service runs),
2. for a control action, applies it to a copy of the machine first, so a refused action changes
   nothing and is not journaled,
3. writes it to the journal (durably) *before* it takes effect,
4. applies it, and publishes a new snapshot to every listener.

`LiveTable.resume` rebuilds an unfinished game from the journal after a crash or restart.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any, TypeVar, cast

from referee.journal import Journal, JournalBusy, JournalError
from referee.player_names import lookalike_letters, name_key
from referee.table.api import ControlError, Listener, Snapshot
from referee.table.machine import TableMachine
from referee.table.picture import Picture, picture_to_json
from referee.table.reading import TableReading
from referee.table.records import journaled_setup, replay_events
from referee.table.rules import TableRules
from referee.table.setup import TableSetup
from referee.table.state import Alert, Event, TableState

log = logging.getLogger(__name__)
_T = TypeVar("_T")

Monotonic = Callable[[], float]
HEARTBEAT_MS = 2000
# A reader (the page, the service loop) waits at most this long for the table while a change is being written;
# then it gets the last published snapshot, its running clocks moved on, so a stalled SD card stalls no page.
READ_WAIT_S = 0.05
# A journal write waiting this long for the disk shows the "cannot save" alert.
STALL_ALERT_S = 2.0
# A person's action (the page, a button, the director) waits at most this long for a change still being written
# (a table lock or the journal held by a write the SD card has not answered), then is refused at once with
# `storage_waiting`, nothing applied: a pause pressed during a 40 s freeze once answered, and took effect, 40 s
# later. Normal writes take milliseconds; an SD card's slowest fsync a few hundred.
CONTROL_WAIT_S = 1.0


class TableClock:
    """Table time in ms: `offset_ms` plus the monotonic time since this process took over.

    After a restart `offset_ms` is where the journal says table time got, so the downtime counts
    as a pause for every clock and a wall-clock jump moves nothing."""

    def __init__(self, monotonic: Monotonic = time.monotonic, offset_ms: int = 0) -> None:
        self._mono = monotonic
        self._start = monotonic()
        self.offset_ms = offset_ms

    def now_ms(self) -> int:
        return self.offset_ms + int((self._mono() - self._start) * 1000)


class LiveTable:
    """A table players use: thread-safe, journaled, observable. See the module docstring."""

    def __init__(self, machine: TableMachine, *, journal: Journal | None = None, game_id: int | None = None,
                 clock: TableClock | None = None) -> None:
        self.machine = machine
        self.journal = journal
        self.game_id = game_id
        self.clock = clock or TableClock()
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._seq = 0
        self._last_heartbeat = -HEARTBEAT_MS
        self._last_board: dict[str, list[Any]] | None = None
        self._links: dict[str, bool] = {}
        self.refused = 0  # control actions refused (counted for the service's log)
        self.journal_error = ""  # set while the journal cannot be written: shown as an alert
        self._service_alerts: dict[str, Alert] = {}  # the service's own alerts (set_alert), by code
        self._seq_lock = threading.Lock()  # seq numbers also go to snapshots published without the table lock
        self._last_snap: Snapshot | None = None
        self._last_snap_ms = 0
        self.control_wait_s = CONTROL_WAIT_S  # how long a person's action waits for a write in progress

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def new_game(cls, setup: TableSetup, rules: TableRules, *, journal: Journal | None = None,
                 monotonic: Monotonic = time.monotonic) -> LiveTable:
        game_id = None
        if journal is not None:
            game_id = journal.new_game(setup.table, setup.kind, list(setup.players), setup.to_dict())
        return cls(TableMachine(setup, rules), journal=journal, game_id=game_id, clock=TableClock(monotonic))

    @classmethod
    def resume(cls, journal: Journal, rules_for_setup: Callable[[TableSetup], TableRules], *,
               monotonic: Monotonic = time.monotonic, game_id: int | None = None) -> LiveTable | None:
        """Rebuild the unfinished game of the journal (or game `game_id`, e.g. the last one, finished, to show
        it again), or None when there is none."""
        row = journal.unfinished_game() if game_id is None else journal.game(game_id)
        if row is None:
            return None
        setup = journaled_setup(journal, row)  # checked as the configuration is: JournalError when damaged
        machine, replayed = replay_events(journal, row, TableMachine(setup, rules_for_setup(setup)),
                                          warn=log.warning)
        resume_at = journal.resume_time(row.id)
        machine.time.ms = max(machine.time.ms, resume_at)
        log.info("game %s resumed from the journal: %d events, table time %.1f s", row.id, replayed, resume_at / 1000)
        table = cls(machine, journal=journal, game_id=row.id, clock=TableClock(monotonic, offset_ms=resume_at))
        table._last_board = picture_to_json(machine.observed)
        table._links = dict(machine.links)
        if machine.state == "ended" and row.ended_utc is None:
            journal.end_game(row.id)  # a journal from before the end was written with its last event
        bad = journal.unreadable.get(row.id)
        if bad:
            table.set_alert("journal_damaged", publish=False, count=len(bad), numbers=", ".join(map(str, bad[:5])))
        return table

    def set_alert(self, code: str, *, level: str = "error", publish: bool = True, **fields: Any) -> None:
        """Show one of the service's own alerts on every view, first in the list: its code and the fields its words
        name (referee/words/table.py), said in the table's language."""
        alert = Alert(level, code, [], fields)
        with self._lock:
            if self._service_alerts.get(code) == alert:
                return
            self._service_alerts[code] = alert
            if publish:
                self._publish()

    def clear_alert(self, code: str, *, publish: bool = True) -> None:
        """Take the service's alert `code` away (nothing happens when it is not shown)."""
        with self._lock:
            if self._service_alerts.pop(code, None) is None:
                return
            if publish:
                self._publish()

    # --- TableView ------------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The table now; while a change waits for the disk, the last published one with its clocks run on."""
        if not self._lock.acquire(timeout=READ_WAIT_S):
            with self._seq_lock:
                return self._stale_snapshot(self._seq)
        try:
            self._advance_time()
            return self._snapshot()
        finally:
            self._lock.release()

    def _stale_snapshot(self, seq: int) -> Snapshot:
        """The last published snapshot, `seq` numbered, running clocks moved on by the time since, and the alert
        if the journal is waiting for the disk (the table's lock is held by the write)."""
        last = self._last_snap
        if last is None:
            raise ControlError("journal_failed", error="the SD card has not answered yet; try again")
        snap = cast(dict[str, Any], copy.deepcopy(last))
        snap["seq"] = seq
        elapsed = max(0, self.clock.now_ms() - self._last_snap_ms)
        for player in snap.get("players") or []:
            clock = player.get("clock") if isinstance(player, dict) else None
            if isinstance(clock, dict) and clock.get("running"):
                clock["remaining_ms"] = int(clock.get("remaining_ms", 0)) - elapsed
        self._stall_alert(snap)
        return cast(Snapshot, snap)

    def _stall_alert(self, snap: dict[str, Any]) -> None:
        waiting = self.saving_stalled_s()
        if waiting >= STALL_ALERT_S and not any(a.get("code") == "journal_waiting" for a in snap["alerts"]):
            alert = Alert("error", "journal_waiting", [], {"seconds": f"{waiting:.0f}"})
            snap["alerts"].insert(0, alert.view(self.machine.lang))

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        # Its own lock: a page that opens while a change waits for the disk must not wait with it.
        with self._seq_lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._seq_lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return unsubscribe

    def observed_squares(self) -> set[str]:
        """The squares of the last board picture the table took (and journaled)."""
        with self._lock:
            return set(self.machine.observed)

    @contextlib.contextmanager
    def reading(self) -> Iterator[TableReading]:
        """The one way to read the game from outside the table: `with table.reading() as r: r.on_turn`.
        Holds the table's lock for the block (keep it short: the table waits); the reading is read-only."""
        with self._lock:
            reading = TableReading(self.machine)
            try:
                yield reading
            finally:
                reading.close()

    @contextlib.contextmanager
    def reading_unless_busy(self) -> Iterator[TableReading | None]:
        """Like `reading()`, for the clocks' outputs: None instead of a reading when a change has held the table
        for READ_WAIT_S (a journal write waiting for a stalled SD card), so the LED and terminal clocks never
        wait for the disk; they then run on from the timer state they last read."""
        if not self._lock.acquire(timeout=READ_WAIT_S):
            yield None
            return
        try:
            reading = TableReading(self.machine)
            try:
                yield reading
            finally:
                reading.close()
        finally:
            self._lock.release()

    def saving_stalled_s(self) -> float:
        """Seconds the journal write in progress has waited for the disk (0: none waits). Past STALL_ALERT_S
        the views say the game cannot be saved. Never takes the table's lock."""
        return self.journal.waiting_s() if self.journal is not None else 0.0

    # --- TableControl ---------------------------------------------------------------------------

    def control(self, action: str, params: Mapping[str, Any]) -> Snapshot:
        """The actions of `TableControl`, plus `new_game` {}: once a game has ended, the next one at this
        table (same players and settings, a new journal entry); the director then starts it."""
        if not isinstance(action, str) or not isinstance(params, Mapping):
            raise ControlError("action_shape")
        if action == "new_game":
            return self._new_game(params)
        return self._submit("control", {"action": action, "params": dict(params)}, trial=True,
                            wait_s=self.control_wait_s)

    def _new_game(self, params: Mapping[str, Any]) -> Snapshot:
        if params:
            raise ControlError("new_game_params", names=", ".join(params))
        self._acquire_for_a_person(self.control_wait_s)  # a write that waits for the card: said at once
        with contextlib.ExitStack() as held:
            held.callback(self._lock.release)
            old = self.machine
            if old.state is not TableState.ENDED:
                raise ControlError("new_game_not_ended", state=old.state)
            machine = TableMachine(old.setup, old.rules)
            machine.time.ms = old.time.ms
            if self.journal is not None:
                self.game_id = self._journal_call(lambda j: j.new_game(
                    old.setup.table, old.setup.kind, list(old.setup.players), old.setup.to_dict(),
                    wait_s=self.control_wait_s))
            self.machine = machine
            self._last_board = None
            self._links = {}
        # the new game's first events: what the sensors see now
        self.board_seen(old.observed)
        for source, up in old.links.items():
            self.link(source, up)
        return self.snapshot()

    def _journal_call(self, write: Callable[[Journal], _T]) -> _T:
        """A journal write outside an event (a new game's row): a card that fails refuses the action, says so
        on the page (`journal_failed`), and leaves the table as it was. Called with the lock held."""
        assert self.journal is not None
        try:
            result = write(self.journal)
        except JournalBusy:  # another write is stuck on the card: nothing was written, nothing is wrong yet
            raise self._storage_waiting() from None
        except JournalError as exc:
            log.error("%s; the new game was not opened", exc)
            self.journal_error = str(exc)
            self._publish()
            raise ControlError("journal_failed", error=exc) from None
        self.journal_error = ""
        return result

    def director(self, cmd: str, args: Mapping[str, Any], *, by: str, command_id: str) -> Snapshot:
        """A tournament director's command (pause, resume, start, message, adjust_time, correct_score, hold,
        undo): journaled as a "director" event with who sent it, applied like a control action (refused:
        ControlError)."""
        return self._submit("director", {"cmd": cmd, "args": dict(args), "by": by, "id": command_id}, trial=True,
                            wait_s=self.control_wait_s)

    def next_game(self, players: list[str], first: int, *, by: str, command_id: str) -> Snapshot:
        """The director seats `players` for the next game, `first` to play first (the engine counts players in
        playing order, so the list is rotated to start with them). Only before the game starts (the waiting
        game is closed in the journal, unplayed) or after it has ended."""
        with self._lock:
            old = self.machine
            if old.state not in (TableState.WAITING, TableState.ENDED):
                raise ControlError("next_game_not_now", state=old.state)
            if len(players) != old.n:
                raise ControlError("next_game_players", n=old.n, given=len(players))
            if not 0 <= first < len(players):
                raise ControlError("next_game_first", first=first)
            for i, name in enumerate(players):
                same = next((j for j in range(i) if name_key(players[j]) == name_key(name)), None)
                if same is not None:
                    letters = lookalike_letters(players[same], name)
                    fields: dict[str, object] = {"first": same + 1, "second": i + 1, "name": players[same].strip()}
                    if letters:
                        raise ControlError("next_game_lookalike_name", letters=letters, **fields)
                    raise ControlError("next_game_same_name", **fields)
            setup = replace(old.setup, players=tuple(players[first:] + players[:first]))
            machine = TableMachine(setup, old.rules)
            machine.time.ms = old.time.ms
            if self.journal is not None:
                if self.game_id is not None:
                    game_id = self.game_id
                    self._journal_call(lambda j: j.end_game(game_id))
                self.game_id = self._journal_call(lambda j: j.new_game(
                    setup.table, setup.kind, list(setup.players), setup.to_dict()))
            self.machine = machine
            self._last_board = None
            self._links = {}
            self.board_seen(old.observed)
            for source, up in old.links.items():
                self.link(source, up)
            return self.director("set_players", {"players": list(players), "first": first}, by=by,
                                 command_id=command_id)

    def gcg(self) -> str:
        """The game as a GCG record (offered as a download by the page)."""
        from referee.table.records import game_gcg

        with self._lock:
            return game_gcg(self.machine)

    # --- inputs from the table's devices --------------------------------------------------------

    def board_seen(self, picture: Picture) -> None:
        """A new fused picture of the board. Journaled only when it differs from the last one."""
        data = picture_to_json(picture)
        with self._lock:
            if data == self._last_board:
                return
            with contextlib.suppress(ControlError):  # the journal failed: alert shown, retried next change
                self._submit("board", {"cells": data}, trial=False)
                self._last_board = data

    def link(self, source: str, up: bool) -> None:
        """A sensor source ("board", "camera") was lost or came back."""
        with self._lock:
            if self._links.get(source) == up:
                return
            with contextlib.suppress(ControlError):  # the journal failed: alert shown, retried next time
                self._submit("link", {"source": source, "up": up}, trial=False)
                self._links[source] = up

    def press_clock(self, player: int) -> None:
        """A player's clock button (lost, with the alert up, if the journal cannot be written)."""
        with contextlib.suppress(ControlError):
            self._submit("clock", {"player": int(player)}, trial=False)

    def roll(self, letters: str, dice: list[int] | None = None) -> Snapshot:
        """Scramble: the faces of the dice just rolled, read from the tray or the camera; `dice`, the die
        (0-based) under each face when the tray reads it, so the game's cup is the table's."""
        return self._submit("roll", {"letters": letters, **({"dice": list(dice)} if dice is not None else {})},
                            trial=True)

    def poll(self) -> None:
        """Called by the service loop a few times a second: timers that fell due, heartbeat, clocks shown.
        While a change waits for the disk it does nothing (the next call catches up); the heartbeat is handed
        to the journal's own thread, so no call here waits for the disk but a timer's event."""
        if not self._lock.acquire(timeout=READ_WAIT_S):
            return
        with contextlib.ExitStack() as held:
            held.callback(self._lock.release)
            now = self._advance_time()
            due = self.machine.next_due_ms()
            if due is not None and now >= due:
                with contextlib.suppress(ControlError):  # the journal failed: alert shown, retried next poll
                    self._submit("tick", {}, trial=False)
            if self.journal is not None and self.game_id is not None and now - self._last_heartbeat >= HEARTBEAT_MS:
                self.journal.heartbeat(self.game_id, now, wait=False)
                self._last_heartbeat = now

    def checkpoint(self) -> None:
        """Record table time now (a heartbeat), e.g. at a clean shutdown, so a restart resumes the clocks
        exactly where they stood."""
        with self._lock:
            now = self._advance_time()
            if self.journal is not None and self.game_id is not None:
                self.journal.heartbeat(self.game_id, now)
                self._last_heartbeat = now

    def publish(self) -> None:
        """Push a fresh snapshot (the service does it every second while a clock runs); while a change waits
        for the disk, the last one with its clocks run on and the "cannot save" alert."""
        if not self._lock.acquire(timeout=READ_WAIT_S):
            if self._last_snap is None:
                return
            with self._seq_lock:
                self._seq += 1
                snap = self._stale_snapshot(self._seq)
            self._tell(snap)
            return
        try:
            self._advance_time()
            self._publish()
        finally:
            self._lock.release()

    def next_due_ms(self) -> int | None:
        with self._lock:
            return self.machine.next_due_ms()

    # --- the one way in -------------------------------------------------------------------------

    def _advance_time(self) -> int:
        now = max(self.clock.now_ms(), self.machine.time.ms)
        self.machine.time.ms = now
        return now

    def _acquire_for_a_person(self, wait_s: float) -> None:
        """The table's lock for a person's action: refused with `storage_waiting` once a change has held it for
        `wait_s` while the journal waits for the card; held by work, not the card (a busy machine), it is waited
        for as before."""
        if self._lock.acquire(timeout=wait_s):
            return
        if self.saving_stalled_s() > 0:
            raise self._storage_waiting()
        self._lock.acquire()

    def _storage_waiting(self) -> ControlError:
        """The refusal of an action that found the table or the journal held by a write the disk has not
        answered: said at once, nothing applied, nothing journaled (the person tries again once it answers)."""
        self.refused += 1
        return ControlError("storage_waiting", seconds=f"{self.saving_stalled_s():.0f}")

    def _submit(self, kind: str, data: dict[str, Any], *, trial: bool, wait_s: float | None = None) -> Snapshot:
        """Apply and journal one event. `wait_s` (a person's action): wait at most this long for a change still
        being written, then refuse with `storage_waiting`; None (the table's own inputs) waits for the disk."""
        if wait_s is None:
            self._lock.acquire()
        else:
            self._acquire_for_a_person(wait_s)
        with contextlib.ExitStack() as held:
            held.callback(self._lock.release)
            now = self._advance_time()
            ev = Event(kind, now, data)
            if trial:
                rules = self.machine.rules
                # Rules, lexicon, layout and tiles are immutable and shared; copying the lexicon would cost ms.
                shared: list[object] = [rules, rules.ruleset, rules.lexicon, rules.layout, rules.ruleset.tiles]
                memo: dict[int, Any] = {id(o): o for o in shared}
                candidate = copy.deepcopy(self.machine, memo)
                try:
                    candidate.apply(ev)
                except ControlError:
                    self.refused += 1
                    raise
                if kind == "control" and data.get("action") == "challenge" and candidate.last_verdict is not None:
                    # The verdict goes into the journal, so a replay (an export on a machine without the
                    # table's word list) reaches the same outcome.
                    ev = Event(kind, now, {**data, "verdict": candidate.last_verdict})
            ends = False
            if trial:
                ends = candidate.state == "ended"
            elif kind not in ("board", "link") and self.machine.state != "ended":
                ends = self._would_end(ev)
            if self.journal is not None and self.game_id is not None:
                try:
                    self.journal.append(self.game_id, ev, ends_game=ends, wait_s=wait_s)
                except JournalBusy:  # the heartbeat or another write is stuck on the card: this one waits not
                    raise self._storage_waiting() from None
                except JournalError as exc:
                    # Not journaled, so not applied: the game must never get ahead of its journal.
                    log.error("%s; %s event not taken", exc, kind)
                    self.journal_error = str(exc)
                    self._publish()
                    raise ControlError("journal_failed", error=exc) from None
                self.journal_error = ""
            if trial:
                self.machine = candidate
            else:
                self.machine.apply(ev)
            if self.machine.state is TableState.ENDED and not ends and self.journal is not None \
                    and self.game_id is not None:
                self.journal.end_game(self.game_id)  # only if the trial above did not foresee it
            return self._publish()

    def _would_end(self, ev: Event) -> bool:
        """Whether `ev` ends the game (tried on a copy), so its row and the end mark are written together."""
        rules = self.machine.rules
        shared: list[object] = [rules, rules.ruleset, rules.lexicon, rules.layout, rules.ruleset.tiles]
        probe = copy.deepcopy(self.machine, {id(o): o for o in shared})
        try:
            probe.apply(ev)
        except ControlError:
            return False
        return probe.state == "ended"

    def _snapshot(self) -> Snapshot:
        snap = self.machine.snapshot()
        snap["seq"] = self._seq
        self._stall_alert(snap)
        lang = self.machine.lang
        for alert in reversed(list(self._service_alerts.values())):
            snap["alerts"].insert(0, alert.view(lang))
        if self.journal is not None and self.journal.checkpoint_behind:
            snap["alerts"].append(Alert("warning", "journal_held").view(lang))
        if self.journal_error:
            snap["alerts"].insert(0, Alert("error", "journal_failed").view(lang))
        return cast(Snapshot, snap)

    def _publish(self) -> Snapshot:
        with self._seq_lock:
            self._seq += 1
            snap = self._snapshot()
            self._last_snap, self._last_snap_ms = snap, self.machine.time.ms
        return self._tell(snap)

    def _tell(self, snap: Snapshot) -> Snapshot:
        for listener in list(self._listeners):
            try:
                listener(snap)
            except Exception:  # a view's bug must not stop the table
                log.exception("a snapshot listener failed")
        return snap
