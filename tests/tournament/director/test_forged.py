"""What a table's own broker login can forge, on a real Mosquitto (issue 24 rows 3 and 4): a snapshot with any
scores and a seq far ahead, a game header for a game the table never played. Results come from the replayed
events, the tile stays on the table's real game, and the director can reset a table's view."""

from __future__ import annotations

import threading
from typing import Any

import paho.mqtt.client as paho
import pytest

from tests.tournament.director.conftest import EVENT, settings
from tournament import mqtt, topics
from tournament.acl import table_user
from tournament.payloads import EventMessage, SnapshotMessage
from tournament.testing.simhall import SimTable

pytestmark = pytest.mark.slow


class Forger:
    """A client on one table's login, as someone who copied that table's credentials file."""

    def __init__(self, broker: Any, table: int) -> None:
        self.client = mqtt.make_client(settings(broker, table_user(table)), f"forger-{table}")
        self.ready = threading.Event()
        self.client.on_connect = lambda *a: self.ready.set()
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert self.ready.wait(15)

    def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(15)
        assert info.rc == paho.MQTT_ERR_SUCCESS

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_forged_snapshot_changes_no_result(director_server: Any, sim_tables: Any, broker: Any, wait: Any) -> None:
    (table,) = sim_tables([7])
    server = director_server()
    table.play("8D QUIZ", 30)
    table.play("9D AB", 5)
    table.end()
    director = server.director
    wait(lambda: server.call(lambda: getattr(director.tables.get(7), "snapshot", {}).get("state") == "ended"),
         what="the real end")
    snap = table.snapshot()
    fake = dict(snap, players=[dict(snap["players"][0], score=1), dict(snap["players"][1], score=999)],
                result={"winners": [1], "reason": "score"})
    forger = Forger(broker, 7)
    try:
        forger.publish(topics.snapshot(EVENT, 7), SnapshotMessage(7, table.game, 999, fake).to_bytes(), retain=True)
        wait(lambda: server.call(lambda: getattr(director._waiting.get(7), "seq", None)) == 999,
             what="the forged snapshot at the director")
    finally:
        forger.stop()
    (record,) = server.call(director.records)
    assert record.scores == [30, 5] and record.winners == [0]
    assert [p["score"] for p in server.call(lambda: director.tables[7].tile())["players"]] == [30, 5]
    # the seq ahead is a gap the director asks the table about (the table has nothing past its end)
    wait(lambda: server.link.receiver.stats.replay_requests > 0, what="a replay asked of the table")


def header(table: SimTable, game: int) -> bytes:
    real = table.journal[1][0]
    return EventMessage(table.number, game, 0, "game", dict(real.data), 0.0, real.at).to_bytes()


def test_a_forged_header_for_another_game_does_not_move_the_tile(director_server: Any, sim_tables: Any,
                                                                  broker: Any, wait: Any) -> None:
    from tests.tournament.director.test_app import Client

    (table,) = sim_tables([9])
    server = director_server(state="hall")
    director = server.director
    table.play("8D QUIZ", 30)
    def scores() -> Any:
        return server.call(lambda: 9 in director.tables and [p["score"] for p in director.tables[9].tile()["players"]])

    wait(lambda: scores() == [30, 0], what="the first move")
    forger = Forger(broker, 9)
    try:
        forger.publish(topics.events(EVENT, 9), header(table, 54))
        # the director asks the table for its game 2 (the journal numbers games one after the other): none
        wait(lambda: server.call(lambda: [c.args for c in director.commands.values() if c.cmd == "replay"]) ==
             [{"game": 2, "from": 0, "to": 0}], what="game 2's header asked of the table")
        table.play("9D AB", 5)
        wait(lambda: server.call(lambda: [p["score"] for p in director.tables[9].tile()["players"]]) == [30, 5],
             what="the real game's next move on the tile")
        assert server.call(lambda: director.tables[9].game) == 1
        assert [r.number for r in server.call(director.records)] == [1]
        server.stop()
        again = director_server(state="hall")  # a restart does not bring the forged game back
        assert again.call(lambda: again.director.tables[9].game) == 1
        # a forged header for the very next game cannot be told from the table's own: the director resets
        forger.publish(topics.events(EVENT, 9), header(table, 2))
        wait(lambda: again.call(lambda: again.director.tables[9].game) == 2, what="the forged next game")
    finally:
        forger.stop()
    client = Client(again.url)
    status, body = client.post("/api/table/9/reset", {}, key="hall-key-2026")
    assert status == 200 and body["forgotten"] == [1, 2, 54]
    table.play("10D ZO", 11)  # the table's next event: its game comes back from its journal, whole
    wait(lambda: again.call(lambda: (again.director.tables[9].game,
                                     [p["score"] for p in again.director.tables[9].tile()["players"]])) == (1, [41, 5]),
         what="the real game back on the tile after the reset")
    assert [(r.number, r.scores) for r in again.call(again.director.records)] == [(1, [41, 5])]
    status, body = Client(again.url).post("/api/table/9/reset", {}, key="wrong-key-123")
    assert status == 403
