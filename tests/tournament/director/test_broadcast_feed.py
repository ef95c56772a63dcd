"""`/tourney.js` end to end on a real Mosquitto: tsh's file sent as a round's pairings, the tables play and end
their games, and the director serves tsh's file back with those scores, read by the project's reader and by
a second reader written from tsh's format (tests/tournament/broadcast/tsh_reader.py)."""

from __future__ import annotations

import importlib.util
import json
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tournament.pairings import parse_tourney_js, tourney_data
from tournament.testing.simhall import SimTable

from .test_app import Client

FIXTURES = Path(__file__).parents[1] / "fixtures"
pytestmark = pytest.mark.slow


def second_reader() -> ModuleType:
    path = Path(__file__).parents[1] / "broadcast" / "tsh_reader.py"
    spec = importlib.util.spec_from_file_location("tsh_reader", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_feed_carries_the_scores_of_the_games_the_tables_ended(director_server: Any, sim_tables: Any,
                                                                   wait: Any) -> None:
    tables: list[SimTable] = sim_tables([1, 2, 11, 12])
    server = director_server()
    client = Client(server.url)
    text = (FIXTURES / "tourney.js").read_text(encoding="utf-8")
    status, body = client.post("/api/pairings", {"format": "tsh", "text": text, "round": 2, "offsets": {"B": 10}},
                               key="hall-key-2026")
    assert status == 200, body
    wait(lambda: all(t.game == 2 for t in tables), what="every table to start the round's game")
    by_table = {t.number: t for t in tables}
    finals = {1: (30, 12), 2: (44, 50), 11: (25, 25)}  # table 12 plays on
    for number, (first, second) in finals.items():
        table = by_table[number]
        table.play("8D QUIZ", first)
        table.play("9D AB", second)
        table.end()
    by_table[12].play("8D ZA", 11)
    wait(lambda: server.call(lambda: sum(s.snapshot.get("state") == "ended"
                                         for s in server.director.tables.values())) == 3, what="three games ended")
    with urllib.request.urlopen(server.url + "/tourney.js", timeout=10) as response:
        assert response.headers["Content-Type"].startswith("application/javascript")
        feed = response.read().decode("utf-8")
    ours = parse_tourney_js(feed)
    theirs = second_reader().scores_of(second_reader().read_tsh(feed))
    games = {g["table"]: g for g in body["games"]}
    for number, scores in finals.items():
        game = games[number]
        for player, score in zip(game["ids"], scores, strict=True):
            assert ours.divisions[game["division"]][player].scores[1] == score
            assert theirs[(game["division"], player)][1] == score
    for player in games[12]["ids"]:
        assert len(ours.divisions["B"][player].scores) < 2  # a game still played has no score yet
    # the rest is the file as loaded: players, pairings, boards and firsts
    assert json.dumps(tourney_data(feed)["config"]) == json.dumps(tourney_data(text)["config"])
    assert [p.pairings for p in ours.divisions["A"].values()] == \
        [p.pairings for p in parse_tourney_js(text).divisions["A"].values()]
