"""Director commands through a real Mosquitto to live tables: applied through the journal, acknowledged."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.journal import Journal
from referee.sim.table import SimulatedTable, default_setup
from referee.tournament_link import TournamentLink
from tournament.acl import table_user
from tournament.settings import BrokerSettings, TableLinkSettings
from tournament.testing.broker import Broker

EVENT = "test-open"


@pytest.fixture
def live_tables(broker: Broker, tmp_path: Path) -> Iterator[Callable[[int], tuple[SimulatedTable, TournamentLink]]]:
    made: list[tuple[SimulatedTable, TournamentLink]] = []

    def make(n: int) -> tuple[SimulatedTable, TournamentLink]:
        journal = Journal(tmp_path / f"table{n}.sqlite3")
        table = SimulatedTable(default_setup(table=f"Table {n}"), words=["QUIZ"], journal=journal)
        user = table_user(n)
        settings = TableLinkSettings(BrokerSettings(broker.host, broker.port, username=user, password=f"pw-{user}"),
                                     EVENT, n)
        link = TournamentLink(table, journal, settings, name=f"Table {n}")
        link.start()
        made.append((table, link))
        return table, link

    yield make
    for _, link in made:
        link.stop()


def test_pause_all_reaches_every_table_and_each_acknowledges(director: Any, live_tables: Any) -> None:
    tables = [live_tables(n)[0] for n in (1, 2, 3)]
    director.wait(lambda: all(director.status.get(n) == "online" for n in (1, 2, 3)), "three tables online")
    start = director.send(None, "start")
    director.wait(lambda: director.acked.get(start) == {1, 2, 3}, "acks of the start")
    pause = director.send(None, "pause")
    director.wait(lambda: director.acked.get(pause) == {1, 2, 3}, "the acks of pause-all")
    for t in tables:
        t.poll()
        assert t.snapshot()["state"] == "paused"
    # every table acknowledged with the journal row the command became; it reached the director as an event too
    assert director.acks[pause].ok
    director.wait(lambda: {e.table for e in director.events if e.kind == "director" and e.data["id"] == pause}
                  == {1, 2, 3}, "each table's journaled pause on its event stream")
    ev = next(e for e in director.events if e.kind == "director" and e.data["id"] == pause)
    assert ev.data["by"] == "director" and ev.data["cmd"] == "pause"


def online(director: Any, *tables: int) -> None:
    """A table says "online" once it has subscribed to its commands."""
    director.wait(lambda: all(director.status.get(n) == "online" for n in tables), f"tables {tables} online")


def test_a_refused_command_is_acknowledged_with_the_reason(director: Any, live_tables: Any) -> None:
    live_tables(1)
    online(director, 1)
    cid = director.send(1, "hold", {"hold": True})
    director.wait(lambda: cid in director.acks, "the ack")
    ack = director.acks[cid]
    assert not ack.ok and "no challenge to hold" in (ack.error or "")
    assert ack.code == "no_challenge_to_hold", "the table's own refusal code, for the director's page to word"


def test_the_same_command_id_twice_is_applied_once(director: Any, live_tables: Any) -> None:
    table, _ = live_tables(2)
    online(director, 2)
    first = director.send(2, "adjust_time", {"player": 0, "seconds": 30}, command_id="same-id")
    director.wait(lambda: first in director.acks, "the first ack")
    director.acks.clear()
    director.send(2, "adjust_time", {"player": 0, "seconds": 30}, command_id="same-id")
    director.wait(lambda: "same-id" in director.acks, "the second ack")
    assert director.acks["same-id"].ok
    assert table.snapshot()["players"][0]["clock"]["remaining_ms"] == 25 * 60_000 + 30_000


def test_set_players_and_the_snapshot_reach_the_director(director: Any, live_tables: Any) -> None:
    table, _ = live_tables(3)
    online(director, 3)
    cid = director.send(3, "set_players", {"players": ["Carla", "Dirk"], "first": 0})
    director.wait(lambda: cid in director.acks, "the ack")
    ack = director.acks[cid]
    assert ack.ok and ack.game == table.game_id and ack.seq is not None
    director.wait(lambda: any(e.kind == "game" and e.game == table.game_id for e in director.events),
                  "the new game's header")
    header = next(e for e in director.events if e.kind == "game" and e.game == table.game_id)
    assert header.data["players"] == ["Carla", "Dirk"]


def test_a_command_sent_again_after_the_table_restarted_is_not_applied_twice(tmp_path: Path) -> None:
    """The publisher's memory of command ids is gone after a restart; the journal still has the command."""
    from tournament.payloads import CommandMessage

    journal = Journal(tmp_path / "games.sqlite3")
    table = SimulatedTable(default_setup(), words=["QUIZ"], journal=journal)
    table.control("start", {})
    settings = TableLinkSettings(BrokerSettings("127.0.0.1", 1), EVENT, 1)
    link = TournamentLink(table, journal, settings)  # never started: commands applied directly
    cmd = CommandMessage("c-7", "director", "adjust_time", {"player": 0, "seconds": 60})
    assert link._command(cmd) == link._command(cmd)
    assert table.snapshot()["players"][0]["clock"]["remaining_ms"] == 25 * 60_000 + 60_000


