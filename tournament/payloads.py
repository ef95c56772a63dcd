"""The JSON payloads of the tournament topics: frozen values that round-trip to bytes, checked on the way in.

Every payload is a JSON object with ``"v": 1`` (the schema version). A receiver parses with ``from_bytes``,
which raises PayloadError naming the topic kind and the field at fault; it never trusts a field it has not
checked, because anyone with broker credentials can publish. Unknown extra fields are ignored, so a later
version can add fields without breaking an older director. docs/tournament-network.md shows each with an
example.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

VERSION: Final = 1

# Seq 0 of a game is its header (players, setup), published from the journal's games table before any of
# the game's events, so a receiver that sees seq 1 first knows it lacks the header and asks for it.
HEADER_SEQ: Final = 0
HEADER_KIND: Final = "game"

CommandName = Literal[
    "pause", "resume", "start", "set_players", "message", "adjust_time", "correct_score", "undo", "hold",
    "replay",
]
COMMANDS: Final[tuple[CommandName, ...]] = (
    "pause", "resume", "start", "set_players", "message", "adjust_time", "correct_score", "undo", "hold",
    "replay",
)
StatusState = Literal["online", "offline"]


class PayloadError(ValueError):
    """A payload that is not valid JSON of its topic's schema: says which payload, which field and why."""


