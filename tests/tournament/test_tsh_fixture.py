"""A tourney.js with numbered divisions, byes, a late entrant, p12 3 and 4, `undefined` (the fixture written
from tsh's documentation, tests/tournament/fixtures/tourney-numbered.js) from pairings to the lines tsh takes:
the director sends the round, replays the games' events and writes `a 1 1`, `a 1 2` blocks in the event's
'both' entry mode with each division's bye."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.tournament.test_tsh_scores import addscore
from tournament.director.core import Director
from tournament.director.store import Store
from tournament.pairings import parse_tourney_js, tsh_round
from tournament.payloads import EventMessage
from tournament.testing.simhall import SimReplayer
from tournament.tsh_scores import round_byes

FIXTURE = Path(__file__).parent / "fixtures" / "tourney-numbered.js"


def test_numbered_divisions_from_pairings_to_tsh_lines(tmp_path: Path) -> None:
    tourney = parse_tourney_js(FIXTURE.read_text(encoding="utf-8"))
    assert sorted(tourney.divisions) == ["1", "2"]
    games, bye_names = tsh_round(tourney, 1)
    assert [(g.division, g.table, g.players, g.first) for g in games] == [
        ("1", 1, ("Ada Ampleford", "Bo Bexley"), 0),
        ("1", 2, ("Cy Carrow", "Dee Dunmore"), None),  # p12 3: a draw of tiles decides at the table
        ("2", 31, ("Gil Gorran", "Flo Fairlie"), 0)]  # p12 2 for player 1: player 2 starts; config tables
    assert bye_names == ["1 Ed Eastleigh", "2 Hal Hatherop"]  # the late entrant has neither game nor bye
    assert [(g.table, g.first) for g in tsh_round(tourney, 2)[0]] == [(1, None), (2, None)]  # p12 4: not known
    sent: list[Any] = []
    director = Director("numbered", Store(tmp_path / "d.sqlite3"), replayer=SimReplayer())
    director.sender = lambda *args: sent.append(args)
    director.send_pairings(games, round_byes(tourney, 1))
    assert len(sent) == 3
    scores = {1: (401, 377), 2: (390, 388), 31: (420, 398)}
    for n, game in enumerate(games, start=1):
        header = {"name": f"Table {game.table}", "players": list(game.players), "setup": {"edition": "english"}}
        director.on_event(EventMessage(game.table, n, 0, "game", header, 0.0, "t"))
        for seq, score in enumerate(scores[game.table], start=1):
            director.on_event(EventMessage(game.table, n, seq, "control",
                                           {"action": "play", "notation": "8D QUIZ", "score": score}, 1.0, "t"))
        director.on_event(EventMessage(game.table, n, 3, "control", {"action": "end"}, 2.0, "t"))
    text, notes = director.tsh_text(1, "both")
    assert notes == []
    assert addscore(text, "both") == {"1": [(1, 401, 2, 377, 24), (3, 390, 4, 388, 2), (5, 50)],
                                      "2": [(2, 420, 1, 398, 22), (3, 50)]}
    assert text.startswith("a 1 1\n")
    director.store.close()
