"""A tournament table restarted between rounds (its Pi crashed after its game ended): it shows its finished
game again and waits for the director's next pairing, instead of starting a game of its file's placeholder
names; the hall tile keeps the finished result. The real table service, a real Mosquitto, the real director."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.service import ServiceParts, TableService
from referee.sim.parts import sim_config
from referee.table.rules import EveryWord
from tournament.acl import table_user
from tournament.pairings import Pairing
from tournament.settings import TableLinkSettings
from tournament.testing.broker import Broker

from .conftest import EVENT, settings

pytestmark = pytest.mark.slow


def _service(broker: Broker, state: Path) -> TableService:
    """Table 7 as its file says: the placeholders "Player 7" and "Player 8", a [tournament] section."""
    config = replace(sim_config(state_dir=state, web=False, fusion="sensors", clock_mode="none",
                                players=("Player 7", "Player 8")),
                     tournament=TableLinkSettings(settings(broker, table_user(7)), EVENT, 7))
    return TableService(ServiceParts(config=config, lexicon=EveryWord(), web=False))


def _end(service: TableService) -> dict[str, Any]:
    t = service.table
    t.control("start", {})
    for turn in range(6):
        t.press_clock(turn % 2)  # six scoreless turns end the game
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    snap: dict[str, Any] = dict(t.control("racks", {"player": 1, "tiles": "BCDFGHJ"}))
    assert snap["state"] == "ended"
    return snap


def test_a_table_restarted_after_its_game_keeps_its_result_and_waits_for_the_next_pairing(
        broker: Broker, director_server: Any, wait: Any, tmp_path: Path) -> None:
    server = director_server()
    first = _service(broker, tmp_path / "table7")
    try:
        first.start()
        wait(lambda: server.call(lambda: 7 in server.director.tables and server.director.tables[7].online),
             what="table 7 online")
        server.call(lambda: server.director.send_pairings([Pairing(1, 7, "A", ("Anna Roth", "Bernd Kurz"), 1)]))
        wait(lambda: first.table.snapshot()["players"][0]["name"] == "Bernd Kurz", what="the round's players")
        ended = _end(first)
        game = first.table.game_id
        wait(lambda: server.call(lambda: server.director.tables[7].tile()["state"]) == "ended",
             what="the finished game on the hall")
    finally:
        first.close()  # the Pi goes down between rounds

    again = _service(broker, tmp_path / "table7")
    try:
        snap = again.table.snapshot()
        assert again.table.game_id == game and snap["state"] == "ended"
        assert [p["name"] for p in snap["players"]] == ["Bernd Kurz", "Anna Roth"]  # not "Player 7 v Player 8"
        assert snap["result"] == ended["result"]
        again.start()
        wait(lambda: server.call(lambda: server.director.tables[7].online), what="table 7 back")
        tile = server.call(lambda: server.director.tables[7].tile())
        assert (tile["game"], tile["state"], tile["round"]) == (game, "ended", 1)
        assert [p["name"] for p in tile["players"]] == ["Bernd Kurz", "Anna Roth"]
        # the director's next pairing starts the next game at once
        server.call(lambda: server.director.send_pairings([Pairing(2, 7, "A", ("Cleo Hahn", "Anna Roth"), 0)]))
        wait(lambda: again.table.snapshot()["players"][0]["name"] == "Cleo Hahn", what="round 2's players")
        assert again.table.game_id == game + 1 and again.table.snapshot()["state"] == "waiting"
    finally:
        again.close()
