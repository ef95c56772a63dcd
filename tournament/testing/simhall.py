"""Simulated tables that speak the tournament contract, and a private Mosquitto: for tests and benchmarks.

A `SimTable` is what a table's publisher puts on the broker, without the table: a game header at seq 0,
every change as an event (QoS 1, in order, the MQTT 5 user property `published` in ms), a retained
snapshot in the scoreboard's schema, a retained online status with an offline last will. It applies the
director's commands (pause, resume, start, set_players, message, adjust_time, correct_score, undo, hold,
replay) and acknowledges each. Its journal is its outbox: while it is cut off (`kill`) it plays on and keeps
its events, and on `revive` it publishes from its cursor, in order, so nothing is lost.

Each table connects with its own broker user (`table-{n}`, tournament/acl.py), so a broker with the event's
ACL lets it write only its own topics, as in a hall.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from referee.words import plain_fields, say
from tournament import mqtt, topics
from tournament.payloads import AckMessage, CommandMessage, EventMessage, PayloadError, SnapshotMessage, StatusMessage
from tournament.settings import BrokerSettings

EMPTY_BOARD = ["." * 15 for _ in range(15)]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _squares_text(squares: list[str]) -> str:
    """`G8, H8` in board order (row, then column), as a real table names squares in its words."""
    return ", ".join(sorted(squares, key=lambda sq: (int(sq[1:]), sq[0].upper())))


class SimTable:
    """One simulated table on the broker (see the module docstring). Thread-safe: a lock guards the state."""

    def __init__(self, event: str, table: int, broker: BrokerSettings, *, players: tuple[str, str] = ("Ann", "Ben"),
                 minutes: int = 25, on_command: Callable[[SimTable, CommandMessage], None] | None = None) -> None:
        self.event = event
        self.number = table
        self.broker = broker
        self.name = f"Table {table}"
        self.language = "en"
        self.lock = threading.RLock()
        self.minutes = minutes
        self.game = 0
        self.journal: dict[int, list[EventMessage]] = {}
        self.sent: dict[int, int] = {}  # game -> events published (the outbox cursor)
        self.applied: list[CommandMessage] = []
        self.acks: dict[str, AckMessage] = {}  # command id -> its ack (a command is applied once)
        self.on_command = on_command
        self.drop_next = 0  # events to leave out of the stream (to test the director's gap replay)
        self.client: paho.Client | None = None
        self.connected = threading.Event()
        self._new_game(list(players), 0)

    # --- the game -------------------------------------------------------------------------------

    def _new_game(self, players: list[str], first: int) -> None:
        self.game += 1
        self.journal[self.game] = []
        self.sent[self.game] = 0
        order = players[first:] + players[:first]
        self.state = "waiting"
        self.players: list[dict[str, Any]] = [
            {"name": name, "score": 0, "on_turn": False, "clock": {"remaining_ms": self.minutes * 60000,
                                                                    "running": False},
             "rack_count": None, "lost_on_time": False} for i, name in enumerate(order)]
        self.moves: list[dict[str, Any]] = []
        self.alerts: list[dict[str, Any]] = []
        self.board = list(EMPTY_BOARD)
        self.last_play: list[str] = []
        self.held = False
        self._paused_from = "turn"  # what a resume goes back to
        self.result: dict[str, Any] | None = None
        self._journal("game", {"name": self.name, "kind": "standard", "players": order,
                               "setup": {"game": "standard", "edition": "english", "players": order}})

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {"version": 1, "table": self.name, "game": "standard", "edition": "english",
                    "language": self.language,
                    "state": self.state, "board": list(self.board), "premiums": [], "last_play": list(self.last_play),
                    "players": [dict(p, clock=dict(p["clock"])) for p in self.players], "turn_timer": None,
                    "moves": [dict(m) for m in self.moves], "unseen": "", "bag": 86, "alerts": list(self.alerts),
                    "pending": {}, "result": self.result,
                    "seq": len(self.journal[self.game]) - 1}

    def _journal(self, kind: str, data: dict[str, Any]) -> EventMessage:
        events = self.journal[self.game]
        event = EventMessage(self.number, self.game, len(events), kind, data, round(time.monotonic() % 1e6, 3),
                             _now())
        events.append(event)
        return event

    def _change(self, kind: str, data: dict[str, Any]) -> None:
        """Journal a change and put it and the new snapshot on the broker (when connected)."""
        with self.lock:
            self._journal(kind, data)
            self.flush()

    def play(self, notation: str, score: int, squares: list[str] | None = None, kind: str = "play", *,
             challenge: bool = False) -> None:
        """The player on turn makes a move (`kind` as in the snapshot's MoveView) worth `score`; the turn passes.
        With `challenge` the play stays open to challenge (state `challenge`) until `close_challenge()`, as a
        real table's window; without, the window is taken as closed at once."""
        with self.lock:
            if self.state == "waiting":  # the first press of the clock starts the game, as at a real table
                self._resume()
            mover = next(i for i, p in enumerate(self.players) if p["on_turn"])
            self.players[mover]["score"] += score
            self.moves.append({"player": mover, "kind": kind, "notation": notation, "words": [],
                               "score": score, "total": self.players[mover]["score"]})
            self.last_play = list(squares or [])
            rows = [list(row) for row in self.board]
            for square in self.last_play:
                col, row = ord(square[0].upper()) - ord("A"), int(square[1:]) - 1
                if 0 <= row < len(rows) and 0 <= col < len(rows[row]):
                    rows[row][col] = notation.split()[-1][0] if notation.split() else "A"
            self.board = ["".join(row) for row in rows]
            if challenge and self.state == "turn":
                self.state = "challenge"
            for i, p in enumerate(self.players):
                p["on_turn"] = i != mover
            self._run_clocks()
            self._change("control", {"action": "play", "notation": notation, "score": score, "kind": kind})

    def close_challenge(self) -> None:
        """The play's challenge window closes unchallenged: the next player's turn goes on."""
        with self.lock:
            if self.state == "challenge":
                self.state = "turn"
                self._change("tick", {"window": "closed"})

    def take_back(self) -> None:
        """After the director's undo, the players lift the play's tiles: the game goes on."""
        with self.lock:
            if self.state == "takeback":
                self.state = "turn"
                self.alerts = [a for a in self.alerts if a["code"] != "take_back"]
                self._run_clocks()
                self._change("board", {"taken_back": True})

    def _run_clocks(self) -> None:
        """The clock of the player on turn runs while the game does (a turn or an open challenge)."""
        for p in self.players:
            p["clock"]["running"] = p["on_turn"] and self.state in ("turn", "challenge", "takeback")

    def set_clocks(self, *remaining_ms: int, running: bool = False) -> None:
        with self.lock:
            for p, ms in zip(self.players, remaining_ms, strict=False):
                p["clock"] = {"remaining_ms": ms, "running": running and p["on_turn"]}
            self._change("clock", {"remaining_ms": list(remaining_ms)})

    def alert(self, code: str, level: str = "warning", squares: list[str] | None = None, /, **fields: Any) -> None:
        """Put up one of the table's alerts (a code of referee/words/table.py `TABLE`, with its fields)."""
        with self.lock:
            self._notice(level, code, squares, **fields)
            self._change("alert", {"code": code})

    def _notice(self, level: str, code: str, squares: list[str] | None = None, /, **fields: Any) -> None:
        """An alert as a real table's snapshot carries it: its code and fields, and its words in the table's
        language (referee/words/table.py)."""
        self.alerts.append({"level": level, "code": code, "text": say("table", code, self.language, **fields),
                            "squares": list(squares or []), "fields": plain_fields(fields)})

    def end(self) -> None:
        with self.lock:
            self.state = "ended"
            scores = [p["score"] for p in self.players]
            best = max(scores)
            self.result = {"winners": [i for i, s in enumerate(scores) if s == best],
                           "reason": "score" if scores.count(best) == 1 else "shared"}
            for p in self.players:
                p["clock"]["running"] = False
            self._change("control", {"action": "end"})

    # --- commands --------------------------------------------------------------------------------

    def _apply(self, command: CommandMessage) -> tuple[bool, str | None, str | None]:
        """A director's command, with the real table's outcome: applied, or refused with its refusal code and
        words (referee/words/table.py `REFUSAL_TEXTS`; tests/tournament/testing/test_simhall.py plays the same
        commands on both, so they cannot drift)."""
        args = dict(command.args)
        if command.cmd == "replay":
            game, first, last = int(args["game"]), int(args["from"]), args.get("to")
            events = self.journal.get(game, [])
            for event in events[first:(None if last is None else int(last) + 1)]:
                self._send_event(EventMessage(event.table, event.game, event.seq, event.kind, event.data,
                                              event.time, event.at, replay=True))
            return True, None, None
        refused = self._refusal(command.cmd, args)
        if refused is not None:
            code, fields = refused
            return False, say("refusals", code, self.language, **fields), code
        if command.cmd == "pause":
            self._pause()
        elif command.cmd in ("resume", "start"):
            self._resume()
        elif command.cmd == "set_players":
            self._new_game(list(args["players"]), int(args.get("first", 0)))
        elif command.cmd == "message":
            self._notice("info", "director_message", text=str(args["text"]).strip()[:500])
        elif command.cmd == "correct_score" and "square" not in args:
            # as the real table: a points-only adjustment is its own row of the score sheet, in the total
            player, points = int(args["player"]), int(args["points"])
            self.players[player]["score"] += points
            self.moves.append({"player": player, "kind": "adjustment", "notation": "(adjustment)", "words": [],
                               "score": points, "total": self.players[player]["score"], "note": args["reason"]})
            self._notice("info", "score_adjusted", player=self.players[player]["name"], points=f"{points:+d}",
                         total=self.players[player]["score"], reason=args["reason"])
        elif command.cmd == "correct_score":
            self.moves[-1]["notation"] += f" ({args['square']}={args['letter']})"
        elif command.cmd == "adjust_time":
            self.players[int(args["player"])]["clock"]["remaining_ms"] += int(args["seconds"]) * 1000
        elif command.cmd == "undo":
            self._undo()
        elif command.cmd == "hold" and args.get("hold", True):
            # as the real table: a notice while the challenge is held, the clocks stopped
            self._pause()
            self.held = True
            self._notice("warning", "challenge_held")
        elif command.cmd == "hold":
            self._resume()
        self.applied.append(command)
        self._journal("director", {"cmd": command.cmd, "args": args, "by": command.by, "id": command.id})
        return True, None, None

    def _refusal(self, cmd: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """(code, fields) when the real table refuses `cmd` in the present state, else None."""
        state = self.state
        player = args.get("player")
        bad_player = isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(self.players)
        seat = {"last": len(self.players) - 1, "player": player}
        if cmd == "pause" and state not in ("turn", "challenge", "takeback"):
            return "nothing_to_pause", {"state": state}
        if cmd == "resume" and state != "paused":
            return "not_paused", {}
        if cmd == "start" and state != "waiting":
            return "already_started", {"state": state}
        if cmd == "set_players" and state not in ("waiting", "ended"):
            return "next_game_not_now", {"state": state}
        if cmd == "message":
            minutes = args.get("minutes", 10)
            if not str(args.get("text", "")).strip():
                return "message_empty", {}
            if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 24 * 60:
                return "message_minutes", {"minutes": minutes}
        if cmd == "adjust_time" and bad_player:
            return "director_seat", seat
        if cmd == "correct_score" and "square" not in args:
            if state == "waiting":
                return "adjust_not_now", {}
            if bad_player:
                return "director_seat", seat
        if cmd == "correct_score" and "square" in args and not self.moves:
            return "not_correctable", {"square": str(args["square"]).upper()}
        if cmd == "hold" and args.get("hold", True) and state != "challenge":
            return "no_challenge_to_hold", {"state": state}
        if cmd == "hold" and not args.get("hold", True) and not (state == "paused" and self.held):
            return "no_challenge_held", {}
        if cmd == "undo" and (state not in ("turn", "challenge") or self._last_play() is None):
            return "undo_not_now", {"state": state}
        return None

    def _pause(self) -> None:
        self._paused_from = self.state
        self.state = "paused"
        for p in self.players:
            p["clock"]["running"] = False

    def _resume(self) -> None:
        """Back to the state the pause (or the hold) stopped; `start` begins the waiting game."""
        if self.state == "waiting":
            self.state = "turn"
            self.players[0]["on_turn"] = True  # the order was set with the players: the first plays first
        else:
            self.state = self._paused_from
        self.held = False
        self.alerts = [a for a in self.alerts if a["code"] != "challenge_held"]
        self._run_clocks()

    def _last_play(self) -> int | None:
        """The index of the last play in the score sheet, when only adjustments follow it (what undo takes)."""
        for i in range(len(self.moves) - 1, -1, -1):
            if self.moves[i]["kind"] == "play":
                return i
            if self.moves[i]["kind"] != "adjustment":
                return None
        return None

    def _undo(self) -> None:
        """As the real table: the play goes, its player is on turn again, and the tiles wait to be lifted."""
        index = self._last_play()
        assert index is not None
        move = self.moves.pop(index)
        mover = move["player"]
        self.players[mover]["score"] -= move["score"]
        for m in self.moves[index:]:
            if m["player"] == mover:
                m["total"] -= move["score"]
        for i, p in enumerate(self.players):
            p["on_turn"] = i == mover
        self.state = "takeback"
        squares = _squares_text(self.last_play)
        self._notice("warning", "take_back", self.last_play, squares=squares)
        self._notice("info", "play_undone", self.last_play, squares=squares)
        self._run_clocks()

    def command(self, command: CommandMessage) -> AckMessage:
        """Apply a director's command once (a repeated id gets the same ack again) and acknowledge it."""
        with self.lock:
            if command.id in self.acks:
                return self.acks[command.id]
            ok, error, code = self._apply(command)
            seq = len(self.journal[self.game]) - 1 if ok and command.cmd != "replay" else None
            ack = AckMessage(self.number, command.id, ok, error, code, self.game if seq is not None else None, seq)
            self.acks[command.id] = ack
            return ack

    def _on_message(self, _client: paho.Client, _userdata: object, message: paho.MQTTMessage) -> None:
        try:
            command = CommandMessage.from_bytes(bytes(message.payload))
        except PayloadError:
            return
        with self.lock:
            again = command.id in self.acks  # sent again (no ack seen in time): the same ack, nothing applied
            ack = self.command(command)
            self._publish(topics.ack(self.event, self.number), ack.to_bytes())
            if command.cmd != "replay" and not again:
                self.flush()
        if self.on_command is not None and not again:
            self.on_command(self, command)

    # --- the broker -----------------------------------------------------------------------------

    def connect(self) -> None:
        """Connect (with the offline last will) and publish everything not yet sent."""
        client = mqtt.make_client(self.broker, f"{self.event}-table-{self.number}")
        will = StatusMessage(self.number, "offline", _now(), self.name).to_bytes()
        client.will_set(topics.status(self.event, self.number), will, qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client
        mqtt.connect_async(client, self.broker, clean_start=True)

    def _on_connect(self, client: paho.Client, _userdata: object, _flags: object, reason: object,
                    _props: object) -> None:
        if getattr(reason, "is_failure", False):
            return
        client.subscribe([(topics.command(self.event, self.number), 1), (topics.all_command(self.event), 1)])
        client.publish(topics.status(self.event, self.number),
                       StatusMessage(self.number, "online", _now(), self.name).to_bytes(), qos=1, retain=True)
        self.connected.set()
        with self.lock:
            self.flush()

    def _on_disconnect(self, client: paho.Client, _userdata: object, _flags: object, _reason: object,
                       _props: object) -> None:
        # the broker went away: play on and keep the events (the journal is the outbox) until it is back; a
        # test waiting for `connected` then waits for the table's new subscription too, not the old one's flag
        if client is self.client:
            self.connected.clear()

    def _publish(self, topic: str, payload: bytes, *, retain: bool = False,
                 props: Properties | None = None) -> None:
        if self.client is not None and self.connected.is_set():
            self.client.publish(topic, payload, qos=1, retain=retain, properties=props)

    def _send_event(self, event: EventMessage) -> None:
        props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
        props.UserProperty = ("published", str(int(time.time() * 1000)))
        self._publish(topics.events(self.event, self.number), event.to_bytes(), props=props)

    def flush(self) -> None:
        """Publish the journal from the cursor, in order, then the snapshot (only while connected)."""
        with self.lock:
            if self.client is None or not self.connected.is_set():
                return
            for game in sorted(self.journal):
                events = self.journal[game]
                for event in events[self.sent[game]:]:
                    if self.drop_next > 0:
                        self.drop_next -= 1
                    else:
                        self._send_event(event)
                self.sent[game] = len(events)
            snap = SnapshotMessage(self.number, self.game, len(self.journal[self.game]) - 1, self.snapshot())
            self._publish(topics.snapshot(self.event, self.number), snap.to_bytes(), retain=True)

    def kill(self) -> None:
        """Lose the connection as a crashed Pi would: the broker publishes the offline last will."""
        client, self.client = self.client, None
        self.connected.clear()
        if client is not None:
            client.disconnect(reasoncode=ReasonCode(PacketTypes.DISCONNECT, "Disconnect with will message"))
            client.loop_stop()

    def revive(self) -> None:
        self.connect()

    def stop(self) -> None:
        """A clean stop: publish offline, disconnect."""
        client, self.client = self.client, None
        if client is not None:
            client.publish(topics.status(self.event, self.number),
                           StatusMessage(self.number, "offline", _now(), self.name).to_bytes(), qos=1, retain=True)
            self.connected.clear()
            client.disconnect()
            # paho's network thread may end on the disconnect and clear itself between loop_stop's check and
            # its join (paho 2.1): the thread is gone either way
            with contextlib.suppress(AttributeError):
                client.loop_stop()


class SimSheet:
    """A `SimTable`'s game replayed from its journaled events (tournament/director/sheets.py's `GameSheet`):
    what the director's results are written from in tests and benchmarks, as the table's state machine is for
    real tables (referee/director_sheets.py)."""

    def __init__(self, header: Mapping[str, Any]) -> None:
        names = header.get("players")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError("the game's header names no players")
        raw = header.get("setup")
        setup: Mapping[str, Any] = raw if isinstance(raw, dict) else {}
        self.edition = str(setup.get("edition", "english"))
        self.players: list[dict[str, Any]] = [{"name": n, "score": 0} for n in names]
        self.moves: list[dict[str, Any]] = []
        self.state = "waiting"
        self.result: dict[str, Any] | None = None
        self.on_turn = 0  # as the SimTable: a play passes the turn, an undo or an adjustment does not

    def apply(self, kind: str, data: Mapping[str, Any], time_s: float) -> None:
        action = data.get("action") if kind == "control" else data.get("cmd") if kind == "director" else None
        raw_args = data.get("args")
        args: Mapping[str, Any] = raw_args if isinstance(raw_args, dict) else {}
        if action == "play":
            mover = self.on_turn
            self.on_turn = (mover + 1) % len(self.players)
            self.players[mover]["score"] += int(data.get("score", 0))
            self.moves.append({"player": mover, "kind": str(data.get("kind", "play")),
                               "notation": str(data.get("notation", "")), "words": [],
                               "score": int(data.get("score", 0)), "total": self.players[mover]["score"]})
            self.state = "turn"
        elif action == "end":
            self.state = "ended"
            scores = [p["score"] for p in self.players]
            best = max(scores)
            self.result = {"winners": [i for i, s in enumerate(scores) if s == best],
                           "reason": "score" if scores.count(best) == 1 else "shared"}
        elif action == "correct_score" and "square" not in args:
            player, points = int(args.get("player", 0)), int(args.get("points", 0))
            self.players[player]["score"] += points
            self.moves.append({"player": player, "kind": "adjustment", "notation": "(adjustment)", "words": [],
                               "score": points, "total": self.players[player]["score"],
                               "note": str(args.get("reason", ""))})
        elif action == "undo" and self.moves:
            move = self.moves.pop()
            self.players[move["player"]]["score"] -= move["score"]
        elif action in ("start", "resume"):
            self.state = "turn"
        elif action == "pause":
            self.state = "paused"

    def mark(self) -> tuple[Any, ...]:
        return len(self.moves), tuple(p["score"] for p in self.players), self.state == "ended"

    def sheet(self) -> dict[str, Any]:
        return {"players": [dict(p) for p in self.players], "moves": [dict(m) for m in self.moves],
                "state": self.state, "result": self.result, "edition": self.edition, "game": "standard"}


class SimReplayer:
    """Starts a `SimSheet` from a header (tournament/director/sheets.py's `Replayer`)."""

    def start(self, header: Mapping[str, Any]) -> SimSheet:
        return SimSheet(header)
