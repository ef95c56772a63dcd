"""The director's core without a broker: events stored once, where to resume after a restart, tiles and their
alerts, a game put in its round only with the paired players, commands checked and sent with one id."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tournament.director.core import Director
from tournament.director.hall import TableTile
from tournament.director.store import Store
from tournament.pairings import Pairing
from tournament.payloads import AckMessage, EventMessage, PayloadError, SnapshotMessage, StatusMessage


def event(seq: int, game: int = 1, table: int = 4, players: tuple[str, str] = ("Ann", "Ben")) -> EventMessage:
    data: dict[str, Any] = {"players": list(players), "name": f"Table {table}"} if seq == 0 else {"n": seq}
    return EventMessage(table, game, seq, "game" if seq == 0 else "control", data, float(seq), "t")


def snapshot(seq: int, scores: tuple[int, int], game: int = 1, table: int = 4, state: str = "turn",
             players: tuple[str, str] = ("Ann", "Ben")) -> SnapshotMessage:
    snap = {"state": state, "players": [{"name": players[0], "score": scores[0], "on_turn": True,
                                         "clock": {"remaining_ms": -5000, "running": True}},
                                        {"name": players[1], "score": scores[1], "on_turn": False, "clock": None}],
            "alerts": [{"code": "camera_lost", "level": "error", "text": "", "squares": []}], "moves": []}
    return SnapshotMessage(table, game, seq, snap)


Sent = list[tuple[int | None, str, dict[str, Any], str]]


def make(tmp_path: Path) -> tuple[Director, Sent]:
    sent: Sent = []
    director = Director("ev", Store(tmp_path / "d.sqlite3"))
    director.sender = lambda table, cmd, args, cid: sent.append((table, cmd, args, cid))
    return director, sent


def test_each_event_is_stored_once_and_a_restart_resumes_after_the_unbroken_run(tmp_path: Path) -> None:
    director, _ = make(tmp_path)
    for seq in (0, 1, 1, 2, 5):
        director.on_event(event(seq))
    assert director.store.event_seqs(4, 1) == [0, 1, 2, 5]
    assert director.store.duplicates == 1
    director.store.close()
    again, _ = make(tmp_path)
    assert again.resume_points() == {(4, 1): 3}


def test_tiles_carry_the_director_alerts(tmp_path: Path) -> None:
    director, _ = make(tmp_path)
    director.on_snapshot(snapshot(3, (40, 12)))
    director.on_status(4, StatusMessage(4, "offline", "t", "Table 4"))
    tile = director.tables[4].tile()
    assert [p["score"] for p in tile["players"]] == [40, 12]
    codes = [a["code"] for a in tile["alerts"]]
    assert codes[0] == "offline" and "overtime" in codes and "camera_lost" in codes
    assert tile["alerts"][0]["text"].startswith("offline since ")
    director.on_status(4, StatusMessage(4, "online", "t", "Table 4"))
    assert director.tables[4].tile()["alerts"][0]["code"] != "offline"
    held = snapshot(4, (40, 12), state="paused")
    held.snapshot["alerts"] = [{"code": "challenge_held", "level": "warning", "text": "", "squares": []}]
    director.on_snapshot(held)
    assert [a["text"] for a in director.tables[4].tile()["alerts"]][:1] == ["challenge held"]


def test_a_late_snapshot_does_not_go_back(tmp_path: Path) -> None:
    director, _ = make(tmp_path)
    director.on_snapshot(snapshot(5, (50, 0)))
    director.on_snapshot(snapshot(4, (40, 0)))
    director.on_snapshot(snapshot(9, (1, 1), game=1))  # the same game, later: taken
    assert director.tables[4].snapshot["players"][0]["score"] == 1


def test_after_a_restart_the_hall_comes_back_from_the_store(tmp_path: Path) -> None:
    director, _ = make(tmp_path)
    director.store.set_meta("round", 3)
    for seq in range(4):
        director.on_event(event(seq))
    director.on_snapshot(snapshot(3, (77, 50), state="ended"))
    director.store.close()
    again, _ = make(tmp_path)
    assert again.tables[4].snapshot["players"][0]["score"] == 77
    assert again.tables[4].round == 3


def test_a_game_joins_the_round_only_with_the_paired_players(tmp_path: Path) -> None:
    director, sent = make(tmp_path)
    director.on_snapshot(snapshot(2, (10, 0), game=1, players=("Old", "Game")))
    director.send_pairings([Pairing(2, 4, "B", ("Cid", "Dan"), 1, (7, 8))])
    assert sent[0][:3] == (4, "set_players", {"players": ["Cid", "Dan"], "first": 1})
    director.on_snapshot(snapshot(3, (20, 0), game=1, players=("Old", "Game")))
    assert director.tables[4].round is None
    director.on_snapshot(snapshot(0, (0, 0), game=2, players=("Dan", "Cid")))  # the table seated Dan first
    assert (director.tables[4].round, director.tables[4].division) == (2, "B")
    assert director.store.games(4)[-1].ids == [8, 7]


def test_commands_are_checked_and_one_id_goes_to_every_table(tmp_path: Path) -> None:
    director, sent = make(tmp_path)
    with pytest.raises(PayloadError, match="points"):
        director.send("correct_score", {"player": 0}, [1])
    assert sent == []
    command = director.send("hold", {"hold": True}, [1, 2])
    assert [(t, c) for t, c, _, _ in sent] == [(1, "hold"), (2, "hold")] and {i for *_, i in sent} == {command.id}
    director.on_ack(AckMessage(2, command.id, False, "no challenge to hold", "wrong_state"))
    assert director.tables[2].tile()["alerts"][-1]["text"] == "hold: no challenge to hold"


def test_without_a_broker_nothing_is_sent(tmp_path: Path) -> None:
    director = Director("ev", Store(tmp_path / "d.sqlite3"))
    with pytest.raises(RuntimeError, match="not connected"):
        director.send("pause", {})


@pytest.fixture
def hall_zone() -> Iterator[None]:
    """The director's machine in a hall at UTC+05:30 (a POSIX TZ rule: no time zone database needed)."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "HALL-5:30"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_offline_since_is_the_halls_local_time(hall_zone: None) -> None:
    """The tile said "offline since 16:48:46 UTC": the hall reads its own clock, not UTC."""
    state = TableTile(4, offline_since="2026-05-02T16:48:46+00:00")
    assert state.alerts()[0]["text"] == "offline since 22:18:46"


