"""The rule options a configuration sets, through `TableSetup` into the engine's rule set, and played on
the simulated table (the real machine and engine): each option is seen to change the game, and a game
resumed from the journal keeps the rules it started with."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.rules import EndRackRule
from game.tiles import TileSet
from referee.config import parse_config
from referee.journal import Journal
from referee.parts import table_setup
from referee.sim.table import SimulatedTable, default_setup
from referee.table.live import LiveTable
from referee.table.machine import TableMachine
from referee.table.rules import EveryWord, TableRules, table_rules
from referee.table.setup import TableSetup


def _setup(**game: object) -> TableSetup:
    board = "emulator://" if game.get("kind", "standard") == "standard" else "emulator://9x9"  # the game's board
    return table_setup(parse_config({"game": game, "web": {"enabled": False},
                                                "sensors": {"board": board}}))


# --- end racks -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "rule"), [
    ({}, EndRackRule.DOUBLE_TO_OUT),  # English, two players: NASPA
    ({"players": ["A", "B", "C"]}, EndRackRule.EACH_WAY),  # Hasbro manuals
    ({"edition": "german"}, EndRackRule.EACH_WAY),  # German manual
    ({"edition": "german", "end_racks": "double"}, EndRackRule.DOUBLE_TO_OUT),  # German tournaments
    ({"end_racks": "each-way"}, EndRackRule.EACH_WAY),
])
def test_end_racks_from_the_configuration(game: dict[str, object], rule: EndRackRule) -> None:
    assert table_rules(_setup(**game), EveryWord()).ruleset.end_racks is rule


def _tiny_bag(setup: TableSetup) -> SimulatedTable:
    """The table's own rules for `setup`, with a bag of 16 A's worth 1 each, so a game goes out in three plays."""
    t = SimulatedTable(setup, words=None)
    ruleset = replace(table_rules(setup, EveryWord()).ruleset, tiles=TileSet("tiny", "de", {"A": 16}, {"A": 1}))
    t.machine = TableMachine(setup, TableRules(ruleset, EveryWord()))
    t.control("start", {})
    return t


def _go_out(t: SimulatedTable) -> dict:
    t.play("8H AA")
    t.play("I7 A.")
    return t.play("9G AAAAAAA")  # Anna goes out; Ben keeps 6 A's (6 points)


def test_german_table_with_double_end_racks_gives_twice_the_rack_to_the_player_out() -> None:
    base = default_setup(edition="german", challenge_window_ms=0)
    each_way = _go_out(_tiny_bag(base))
    assert [(m["player"], m["score"]) for m in each_way["moves"] if m["kind"] == "end"] == [(1, -6), (0, 6)]
    double = _go_out(_tiny_bag(replace(base, end_racks="double")))
    assert double["state"] == "ended"
    assert [(m["player"], m["score"]) for m in double["moves"] if m["kind"] == "end"] == [(0, 12)]
    assert double["players"][0]["score"] == each_way["players"][0]["score"] + 6
    assert double["players"][1]["score"] == each_way["players"][1]["score"] + 6


def test_a_resumed_game_keeps_its_rule_options_though_the_file_changed(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "games.sqlite3")
    setup = replace(_setup(edition="german", end_racks="double"), table="T")
    t = SimulatedTable(setup, journal=journal)
    t.control("start", {})
    edited = _setup(edition="german")  # the file now says nothing: each-way; the game in play keeps double
    resumed = LiveTable.resume(journal, lambda s: table_rules(s, EveryWord()))
    assert resumed is not None and resumed.machine.setup == setup != edited
    assert resumed.machine.rules.ruleset.end_racks is EndRackRule.DOUBLE_TO_OUT


# --- the challenge bonus per word ------------------------------------------------------------------------

WORDS = ["QUIZ", "QI", "ZA", "AS", "IS", "ZAS"]


def _challenged(words: int | None, **game: object) -> dict:
    t = SimulatedTable(replace(_setup(**game), players=("Anna", "Ben")), words=WORDS)
    t.control("start", {})
    t.play("8E QUIZ")  # 44 (see tests/referee/table/test_machine.py)
    t.control("accept", {})
    t.play("9H AS")  # Ben: AS on H9-I9 forms ZA down (10 + 1) and AS (1 + S 1 on I9, a double letter): 11 + 3 = 14
    return t.control("challenge", {"player": 0} if words is None else {"player": 0, "words": words})


def test_a_two_word_challenge_gives_ten_points_under_five_point_per_word() -> None:
    snap = _challenged(2, challenge="five-point", challenge_bonus_per_word=True)
    assert snap["moves"][-1]["kind"] == "challenge" and snap["moves"][-1]["score"] == 10
    assert snap["players"][1]["score"] == 14 + 10


def test_per_challenge_the_bonus_is_paid_once_and_one_word_is_the_default() -> None:
    assert _challenged(2, challenge="five-point")["players"][1]["score"] == 14 + 5
    assert _challenged(None, challenge="ten-point", challenge_bonus_per_word=True)["players"][1]["score"] == 14 + 10


def test_a_challenge_cannot_name_more_words_than_the_play_formed() -> None:
    from referee.table.api import ControlError

    t = SimulatedTable(_setup(challenge="five-point", challenge_bonus_per_word=True), words=WORDS)
    t.control("start", {})
    snap = t.play("8E QUIZ")
    assert snap["pending"]["challenge"]["words"] == 1
    with pytest.raises(ControlError, match="words is how many of the play's 1 words are challenged, 1 to 1, not 2"):
        t.control("challenge", {"player": 1, "words": 2})
    assert t.snapshot()["state"] == "challenge"  # refused: nothing changed


# --- losing on time --------------------------------------------------------------------------------------

def _clocked(on_max_overtime: str) -> SimulatedTable:
    setup = default_setup(minutes_per_player=1.0, overtime_limit_minutes=2.0, on_max_overtime=on_max_overtime)
    t = SimulatedTable(setup, words=WORDS)
    t.control("start", {})
    t.play("8E QUIZ")  # Anna 44 in no time
    t.control("accept", {})
    return t


def test_a_game_lost_on_time_ends_at_the_limit_and_the_loser_cannot_win() -> None:
    t = _clocked("lose")
    assert t.machine.rules.ruleset.overtime_loss_minutes == 2.0
    t.play("9H AS")  # Ben 14
    t.control("accept", {})
    snap = t.advance(60 + 120 - 1)  # Anna thinks: 1:59 over, still playing
    assert snap["state"] == "turn" and snap["players"][0]["clock"]["remaining_ms"] == -119_000
    snap = t.advance(30)  # the clock stops her at 2:00 over: the game is over
    assert snap["state"] == "ended" and "lost_on_time" in [a["code"] for a in snap["alerts"]]
    assert snap["players"][0]["clock"] == {"remaining_ms": -120_000, "running": False}
    assert [p["lost_on_time"] for p in snap["players"]] == [True, False]
    # 2 started minutes over: 20 points off Anna, who still leads (44 - 20 = 24 > 14) but lost on time
    assert snap["moves"][-1]["notation"] == "(time)" and snap["moves"][-1]["score"] == -20
    assert [p["score"] for p in snap["players"]] == [24, 14]
    assert t.machine.game.winners() == [1]
    assert "lost on time, 2 minutes over" in t.machine.game.end_reason
    t.place("A1", "Q")
    assert t.press(0)["state"] == "ended"  # nothing more is played


def test_flag_calls_the_director_and_the_game_goes_on() -> None:
    t = _clocked("flag")
    assert t.machine.rules.ruleset.overtime_loss_minutes is None
    t.play("9H AS")
    t.control("accept", {})
    snap = t.advance(60 + 120 + 30)
    assert snap["state"] == "turn" and "max_overtime" in [a["code"] for a in snap["alerts"]]
    assert snap["players"][0]["clock"]["running"] and not snap["players"][0]["lost_on_time"]


def test_a_game_lost_on_time_is_lost_again_when_resumed_from_the_journal(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "games.sqlite3")
    setup = default_setup(minutes_per_player=1.0, overtime_limit_minutes=0.5, on_max_overtime="lose")
    t = SimulatedTable(setup, words=WORDS, journal=journal)
    t.control("start", {})
    t.place("H8", "Q")  # Anna lays a tile and thinks too long; the tile is not scored
    t.advance(60 + 31)
    assert t.snapshot()["state"] == "ended"
    row = journal.game(t.game_id)
    assert row is not None and row.ended_utc is not None and row.setup["on_max_overtime"] == "lose"
    again = TableMachine(TableSetup.from_dict(row.setup), table_rules(TableSetup.from_dict(row.setup), EveryWord()))
    for ev in journal.events(t.game_id):
        again.apply(ev)
    assert again.state == "ended" and again.game.lost_on_time == 0 and again.game.scores == [-10, 0]


# --- Scramble with taught dice ---------------------------------------------------------------------------

def _dice_file(path: Path, o_value: int) -> Path:
    """The shipped English dice, taught as 'mine' with O worth `o_value` on every die that shows it."""
    from game.scramble.dice import DiceSet, Die, Face, load_dice_set

    shipped = load_dice_set("english")
    dice = tuple(Die(tuple(Face("O", o_value) if f.letter == "O" else f for f in die.faces)) for die in shipped.dice)
    path.write_text(DiceSet("mine", "en", dice).to_json(), encoding="utf-8")
    return path


def test_a_scramble_table_rolls_the_taught_dice_of_its_file(tmp_path: Path) -> None:
    setup = replace(_setup(kind="scramble", dice=str(_dice_file(tmp_path / "mine.json", 3))), clock_mode="none")
    assert setup.dice == str(tmp_path / "mine.json") and '"name": "mine"' in setup.dice_set
    t = SimulatedTable(setup, words=["OAT"])
    t.control("start", {})
    assert t.machine.game.dice_set.name == "mine"  # type: ignore[attr-defined]
    t.roll("OATZEEE")
    # 5D OAT on the centre double word square: O 3 (taught; the shipped dice say 1) + A 1 + T 1 = 5, doubled: 10
    assert t.play("5D OAT")["moves"][-1]["score"] == 10


def test_a_resumed_scramble_game_keeps_its_dice_though_the_file_changed(tmp_path: Path) -> None:
    path = _dice_file(tmp_path / "mine.json", 3)
    setup = replace(_setup(kind="scramble", dice=str(path)), clock_mode="none", table="T")
    journal = Journal(tmp_path / "games.sqlite3")
    t = SimulatedTable(setup, words=["OAT"], journal=journal)
    t.control("start", {})
    t.roll("OATZEEE")
    _dice_file(path, 2)  # someone re-teaches the dice while the game is on
    resumed = LiveTable.resume(journal, lambda s: table_rules(s, EveryWord()))
    assert resumed is not None and resumed.machine.game.dice_set.value("O") == 3  # type: ignore[attr-defined]
    path.unlink()  # or removes the file: the journal holds the faces
    resumed = LiveTable.resume(journal, lambda s: table_rules(s, EveryWord()))
    assert resumed is not None and resumed.machine.game.dice_set.value("O") == 3  # type: ignore[attr-defined]
