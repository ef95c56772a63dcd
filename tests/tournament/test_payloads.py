"""Payloads round-trip to bytes, and a malformed one is refused naming the field at fault."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.payloads import (
    AckMessage,
    CommandMessage,
    EventMessage,
    PayloadError,
    SnapshotMessage,
    StatusMessage,
)

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=20))


@given(table=st.integers(1, 9999), game=st.integers(1, 10**6), seq=st.integers(0, 10**6),
       kind=st.text(min_size=1, max_size=64), data=st.dictionaries(st.text(max_size=10), json_scalars, max_size=5),
       time_ms=st.integers(0, 10**9), replay=st.booleans())
def test_event_round_trips(table: int, game: int, seq: int, kind: str, data: dict[str, object], time_ms: int,
                           replay: bool) -> None:
    msg = EventMessage(table, game, seq, kind, data, time_ms / 1000, "2026-12-01T21:00:00.000+00:00", replay)
    assert EventMessage.from_bytes(msg.to_bytes()) == msg


def test_other_payloads_round_trip() -> None:
    snap = SnapshotMessage(3, 7, 12, {"state": "turn"})
    assert SnapshotMessage.from_bytes(snap.to_bytes()) == snap
    status = StatusMessage(3, "offline", "2026-12-01T21:00:00+00:00", "Table 3")
    assert StatusMessage.from_bytes(status.to_bytes()) == status
    where = StatusMessage(3, "online", "2026-12-01T21:00:00+00:00", "Table 3", game=2, seq=41)
    assert StatusMessage.from_bytes(where.to_bytes()) == where
    cmd = CommandMessage("c1", "director", "set_players", {"players": ["Ann", "Bob"], "first": 1})
    assert CommandMessage.from_bytes(cmd.to_bytes()) == cmd
    ack = AckMessage(3, "c1", False, "no such player", "bad_args")
    assert AckMessage.from_bytes(ack.to_bytes()) == ack


@pytest.mark.parametrize(("raw", "message"), [
    (b"not json", "event payload: not JSON"),
    (b"[1]", "expected a JSON object"),
    (b'{"v":2}', "field 'v' is 2"),
    (b'{"v":1,"table":0,"game":1,"seq":1,"kind":"x","time":0,"at":"t"}', "field 'table' must be at least 1"),
    (b'{"v":1,"table":1,"game":1,"seq":"1","kind":"x","time":0,"at":"t"}', "field 'seq' must be a whole number"),
    (b'{"v":1,"table":1,"game":1,"seq":1,"kind":"x","time":-1,"at":"t"}', "field 'time'"),
    (b'{"v":1,"table":1,"game":1,"seq":1,"kind":"x","data":[],"time":0,"at":"t"}', "field 'data' must be"),
])
def test_malformed_event_names_the_field(raw: bytes, message: str) -> None:
    with pytest.raises(PayloadError, match=message.replace("(", r"\(")):
        EventMessage.from_bytes(raw)


@pytest.mark.parametrize(("cmd", "args", "message"), [
    ("launch", {}, "field 'cmd' is 'launch'"),
    ("set_players", {"players": ["Ann"]}, "args.players"),
    ("set_players", {"players": ["Ann", "Bob"], "first": 2}, "args.first"),
    ("adjust_time", {"player": 0}, "'seconds'"),
    ("correct_score", {"player": -1, "points": 5}, "'player' must be at least 0"),
    ("message", {"text": ""}, "'text'"),
    ("message", {"text": "lunch", "minutes": 0}, "'minutes' must be at least 1"),
    ("message", {"text": "lunch", "minutes": 2000}, "'minutes' must be at most 1440"),
    ("hold", {"hold": "yes"}, "args.hold"),
    ("replay", {"game": 1, "from": 5, "to": 2}, "before"),
])
def test_malformed_command_names_the_argument(cmd: str, args: dict[str, object], message: str) -> None:
    raw = json.dumps({"v": 1, "id": "c1", "by": "director", "cmd": cmd, "args": args})
    with pytest.raises(PayloadError, match=message):
        CommandMessage.from_bytes(raw)
