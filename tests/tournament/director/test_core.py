"""The director's core without a broker: each event stored once, gaps asked for, the hall rebuilt after a restart."""

from __future__ import annotations

from pathlib import Path

from tournament import topics
from tournament.director.core import Director
from tournament.director.store import Store
from tournament.payloads import CommandMessage, EventMessage, SnapshotMessage, StatusMessage


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def event(seq: int, game: int = 1, table: int = 4) -> tuple[str, bytes]:
    data = {"players": ["Ann", "Ben"], "name": "Table 4"} if seq == 0 else {"n": seq}
    kind = "game" if seq == 0 else "control"
    return topics.events("ev", table), EventMessage(table, game, seq, kind, data, float(seq), "t").to_bytes()


def snapshot(seq: int, scores: tuple[int, int], game: int = 1, table: int = 4,
             state: str = "turn") -> tuple[str, bytes]:
    snap = {"state": state, "players": [{"name": "Ann", "score": scores[0], "on_turn": True,
                                         "clock": {"remaining_ms": -5000, "running": True}},
                                        {"name": "Ben", "score": scores[1], "on_turn": False, "clock": None}],
            "alerts": [{"code": "camera_lost", "level": "error", "text": "", "squares": []}], "moves": []}
    return topics.snapshot("ev", table), SnapshotMessage(table, game, seq, snap).to_bytes()


def make(tmp_path: Path, clock: Clock) -> tuple[Director, list[tuple[str, bytes]]]:
    sent: list[tuple[str, bytes]] = []
    director = Director("ev", Store(tmp_path / "d.sqlite3"), clock=clock)
    director.publish = lambda topic, payload: sent.append((topic, payload))
    return director, sent


def test_duplicates_are_stored_once_and_a_gap_is_asked_for_once_a_second(tmp_path: Path) -> None:
    clock = Clock()
    director, sent = make(tmp_path, clock)
    for seq in (0, 1, 1, 2, 5):
        director.dispatch(*event(seq))
    assert director.duplicates == 1
    replays = [CommandMessage.from_bytes(p) for t, p in sent if t == topics.command("ev", 4)]
    assert [(c.cmd, dict(c.args)) for c in replays] == [("replay", {"game": 1, "from": 3, "to": 4})]
    director.dispatch(*event(6))
    assert len(sent) == 1  # within the second: not asked again
    clock.now += 2
    director.dispatch(*event(7))
    assert [dict(CommandMessage.from_bytes(p).args) for _, p in sent][-1] == {"game": 1, "from": 3, "to": 6}
    for seq in (3, 4):
        director.dispatch(*event(seq))
    assert director.store.event_seqs(4, 1) == list(range(8))


def test_a_snapshot_ahead_of_the_stored_events_asks_for_the_rest(tmp_path: Path) -> None:
    director, sent = make(tmp_path, Clock())
    director.dispatch(*event(0))
    director.dispatch(*snapshot(9, (10, 0)))
    assert dict(CommandMessage.from_bytes(sent[-1][1]).args) == {"game": 1, "from": 1, "to": 9}


def test_tiles_carry_the_director_alerts(tmp_path: Path) -> None:
    director, _ = make(tmp_path, Clock())
    director.dispatch(*snapshot(3, (40, 12)))
    director.dispatch(topics.status("ev", 4), StatusMessage(4, "offline", "t", "Table 4").to_bytes())
    tile = director.tables[4].tile()
    assert [p["score"] for p in tile["players"]] == [40, 12]
    codes = [a["code"] for a in tile["alerts"]]
    assert codes[0] == "offline" and "overtime" in codes and "camera_lost" in codes
    assert tile["alerts"][0]["text"].startswith("offline since ")
    director.dispatch(topics.status("ev", 4), StatusMessage(4, "online", "t", "Table 4").to_bytes())
    assert director.tables[4].tile()["alerts"][0]["code"] != "offline"


def test_bad_payloads_are_dropped_and_counted(tmp_path: Path) -> None:
    director, _ = make(tmp_path, Clock())
    director.dispatch(topics.events("ev", 4), b'{"v":1,"table":4}')
    director.dispatch("scrabble/ev/table/x/events", b"{}")
    assert director.dropped == 2 and director.tables == {}


def test_after_a_restart_the_hall_comes_back_from_the_store(tmp_path: Path) -> None:
    clock = Clock()
    director, _ = make(tmp_path, clock)
    director.store.set_meta("round", 3)
    for seq in range(4):
        director.dispatch(*event(seq))
    director.dispatch(*snapshot(3, (77, 50), state="ended"))
    director.store.close()
    again, sent = make(tmp_path, clock)
    assert again.tables[4].snapshot["players"][0]["score"] == 77
    assert again.tables[4].round == 3
    again.dispatch(*event(3))  # a redelivery after the restart: still once
    assert again.duplicates == 1 and sent == []
    again.dispatch(*event(5))
    assert dict(CommandMessage.from_bytes(sent[-1][1]).args) == {"game": 1, "from": 4, "to": 4}