def director_event(seq: int, kind: str, data: dict[str, Any], at: str = "2026-05-02T16:50:00+00:00") -> EventMessage:
    return EventMessage(4, 1, seq, kind, data, float(seq), at)


def test_a_paused_table_says_who_paused_it_and_why_also_after_a_restart(tmp_path: Path, hall_zone: None) -> None:
    """The tile said only PAUSED. It says who paused (the director's name on the command, or the players at
    the table) and the reason given, read from the table's journaled events."""
    director, _ = make(tmp_path)
    director.on_event(event(0))
    director.on_event(director_event(1, "director", {"cmd": "pause", "args": {"reason": "fire alarm"},
                                                     "by": "Chief TD", "id": "c-1"}))
    director.on_snapshot(snapshot(1, (0, 0), state="paused"))
    tile = director.tables[4].tile()
    assert [a["text"] for a in tile["alerts"] if a["code"] == "paused"] == [
        "paused by Chief TD at 22:20:00: fire alarm"]
    assert tile["paused"] == {"by": "Chief TD", "reason": "fire alarm", "at": "2026-05-02T16:50:00+00:00"}
    director.store.close()
    again, _ = make(tmp_path)  # the director restarted: the pause is read back from the stored events
    assert [a["text"] for a in again.tables[4].tile()["alerts"] if a["code"] == "paused"] == [
        "paused by Chief TD at 22:20:00: fire alarm"]
    again.on_event(director_event(2, "director", {"cmd": "resume", "args": {}, "by": "Chief TD", "id": "c-2"}))
    again.on_snapshot(snapshot(2, (0, 0), state="turn"))
    assert not [a for a in again.tables[4].tile()["alerts"] if a["code"] == "paused"]
    assert again.tables[4].tile()["paused"] is None
    again.on_event(director_event(3, "control", {"action": "pause", "params": {}}, at="2026-05-02T17:00:05+00:00"))
    again.on_snapshot(snapshot(3, (0, 0), state="paused"))
    assert [a["text"] for a in again.tables[4].tile()["alerts"] if a["code"] == "paused"] == [
        "paused at the table at 22:30:05"]


def test_a_pause_reason_must_be_text(tmp_path: Path) -> None:
    director, _ = make(tmp_path)
    with pytest.raises(PayloadError, match="reason"):
        director.send("pause", {"reason": 7}, [4])
    director.send("pause", {"reason": "lunch"}, [4])


def test_events_for_a_table_without_a_key_do_not_create_it(tmp_path: Path) -> None:
    """`GET /events?table=123456789` (no key needed to watch) made table 123456789 appear in the hall."""
    import asyncio
    import json

    from aiohttp.test_utils import TestClient, TestServer

    from tournament.director.access import DirectorGuard
    from tournament.director.app import create_app

    director, _ = make(tmp_path)
    director.on_event(event(0))

    async def run() -> tuple[dict[str, Any], list[int]]:
        async with TestClient(TestServer(create_app(director, DirectorGuard(None)))) as client:
            response = await client.get("/events?table=123456789")
            line, kind = b"", b""
            while not (line.startswith(b"data:") and kind == b"event: tiles\n"):
                if line.startswith(b"event:"):
                    kind = line
                line = await response.content.readline()
            response.close()
            tables = await (await client.get("/api/tables")).json()
            return json.loads(line[5:])[0], [t["table"] for t in tables]

    # In a thread of its own: a test run before this one may leave an event loop running in this thread
    # (asyncio.run then refuses), and the coroutine would be left never awaited.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        first, tables = pool.submit(lambda: asyncio.run(run())).result(timeout=60)
    assert first["table"] == 123456789 and first["players"] == []  # shown empty to the page that asked
    assert tables == [4] and 123456789 not in director.tables


def test_a_refused_commands_message_is_cleared_with_the_next_game(tmp_path: Path) -> None:
    director, _ = make(tmp_path)
    director.on_event(event(0))
    sent = director.send("resume", {}, [4])
    director.on_ack(AckMessage(4, sent.id, False, "the game has ended", "wrong_state"))
    assert [a["text"] for a in director.tables[4].tile()["alerts"] if a["code"] == "refused"] == [
        "resume: the game has ended"]
    director.on_event(event(0, game=2))
    assert [a for a in director.tables[4].tile()["alerts"] if a["code"] == "refused"] == []