def test_a_german_table_refuses_a_directors_command_in_german(tmp_path: Path) -> None:
    """The refusal the director shows on the table's tile is said in the table's language, as the page says it."""
    from tournament.outbox import CommandRefused
    from tournament.payloads import CommandMessage

    journal = Journal(tmp_path / "games.sqlite3")
    table = SimulatedTable(default_setup(language="de"), words=["QUIZ"], journal=journal)
    link = TournamentLink(table, journal, TableLinkSettings(BrokerSettings("127.0.0.1", 1), EVENT, 1))
    with pytest.raises(CommandRefused) as refused:
        link._command(CommandMessage("c-8", "director", "hold", {"hold": True}))
    assert refused.value.code == "no_challenge_to_hold"
    assert str(refused.value).endswith("es gibt keine Anzweiflung zum Anhalten (der Tisch ist vor dem Start)")


def test_a_points_adjustment_through_the_broker_is_journaled_with_who_sent_it_and_checks_as_gcg(
        director: Any, live_tables: Any, tmp_path: Path) -> None:
    """correct_score by points: the table applies it through its journal, acknowledges it with the journal row,
    and its record replays through `referee gcg check` with the adjustment in it."""
    from game.gcg import parse_gcg
    from game.gcg_check import check_record
    from game.rules import naspa

    table, _ = live_tables(1)
    online(director, 1)
    table.control("start", {})
    table.play("8E QUIZ")
    cid = director.send(1, "correct_score", {"player": 1, "points": -10, "reason": "ruling: phone rang"})
    director.wait(lambda: cid in director.acks, "the ack")
    ack = director.acks[cid]
    assert ack.ok and ack.game == table.game_id and ack.seq is not None
    assert [p["score"] for p in table.snapshot()["players"]] == [44, -10]
    director.wait(lambda: any(e.kind == "director" and e.data["id"] == cid for e in director.events),
                  "the journaled command on the event stream")
    ev = next(e for e in director.events if e.kind == "director" and e.data["id"] == cid)
    assert (ev.seq, ev.data["by"], ev.data["cmd"]) == (ack.seq, "director", "correct_score")
    assert ev.data["args"] == {"player": 1, "points": -10, "reason": "ruling: phone rang"}
    refused = director.send(1, "correct_score", {"player": 0, "points": 0, "reason": "nothing"})
    director.wait(lambda: refused in director.acks, "the refusal")
    assert not director.acks[refused].ok and "not 0" in (director.acks[refused].error or "")
    result = check_record(parse_gcg(table.gcg()), naspa())
    assert result.mismatches == [] and result.plays == 2