def _load(kind: str, raw: bytes | bytearray | str) -> dict[str, Any]:
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise PayloadError(f"{kind} payload: not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise PayloadError(f"{kind} payload: expected a JSON object, got {type(obj).__name__}")
    v = obj.get("v")
    if v != VERSION:
        raise PayloadError(f"{kind} payload: field 'v' is {v!r}; this version reads {VERSION}")
    return obj


def _dump(obj: Mapping[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def _int(kind: str, obj: Mapping[str, Any], key: str, *, low: int | None = None, optional: bool = False) -> Any:
    value = obj.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PayloadError(f"{kind} payload: field {key!r} must be a whole number, got {value!r}")
    if low is not None and value < low:
        raise PayloadError(f"{kind} payload: field {key!r} must be at least {low}, got {value}")
    return value


def _str(kind: str, obj: Mapping[str, Any], key: str, *, optional: bool = False, max_len: int = 200) -> Any:
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > max_len:
        raise PayloadError(f"{kind} payload: field {key!r} must be a text of 1 to {max_len} characters, got {value!r}")
    return value


def _obj(kind: str, obj: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = obj.get(key, {})
    if not isinstance(value, dict):
        raise PayloadError(f"{kind} payload: field {key!r} must be a JSON object, got {type(value).__name__}")
    return value


@dataclass(frozen=True)
class EventMessage:
    """One journaled event of a table (topic ``.../events``), or a game's header at seq 0.

    `time` is table time in seconds (the journal's milliseconds / 1000): the clock that only runs while the
    table's service runs. `at` is the wall time the event was journaled, for people; never computed with.
    `replay` is true when the event is sent again because a receiver asked for a range.
    """

    table: int
    game: int
    seq: int
    kind: str
    data: Mapping[str, Any]
    time: float
    at: str
    replay: bool = False

    @property
    def key(self) -> tuple[int, int, int]:
        """What makes an event unique in a tournament: (table, game, seq)."""
        return (self.table, self.game, self.seq)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"v": VERSION, "table": self.table, "game": self.game, "seq": self.seq,
                               "kind": self.kind, "data": dict(self.data), "time": self.time, "at": self.at}
        if self.replay:
            out["replay"] = True
        return out

    def to_bytes(self) -> bytes:
        return _dump(self.to_dict())

    @classmethod
    def from_bytes(cls, raw: bytes | bytearray | str) -> EventMessage:
        k = "event"
        o = _load(k, raw)
        t = o.get("time")
        if isinstance(t, bool) or not isinstance(t, int | float) or t < 0:
            raise PayloadError(f"{k} payload: field 'time' must be table time in seconds (>= 0), got {t!r}")
        return cls(table=_int(k, o, "table", low=1), game=_int(k, o, "game", low=1),
                   seq=_int(k, o, "seq", low=HEADER_SEQ), kind=_str(k, o, "kind", max_len=64),
                   data=_obj(k, o, "data"), time=float(t), at=_str(k, o, "at", max_len=64),
                   replay=o.get("replay") is True)


@dataclass(frozen=True)
class SnapshotMessage:
    """The table's page snapshot (referee.table.api.Snapshot) with the journal position it reflects."""

    table: int
    game: int | None
    seq: int
    snapshot: Mapping[str, Any]

    def to_bytes(self) -> bytes:
        return _dump({"v": VERSION, "table": self.table, "game": self.game, "seq": self.seq,
                      "snapshot": dict(self.snapshot)})

    @classmethod
    def from_bytes(cls, raw: bytes | bytearray | str) -> SnapshotMessage:
        k = "snapshot"
        o = _load(k, raw)
        return cls(table=_int(k, o, "table", low=1), game=_int(k, o, "game", low=1, optional=True),
                   seq=_int(k, o, "seq", low=0), snapshot=_obj(k, o, "snapshot"))


@dataclass(frozen=True)
class StatusMessage:
    """Retained "online" (published by the table on connecting) or "offline" (its last will, or a clean stop).

    `at` is the wall time the table wrote it; for the last will that is when the table connected, so a
    director stamps "offline since" with its own receive time. `game` and `seq` (an "online" sent again once
    the table has published everything after a reconnect) name the newest event of its journal: a receiver
    missing the end of that game asks for it (the tail of a stream leaves no gap to notice otherwise).
    """

    table: int
    state: StatusState
    at: str
    name: str = ""
    game: int | None = None
    seq: int | None = None

    def to_bytes(self) -> bytes:
        out: dict[str, Any] = {"v": VERSION, "table": self.table, "state": self.state, "at": self.at,
                               "name": self.name}
        if self.game is not None and self.seq is not None:
            out |= {"game": self.game, "seq": self.seq}
        return _dump(out)

    @classmethod
    def from_bytes(cls, raw: bytes | bytearray | str) -> StatusMessage:
        k = "status"
        o = _load(k, raw)
        state = o.get("state")
        if state not in ("online", "offline"):
            raise PayloadError(f"{k} payload: field 'state' must be 'online' or 'offline', got {state!r}")
        name = o.get("name", "")
        return cls(table=_int(k, o, "table", low=1), state=state, at=_str(k, o, "at", max_len=64),
                   name=name if isinstance(name, str) else "", game=_int(k, o, "game", low=1, optional=True),
                   seq=_int(k, o, "seq", low=0, optional=True))


def _check_args(cmd: str, args: Mapping[str, Any]) -> None:
    """The arguments each command takes (docs/tournament-network.md, "Commands")."""
    k = f"command {cmd!r}"
    if cmd == "pause":  # the reason is optional; the hall shows it beside who paused
        if "reason" in args:
            _str(k, args, "reason", max_len=200)
        return
    if cmd in ("resume", "start", "undo"):
        return
    if cmd == "set_players":
        players = args.get("players")
        if (not isinstance(players, list) or not 2 <= len(players) <= 4
                or not all(isinstance(p, str) and p.strip() and len(p) <= 64 for p in players)):
            raise PayloadError(f"{k} payload: 'args.players' must be a list of 2 to 4 names (1-64 characters)")
        first = args.get("first", 0)
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(players):
            raise PayloadError(f"{k} payload: 'args.first' must be the index of the player who starts, got {first!r}")
    elif cmd == "message":
        _str(k, args, "text", max_len=500)
        minutes = _int(k, args, "minutes", low=1, optional=True)  # how long the table shows it (default 10)
        if minutes is not None and minutes > 1440:
            raise PayloadError(f"{k} payload: field 'minutes' must be at most 1440 (a day), got {minutes}")
    elif cmd == "adjust_time":
        _int(k, args, "player", low=0)
        _int(k, args, "seconds")
    elif cmd == "correct_score":
        if "square" in args:  # a misread letter of the last play: the table re-scores it
            _str(k, args, "square", max_len=3)
            _str(k, args, "letter", max_len=1)
        else:  # a points-only adjustment (a ruling, a penalty, a paper score entered wrong): it needs its reason
            _int(k, args, "player", low=0)
            _int(k, args, "points")
            _str(k, args, "reason", max_len=200)
    elif cmd == "hold":
        if not isinstance(args.get("hold", True), bool):
            raise PayloadError(f"{k} payload: 'args.hold' must be true (hold) or false (release)")
    elif cmd == "replay":
        _int(k, args, "game", low=1)
        first = _int(k, args, "from", low=HEADER_SEQ)
        last = _int(k, args, "to", low=HEADER_SEQ, optional=True)
        if last is not None and last < first:
            raise PayloadError(f"{k} payload: 'args.to' ({last}) is before 'args.from' ({first})")


@dataclass(frozen=True)
class CommandMessage:
    """Director -> table (topic ``.../cmd`` or ``scrabble/{event}/all/cmd``).

    `id` is chosen by the sender and comes back in the acknowledgement; a table applies a command id once
    (QoS 1 may deliver twice). `by` names who sent it and is journaled with the command.
    """

    id: str
    by: str
    cmd: CommandName
    args: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.cmd not in COMMANDS:
            raise PayloadError(f"command payload: unknown command {self.cmd!r} (one of {', '.join(COMMANDS)})")
        _check_args(self.cmd, self.args)

    def to_bytes(self) -> bytes:
        return _dump({"v": VERSION, "id": self.id, "by": self.by, "cmd": self.cmd, "args": dict(self.args)})

    @classmethod
    def from_bytes(cls, raw: bytes | bytearray | str) -> CommandMessage:
        k = "command"
        o = _load(k, raw)
        cmd = o.get("cmd")
        if cmd not in COMMANDS:
            raise PayloadError(f"{k} payload: field 'cmd' is {cmd!r}; one of {', '.join(COMMANDS)}")
        return cls(id=_str(k, o, "id", max_len=64), by=_str(k, o, "by", max_len=64), cmd=cmd,
                   args=_obj(k, o, "args"))


@dataclass(frozen=True)
class AckMessage:
    """Table -> director: command `id` applied (`ok`) or refused (`error` in words, `code` for machines).

    `game` and `seq` name the journal row the command became, when it became one.
    """

    table: int
    id: str
    ok: bool
    error: str | None = None
    code: str | None = None
    game: int | None = None
    seq: int | None = None

    def to_bytes(self) -> bytes:
        return _dump({"v": VERSION, "table": self.table, "id": self.id, "ok": self.ok, "error": self.error,
                      "code": self.code, "game": self.game, "seq": self.seq})

    @classmethod
    def from_bytes(cls, raw: bytes | bytearray | str) -> AckMessage:
        k = "ack"
        o = _load(k, raw)
        ok = o.get("ok")
        if not isinstance(ok, bool):
            raise PayloadError(f"{k} payload: field 'ok' must be true or false, got {ok!r}")
        return cls(table=_int(k, o, "table", low=1), id=_str(k, o, "id", max_len=64), ok=ok,
                   error=_str(k, o, "error", optional=True, max_len=500),
                   code=_str(k, o, "code", optional=True, max_len=64),
                   game=_int(k, o, "game", low=1, optional=True), seq=_int(k, o, "seq", low=0, optional=True))
