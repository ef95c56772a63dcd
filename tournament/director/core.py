"""The director's state machine: applies what the broker carries to the hall and the store, sends commands.

Everything here runs on one asyncio loop (the MQTT thread hands each message over), so the hall needs no
locks. The network's receiver (tournament/receiver.py, inside the link) delivers each event once and in
order, asking tables to replay gaps; the store keeps each (table, game, seq) once as well, so a redelivery
after a restart of the director is still stored once. `resume_points` tells the receiver, at start, how far
the store goes for every game.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tournament import topics
from tournament.director import entered
from tournament.director.hall import TableTile, now_iso
from tournament.director.sheets import Replayer, Sheets
from tournament.director.store import Store
from tournament.pairings import Pairing
from tournament.payloads import HEADER_SEQ, AckMessage, CommandMessage, EventMessage, SnapshotMessage, StatusMessage
from tournament.results import GameRecord
from tournament.tsh_scores import BYE_SPREAD, Bye, tsh_score_text

log = logging.getLogger(__name__)

AHEAD_ALERT = 100  # a snapshot this many events past what arrived is said on the tile

# (table or None for every table, command, args, command id): publishes one command
Sender = Callable[[int | None, str, dict[str, Any], str], None]
TileListener = Callable[[TableTile], None]


def _percentiles(values: deque[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)
    return {"p50": round(ordered[len(ordered) // 2], 1), "p99": round(ordered[int(0.99 * (len(ordered) - 1))], 1),
            "count": len(ordered)}


def _pragmas(value: Any) -> dict[str, str]:
    """A sheet's GCG pragmas (the table's own, `SHEET_KEYS`), or none when it carries none (a snapshot, a sheet
    cached before it carried them)."""
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


@dataclass
class SentCommand:
    """A command the director sent, and what each table answered."""

    id: str
    cmd: str
    args: dict[str, Any]
    tables: list[int] | None  # None: every table (all/cmd)
    sent: float
    acks: dict[int, AckMessage] = field(default_factory=dict)
    acked: asyncio.Event = field(default_factory=asyncio.Event)  # set on each acknowledgement

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "cmd": self.cmd, "args": self.args, "tables": self.tables,
                "acks": {str(t): {"ok": a.ok, "error": a.error, "code": a.code} for t, a in sorted(self.acks.items())}}


class Director:
    """The hall, the store and the command sender of one event.

    With a `replayer` (what `referee director` runs) every result comes from the score sheet the director
    replays from the journaled events (tournament/director/sheets.py), and a snapshot is only the tile's view,
    shown once the events up to its seq are in: a snapshot whose seq runs ahead of them is a gap the receiver
    asks the table about, never taken as it is. Without one (the hall's own unit tests) results are read from
    the snapshots."""

    def __init__(self, event: str, store: Store, *, name: str = "", by: str = "director",
                 clock: Callable[[], float] = time.monotonic, replayer: Replayer | None = None) -> None:
        self.event = topics.check_event_id(event)
        self.name = name or event
        self.store = store
        self.by = by
        self.clock = clock
        self.tables: dict[int, TableTile] = {}
        self.sender: Sender | None = None
        self._listeners: list[TileListener] = []
        # whether the director's link to the broker is up, and since when (the director's UTC time): while it
        # is down the tiles are the last the director heard, and every page says so
        self.broker: dict[str, Any] = {"connected": False, "since": None}
        self._broker_listeners: list[Callable[[dict[str, Any]], None]] = []
        # the hall's own alerts for every page (code -> words): someone guessing the director key
        self.notices: dict[str, str] = {}
        self._notice_listeners: list[Callable[[dict[str, str]], None]] = []
        self._ids = itertools.count(1)
        self._prefix = secrets.token_hex(3)
        self.commands: dict[str, SentCommand] = {}
        # the link's delivery figures (events applied, duplicates, replays asked, payloads dropped), once connected
        self.link_stats: Callable[[], dict[str, int]] = dict
        # whether the broker is reached (tournament/director/broker_watch.py), once a link is started
        self.broker_state: Callable[[], dict[str, Any]] = lambda: {
            "connected": False, "url": "", "error": "no broker link", "since": None, "tries": 0,
            "text": "not connected to a broker"}
        self._delays: deque[float] = deque(maxlen=2000)
        self.tsh_entry = "scores"  # tsh's `config entry` of the event: the form of the score lines
        self.bye_spread = BYE_SPREAD  # tsh's `config bye_spread`
        self.sheets = None if replayer is None else Sheets(replayer, store.timed_events, store.save_sheet)
        self._applied: dict[tuple[int, int], int] = {}  # per game, the last seq of the unbroken run from 0
        self._waiting: dict[int, SnapshotMessage] = {}  # per table, a snapshot ahead of its events
        self._games: dict[int, set[int]] = {}  # per table, the games taken as its own (see `_taken`)
        self._ahead: dict[tuple[int, int], EventMessage] = {}  # headers past the table's next game
        self._asked: set[tuple[int, int]] = set()  # games whose header was asked of the table
        # the link's receiver forgets a table's games (a reset), once connected
        self.forget_streams: Callable[[int, list[int]], None] = lambda table, games: None
        self._restore()

    # --- start-up ------------------------------------------------------------------------------

    def _restore(self) -> None:
        """The hall as the store left it: every table's last game, its round and its last snapshot."""
        for stored in self.store.games():
            self._games.setdefault(stored.table, set()).add(stored.game)
            state = self.table(stored.table)
            if state.game is None or stored.game >= state.game:
                state.game = stored.game
                state.round, state.division = stored.round, stored.division
                if stored.snapshot is not None:
                    state.snapshot, state.seq = stored.snapshot, stored.seq
        self._applied = {key: following - 1 for key, following in self.resume_points().items()}
        for table, game, kind, data, time_s, at in self.store.untaken_headers():
            self._ahead[(table, game)] = EventMessage(table, game, HEADER_SEQ, kind, data, time_s, at)
        for state in self.tables.values():  # who paused a table's game, from its stored events
            if state.game is not None:
                for seq, kind, at, data in self.store.pause_events(state.table, state.game):
                    state.on_event(seq, kind, data, at)

    def resume_points(self) -> dict[tuple[int, int], int]:
        """Per game, the next seq the director lacks: the end of the unbroken run stored from seq 0."""
        points = {}
        for (table, game), _ in self.store.last_seqs().items():
            following = HEADER_SEQ
            for seq in self.store.event_seqs(table, game):
                if seq != following:
                    break
                following += 1
            points[(table, game)] = following
        return points

    def table(self, number: int) -> TableTile:
        state = self.tables.get(number)
        if state is None:
            state = self.tables[number] = TableTile(number)
        return state

    def stats(self) -> dict[str, Any]:
        """How the hall and the delivery are doing, for a health check or a benchmark (GET /api/stats)."""
        online = sum(1 for s in self.tables.values() if s.online)
        return {"broker": dict(self.broker), "notices": dict(self.notices), "tables": len(self.tables),
                "online": online, "offline": len(self.tables) - online,
                "with_alerts": sum(1 for s in self.tables.values() if s.alerts()),
                "stored_duplicates": self.store.duplicates, "delivery": self.link_stats(),
                "event_to_director_ms": _percentiles(self._delays)}

    def on_broker(self, up: bool) -> None:
        """The link to the broker came up or went down."""
        if self.broker["connected"] == up and self.broker["since"] is not None:
            return
        self.broker = {"connected": up, "since": now_iso()}
        if not up:
            log.warning("the director has lost the broker: the hall shows what it heard last")
        for listener in list(self._broker_listeners):
            listener(dict(self.broker))

    def set_notice(self, code: str, text: str | None) -> None:
        """Show (or with None, clear) one of the hall's own alerts on every page."""
        if self.notices.get(code) == text:
            return
        if text is None:
            self.notices.pop(code, None)
        else:
            self.notices[code] = text
        for listener in list(self._notice_listeners):
            listener(dict(self.notices))

    def subscribe_notices(self, listener: Callable[[dict[str, str]], None]) -> Callable[[], None]:
        self._notice_listeners.append(listener)
        return lambda: self._notice_listeners.remove(listener)

    def subscribe_broker(self, listener: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        self._broker_listeners.append(listener)
        return lambda: self._broker_listeners.remove(listener)

    def subscribe(self, listener: TileListener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _changed(self, state: TableTile) -> None:
        state.received = self.clock()
        for listener in list(self._listeners):
            listener(state)

    # --- from the broker (each message checked by the link before it gets here) ------------------------

    def on_status(self, table: int, message: StatusMessage | None) -> None:
        state = self.table(table)
        online = message is not None and message.state == "online"
        if message is not None and message.name:
            state.name = message.name
        if online:
            state.offline_since = None
        elif state.online or state.offline_since is None:
            state.offline_since = now_iso()
        state.online = online
        self._changed(state)

    def on_snapshot(self, message: SnapshotMessage) -> None:
        state = self.table(message.table)
        if message.game is not None and state.game is not None and message.game < state.game:
            return  # a late snapshot of a previous game
        if message.game == state.game and message.seq < state.seq:
            return
        applied = -1 if message.game is None else self._applied.get((message.table, message.game), -1)
        if self.sheets is not None and message.game is not None and message.seq > applied:
            self._waiting[message.table] = message  # shown once its events are in (see the class docstring)
            if message.seq > applied + AHEAD_ALERT and not state.ahead:
                # events travel just before their snapshot: this far ahead, they are lost or it is forged
                state.ahead = (f"a snapshot says game {message.game} is at event {message.seq}, the director has "
                               f"{max(applied, 0)}: asked of the table, not shown")
                self._changed(state)
            return
        self._waiting.pop(message.table, None)
        state.ahead = ""
        if message.game is not None and message.game != state.game:
            self._new_game(state, message.game, message.snapshot)
        state.snapshot = dict(message.snapshot)
        state.seq = message.seq
        if message.game is not None:
            self.store.save_snapshot(message.table, message.game, message.seq, state.snapshot)
        self._changed(state)

    def _new_game(self, state: TableTile, game: int, snapshot: Any) -> None:
        """A game not seen before at this table: it belongs to the round the table was last paired for. The
        refusals shown on the tile were the last game's: cleared."""
        state.game = game
        state.seq = -1
        state.messages = []
        current = self.store.meta("round")
        stored = {g.game: g for g in self.store.games(state.table)}.get(game)
        if stored is not None and stored.round is not None:
            state.round, state.division = stored.round, stored.division
            return
        if current is None:
            state.round, state.division = None, None
            return
        round_pairings = self.store.pairings(current)
        pairing = next((p for p in round_pairings if p["table"] == state.table), None)
        names = [str(p.get("name", "")) for p in (snapshot or {}).get("players") or [] if isinstance(p, dict)]
        ids: list[int | None] = [None, None]
        division = "A"
        if pairing is not None:
            # the round's game is the one with the paired players; an earlier game still on the table is not
            if sorted(names) != sorted(pairing["players"]):
                state.round, state.division = None, None
                return
            division = pairing["division"]
            ids = list(pairing["ids"])
            if names == list(reversed(pairing["players"])):
                ids = list(reversed(ids))
        elif round_pairings:
            state.round, state.division = None, None  # a table not paired this round
            return
        state.round, state.division = current, division
        self.store.assign_game(state.table, game, current, division, ids)

    def on_event(self, message: EventMessage, published_ms: int | None = None) -> None:
        """One event, in order: queued for the store (kept once); a game header names the table's new game.

        `published_ms` (the table's wall clock when it sent the event, an MQTT user property) gives the
        delivery time to the director's loop, kept for `stats` (the last 2000)."""
        if published_ms is not None:
            self._delays.append(time.time() * 1000 - published_ms)
        if not self._taken(message):
            self.store.add_event(message.table, message.game, message.seq, message.kind, dict(message.data),
                                 message.time, message.at, game_row=False)
            return
        self._apply_event(message)
        self._take_ahead(message.table)

    def _taken(self, message: EventMessage) -> bool:
        """Whether `message` belongs to a game taken as its table's. A table's journal numbers its games one
        after the other, so a game header is the table's next game, or an older game met late; a header further
        ahead (one forged message on the table's topic moved the tile to game 54 for the rest of the event) is
        kept aside and the games in between are asked of the table first: it is taken once the table's own
        journal has filled them in."""
        known = self._games.setdefault(message.table, set())
        if message.game in known:
            return True
        if message.seq != HEADER_SEQ:
            return False
        top = max(known, default=None)
        if top is None or message.game == top + 1 or message.game < top:
            known.add(message.game)
            return True
        self._ahead[(message.table, message.game)] = message
        self._ask_header(message.table, top + 1)
        return False

    def _ask_header(self, table: int, game: int) -> None:
        if (table, game) in self._asked or self.sender is None:
            return
        self._asked.add((table, game))
        try:
            self.send("replay", {"game": game, "from": HEADER_SEQ, "to": HEADER_SEQ}, [table])
        except RuntimeError:
            self._asked.discard((table, game))  # the broker is away: asked again with the next header

    def _take_ahead(self, table: int) -> None:
        """Headers kept aside whose turn has come (the games before them are in): taken, with the events of
        their games stored meanwhile."""
        known = self._games.get(table) or set()
        while known and (header := self._ahead.pop((table, max(known) + 1), None)) is not None:
            known.add(header.game)
            self._apply_event(header, stored=True)
            for seq, kind, data, time_s in self.store.timed_events(table, header.game)[1:]:
                self._apply_event(EventMessage(table, header.game, seq, kind, data, time_s, ""), stored=True)

    def _apply_event(self, message: EventMessage, *, stored: bool = False) -> None:
        if not stored:
            self.store.add_event(message.table, message.game, message.seq, message.kind, dict(message.data),
                                 message.time, message.at)
        else:
            self.store.add_game(message.table, message.game)
        key = (message.table, message.game)
        if message.seq == self._applied.get(key, -1) + 1:
            self._applied[key] = message.seq
        if self.sheets is not None:
            self.sheets.on_event(message.table, message.game, message.seq, message.kind, message.data, message.time)
        self._follow(message)
        waiting = self._waiting.get(message.table)
        if waiting is not None and waiting.game == message.game and waiting.seq <= self._applied.get(key, -1):
            self.on_snapshot(waiting)

    def _follow(self, message: EventMessage) -> None:
        """The tile follows its table's games and who paused them."""
        state = self.table(message.table)
        if message.seq == HEADER_SEQ and (state.game is None or message.game > state.game):
            data = dict(message.data)
            state.name = str(data.get("name") or state.name)
            self._new_game(state, message.game, {"players": [{"name": n} for n in data.get("players") or []]})
            state.on_event(message.seq, message.kind, message.data, message.at)
            self._changed(state)
        elif message.game == state.game:
            before = state.pause
            state.on_event(message.seq, message.kind, message.data, message.at)
            if state.pause != before:
                self._changed(state)

    def on_ack(self, message: AckMessage) -> None:
        sent = self.commands.get(message.id)
        if sent is None:
            return
        sent.acks[message.table] = message
        sent.acked.set()
        if not message.ok:
            state = self.table(message.table)
            state.messages = [*state.messages[-4:], f"{sent.cmd}: {message.error or message.code or 'refused'}"]
            self._changed(state)

    def reset_table(self, table: int) -> list[int]:
        """The director's remedy for a table whose tile shows a game the table is not playing (a forged
        header, a journal replaced): forget the table's view and every game of it that has not ended (their
        events, sheets and places in the rounds); the table's real games come back from its journal, asked by
        the receiver as soon as the table's next event, snapshot or status shows them. Returns the games
        forgotten."""
        state = self.table(table)
        ended = set()
        for stored in self.store.games(table):
            snap = self.sheets.sheet(table, stored.game) if self.sheets is not None else stored.snapshot
            if snap and snap.get("state") == "ended":
                ended.add(stored.game)
        games = sorted({g for (t, g) in self.store.last_seqs() if t == table} - ended)
        self.store.forget_games(table, games)
        for game in games:
            self._applied.pop((table, game), None)
            self._asked.discard((table, game))
            if self.sheets is not None:
                self.sheets.forget(table, game)
        self._ahead = {k: v for k, v in self._ahead.items() if k[0] != table}
        self._games[table] = set(ended)
        self._waiting.pop(table, None)
        self.forget_streams(table, games)
        state.game, state.seq, state.snapshot, state.pause = None, -1, {}, None
        state.round, state.division, state.messages = None, None, []
        log.warning("table %s reset by the director: games %s forgotten, asked of the table again", table, games)
        self._changed(state)
        return games

    # --- to the tables -------------------------------------------------------------------------

    def send(self, cmd: str, args: dict[str, Any], tables: list[int] | None = None) -> SentCommand:
        """Publish a command to some tables (None: every table at once, on `all/cmd`), one id for all of them.

        The arguments are checked by the contract's `CommandMessage` first: PayloadError says what is wrong."""
        if self.sender is None:
            raise RuntimeError("the director is not connected to the broker")
        command_id = f"{self._prefix}-{next(self._ids)}"
        CommandMessage(command_id, self.by, cmd, args)  # type: ignore[arg-type]
        sent = SentCommand(command_id, cmd, dict(args), tables, self.clock())
        self.commands[command_id] = sent
        while len(self.commands) > 1000:
            self.commands.pop(next(iter(self.commands)))
        for table in tables if tables is not None else [None]:
            self.sender(table, cmd, dict(args), command_id)
        return sent

    def send_pairings(self, pairings: list[Pairing], byes: list[Bye] | None = None) -> SentCommand | None:
        """Keep a round's pairings (and its byes, for the tsh lines) and send each table its players (first
        player first) for its next game."""
        if not pairings:
            return None
        round_ = pairings[0].round
        self.store.save_pairings([p.to_dict() for p in pairings])
        self.store.set_meta("round", round_)
        if byes is not None:
            self.store.set_meta(f"byes:{round_}", [b.to_dict() for b in byes])
        last = None
        for p in pairings:
            first = p.first if p.first is not None else 0
            last = self.send("set_players", {"players": list(p.players), "first": first}, [p.table])
        return last

    # --- results -------------------------------------------------------------------------------

    def byes(self, round_: int) -> list[Bye]:
        """The byes tsh gave in a round (kept with its pairings)."""
        return [Bye(str(b["division"]), int(b["id"]), str(b["name"])) for b in self.store.meta(f"byes:{round_}", [])]

    def tsh_text(self, round_: int, entry: str | None = None) -> tuple[str, list[str]]:
        """Round `round_` for tsh's addscore prompt in the event's entry mode (`tsh_entry`), byes included."""
        return tsh_score_text(self.records(round_=round_), round_, byes=self.byes(round_),
                              entry=entry or self.tsh_entry, bye_spread=self.bye_spread)

    def records(self, table: int | None = None, game: int | None = None,
                round_: int | None = None) -> list[GameRecord]:
        """Every game the director holds a score sheet of (or only game `game` of `table`, or one round's), with
        its round and division (0 and "" for a game played outside the pairings: its live GCG is there all the
        same). The sheet is the one replayed from the events when the director has a replayer (see the class);
        each game asked costs its own sheet only."""
        out = []
        rows: list[tuple[Any, Any, int]]
        if self.sheets is not None:
            rows = list(self.store.game_sheets(table, game, round_))
        else:
            rows = [(g, None, -1) for g in self.store.games(table, game) if round_ is None or g.round == round_]
        for stored, cached, tail in rows:
            if self.sheets is not None:
                snap = self.sheets.sheet(stored.table, stored.game, cached, tail)
            else:
                snap = stored.snapshot
            if not snap:
                continue
            players = [str(p.get("name", "")) for p in snap.get("players") or []]
            if len(players) != 2:
                continue
            result = snap.get("result") or {}
            out.append(GameRecord(
                stored.table, stored.round or 0, stored.division or "", players,
                [int(p.get("score", 0)) for p in snap.get("players") or []],
                [dict(m) for m in snap.get("moves") or []], list(stored.ids),
                edition=str(snap.get("edition", "english")), kind=str(snap.get("game", "standard")),
                ended=snap.get("state") == "ended" and bool(result),
                winners=list(result.get("winners") or []) if isinstance(result, dict) else [],
                event=self.name, game=f"{stored.table}-{stored.game}", number=stored.game,
                pragmas=_pragmas(snap.get("pragmas"))))
        out += [entry.record(self.name) for entry in entered.load(self.store)]  # the director's, kept apart
        return out
