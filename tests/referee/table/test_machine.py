"""Scenario tests of the table state machine, driven through the simulated table (the real machine,
engine and journal; a virtual board and a manual clock). Expected scores are worked out by hand
from the standard layout in the comments; the table must get them from the engine."""

from __future__ import annotations

import pytest

from referee.sim.table import SimulatedTable, default_setup
from referee.table.api import ControlError
from referee.table.picture import Doubt

WORDS = ["QUIZ", "ZA", "ZAS", "QI", "AS", "IS", "ZO", "OE", "ZOA"]


def _table(**changes: object) -> SimulatedTable:
    t = SimulatedTable(default_setup(**changes), words=WORDS)
    t.control("start", {})
    return t


def _codes(snap: dict) -> list[str]:
    return [a["code"] for a in snap["alerts"]]


# 8E QUIZ: Q 10 + U 1 + I 1 + Z 10 = 22, H8 is the start square (double word): 44.
# H8 .A (ZA down from the Z): Z 10 + A 1 on H9 (no premium) = 11.


def test_play_is_scored_by_the_engine_and_the_window_closes_into_the_next_turn() -> None:
    t = _table()
    snap = t.play("8E QUIZ")
    assert snap["state"] == "challenge"
    assert snap["moves"][-1] == {"player": 0, "kind": "play", "notation": "8E QUIZ", "words": ["QUIZ"],
                                 "score": 44, "total": 44, "square": "E8", "across": True, "tiles": 4}
    assert snap["last_play"] == ["E8", "F8", "G8", "H8"]
    assert snap["players"][1]["on_turn"] and snap["players"][1]["clock"]["running"]
    snap = t.advance(15)
    assert snap["state"] == "turn"
    assert snap["board"][7] == "....QUIZ......."
    assert snap["bag"] == 100 - 14 - 4
    assert snap["players"][0]["rack_count"] == 7
    snap = t.play("H8 .A")
    assert snap["players"][1]["score"] == 11


def test_the_next_player_laying_a_tile_closes_the_challenge_window() -> None:
    t = _table()
    t.play("8E QUIZ")
    t.place("H9", "A")
    snap = t.snapshot()
    assert snap["state"] == "turn" and snap["players"][1]["on_turn"]
    assert t.press()["moves"][-1]["notation"] == "H8 .A"


def test_pass_is_a_commit_with_no_new_tiles() -> None:
    t = _table()
    snap = t.press()
    assert snap["moves"][-1]["kind"] == "pass" and snap["players"][1]["on_turn"]


def test_a_blank_is_asked_for_then_scored_as_zero() -> None:
    t = _table()
    t.place_word("8E QUIz")
    snap = t.press()
    assert snap["state"] == "blank" and snap["pending"]["blanks"] == ["H8"]
    assert "blank_letter" in _codes(snap)
    with pytest.raises(ControlError, match="no blank waits"):
        t.control("blank", {"square": "G8", "letter": "I"})
    snap = t.control("blank", {"square": "H8", "letter": "z"})
    # Q 10 + U 1 + I 1 + blank 0, double word: 24.
    assert snap["moves"][-1]["score"] == 24
    assert snap["board"][7][7] == "z"


def test_a_doubtful_letter_is_asked_never_scored_silently() -> None:
    t = _table()
    t.place_word("8E QUI")
    t.place_doubtful("H8", Doubt("camera_unsure", {"square": "H8", "letter": "Z", "confidence": 0.6}))
    snap = t.press()
    assert snap["state"] == "blank" and snap["pending"]["letters"] == ["H8"]
    assert "doubtful_letter" in _codes(snap)
    assert snap["players"][0]["score"] == 0
    snap = t.control("correct", {"square": "H8", "letter": "Z"})
    assert snap["moves"][-1]["score"] == 44


def test_an_illegal_placement_returns_the_turn_to_the_mover() -> None:
    t = _table()
    t.place("H8", "Q")
    t.place("I9", "I")
    snap = t.press()
    assert snap["state"] == "turn" and snap["players"][0]["on_turn"]
    assert snap["players"][0]["clock"]["running"]
    alert = next(a for a in snap["alerts"] if a["code"] == "illegal_play")
    assert "H8" in alert["squares"] and "one line" in alert["text"]
    t.lift("I9")
    t.place("I8", "I")
    assert t.press()["moves"][-1]["notation"] == "8H QI"


def test_a_phony_challenged_off_must_be_taken_back_before_play_goes_on() -> None:
    t = _table()
    t.place_word("8G ZQ")
    t.press()
    snap = t.control("challenge", {"player": 1})
    assert snap["state"] == "takeback"
    assert snap["pending"]["remove"] == ["G8", "H8"]
    assert snap["players"][0]["score"] == 0
    assert snap["moves"][-1]["kind"] == "withdrawn"
    t.lift("G8")
    assert t.snapshot()["state"] == "takeback"
    t.lift("H8")
    snap = t.snapshot()
    assert snap["state"] == "turn" and snap["players"][1]["on_turn"]


def test_a_good_play_challenged_under_double_costs_the_challenger_a_turn() -> None:
    t = _table()
    t.play("8E QUIZ")
    snap = t.control("challenge", {"player": 1})
    assert snap["players"][0]["on_turn"] and snap["state"] == "turn"
    assert [m["kind"] for m in snap["moves"]] == ["play", "lost_turn"]
    assert any(a["code"] == "challenge_good" for a in snap["alerts"])


def test_five_point_rule_gives_the_challenged_player_five() -> None:
    t = _table(challenge="five-point")
    t.play("8E QUIZ")
    snap = t.control("challenge", {"player": 1})
    assert snap["players"][0]["score"] == 49
    assert snap["moves"][-1]["kind"] == "challenge" and snap["players"][1]["on_turn"]


def test_void_refuses_a_phony_and_the_mover_plays_again() -> None:
    t = _table(challenge="void")
    t.place_word("8G ZQ")
    snap = t.press()
    assert snap["state"] == "takeback" and snap["moves"] == []
    assert "not_in_lexicon" in _codes(snap)
    t.lift("G8")
    t.lift("H8")
    snap = t.snapshot()
    assert snap["state"] == "turn" and snap["players"][0]["on_turn"]
    assert snap["players"][0]["clock"]["running"]
    assert t.play("8E QUIZ")["players"][0]["score"] == 44


@pytest.mark.parametrize(("language", "said"), [
    ("en", "ZQ not in the lexicon: take the tiles off G8, H8."),
    ("de", "ZQ nicht im Wörterbuch: bitte die Steine von G8, H8 nehmen."),
])
def test_void_names_the_phony_once_in_the_tables_language(language: str, said: str) -> None:
    t = _table(challenge="void", language=language)
    t.place_word("8G ZQ")
    snap = t.press()
    assert said in [a["text"] for a in snap["alerts"] if a["code"] == "not_in_lexicon"]


def test_a_german_table_says_why_a_play_is_refused_in_german() -> None:
    t = _table(language="de")
    t.place("G7", "A")
    t.place("H9", "B")
    snap = t.press()
    said = [a["text"] for a in snap["alerts"] if a["code"] == "illegal_play"]
    assert said == ["Kein gültiger Zug: G7, H9: die Steine liegen nicht in einer Reihe. "
                    "Steine korrigieren und die Uhr erneut drücken."]


def test_a_german_table_says_in_german_that_the_tiles_are_not_among_the_unseen_ones() -> None:
    t = _table(language="de")
    t.place("H8", "Q")
    t.place("I8", "Q")
    snap = t.press()
    said = [a["text"] for a in snap["alerts"] if a["code"] == "illegal_play"]
    assert said == ["Kein gültiger Zug: 8H QQ: nur noch 1 Q ungesehen. "
                    "Steine korrigieren und die Uhr erneut drücken."]
    t = _table(language="de")
    t.place_word("8B AAAAAAAA")
    said = [a["text"] for a in t.press()["alerts"] if a["code"] == "illegal_play"]
    assert len(said) == 1 and "8 Steine gelegt, aber" in said[0] and "hat nur 7" in said[0]


def test_auto_challenge_takes_a_phony_off_and_the_turn_is_lost() -> None:
    t = _table(challenge="auto")
    t.place_word("8G ZQ")
    snap = t.press()
    assert snap["state"] == "takeback"
    assert [m["kind"] for m in snap["moves"]] == ["play", "withdrawn"]
    t.lift("G8")
    t.lift("H8")
    assert t.snapshot()["players"][1]["on_turn"]


def test_exchange_is_declared_on_the_page_and_checked() -> None:
    t = _table()
    with pytest.raises(ControlError, match="1 to 7"):
        t.control("exchange", {"count": 0})
    t.place("H8", "Q")
    with pytest.raises(ControlError, match="take your tiles off"):
        t.control("exchange", {"count": 3})
    t.lift("H8")
    snap = t.control("exchange", {"count": 3})
    assert snap["moves"][-1] == {"player": 0, "kind": "exchange", "notation": "-3", "words": [], "score": 0,
                                 "total": 0, "tiles": 3}
    assert snap["players"][1]["on_turn"]


def test_a_refused_action_changes_nothing() -> None:
    t = _table()
    before = t.snapshot()
    for action, params in [("challenge", {"player": 1}), ("racks", {"player": 0, "tiles": "A"}),
                           ("blank", {"square": "Z99", "letter": "A"}), ("fly", {}), ("start", {})]:
        with pytest.raises(ControlError):
            t.control(action, params)
    after = t.snapshot()
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in before.items() if k != "seq"}
    assert t.refused == 5


def test_a_tile_moved_outside_a_turn_is_an_alert_and_blocks_the_commit() -> None:
    t = _table()
    t.play("8E QUIZ")
    t.advance(15)
    t.lift("F8")
    snap = t.snapshot()
    alert = next(a for a in snap["alerts"] if a["code"] == "tile_moved")
    assert alert["squares"] == ["F8"] and alert["level"] == "error"
    t.place_word("H8 .A")
    snap = t.press()
    assert snap["state"] == "turn" and "commit_refused" in _codes(snap)
    assert snap["players"][0]["score"] == 44 and len(snap["moves"]) == 1
    t.place("F8", "U")
    snap = t.press()
    assert "tile_moved" not in _codes(snap) and snap["players"][1]["score"] == 11


def test_tiles_added_after_the_commit_are_flagged() -> None:
    t = _table()
    t.place_word("8E QUIz")
    t.press()
    t.place("A1", "E")
    snap = t.snapshot()
    assert snap["state"] == "blank"
    assert next(a for a in snap["alerts"] if a["code"] == "tiles_added")["squares"] == ["A1"]


def test_unplugged_board_blocks_the_commit_until_replugged() -> None:
    t = _table()
    t.place_word("8E QUIZ")
    t.unplug()
    snap = t.press()
    assert "board_lost" in _codes(snap) and snap["state"] == "turn" and snap["moves"] == []
    t.replug()
    snap = t.press()
    assert "board_lost" not in _codes(snap) and snap["players"][0]["score"] == 44


def test_a_lost_camera_does_not_stop_a_table_whose_board_is_up() -> None:
    # A coded board reads the letters itself: the play scores as usual, with the alert still shown.
    t = _table()
    t.link("camera", False)
    t.place_word("8E QUIZ")
    snap = t.press()
    assert "camera_lost" in _codes(snap) and snap["players"][0]["score"] == 44


def test_a_lost_camera_on_a_presence_board_asks_the_letters() -> None:
    # A presence-only board knows where the new tiles are but not their letters: they are asked.
    t = _table()
    t.link("camera", False)
    for sq in ("E8", "F8", "G8", "H8"):
        t.place_doubtful(sq)
    snap = t.press()
    assert snap["state"] == "blank" and snap["pending"]["letters"] == ["E8", "F8", "G8", "H8"]
    assert snap["moves"] == []
    for sq, ch in (("E8", "Q"), ("F8", "U"), ("G8", "I"), ("H8", "Z")):
        snap = t.control("correct", {"square": sq, "letter": ch})
    assert snap["players"][0]["score"] == 44


def test_a_lost_camera_blocks_the_commit_when_it_is_the_only_sensor() -> None:
    # Without a sensor board the camera is the table's only eyes: a commit now would read as a pass.
    t = _table()
    t.place_word("8E QUIZ")
    t.machine.links.pop("board")  # a camera-only table: no sensor board ever reported its link
    t.link("camera", False)
    snap = t.press()
    assert "camera_lost" in _codes(snap) and "board_lost" not in _codes(snap)
    assert snap["moves"] == [] and snap["state"] == "turn"
    t.link("camera", True)
    assert t.press()["players"][0]["score"] == 44


def test_a_misread_letter_of_the_last_play_is_corrected_and_rescored() -> None:
    t = _table()
    t.place_word("8E QUIZ")
    t.board["E8"] = t.board["E8"].__class__("O")  # the camera misread Q as O: OUIZ
    t.board_seen(dict(t.board))
    t.press()
    snap = t.control("correct", {"square": "E8", "letter": "Q"})
    assert snap["moves"][-1]["notation"] == "8E QUIZ" and snap["players"][0]["score"] == 44
    with pytest.raises(ControlError, match="only the tiles of the last play"):
        t.control("correct", {"square": "A1", "letter": "Q"})


def test_scoreless_turns_end_the_game_with_racks_and_time_penalties() -> None:
    t = _table()
    t.play("8E QUIZ")
    t.advance(15)
    t.advance(25 * 60 + 61)  # Ben runs 1:01 into overtime: 20 points [NASPA]
    for _ in range(6):  # six scoreless turns in a row end a two-player NASPA game
        t.press()
    snap = t.snapshot()
    assert snap["state"] == "racks" and snap["pending"]["racks"] == [0, 1]
    with pytest.raises(ControlError, match="has 7 tiles left"):
        t.control("racks", {"player": 0, "tiles": "AB"})
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    snap = t.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
    assert snap["state"] == "ended"
    kinds = [(m["kind"], m["player"], m["score"]) for m in snap["moves"][-3:]]
    # Each loses their own rack: A E E I O U S = 7; B3 C3 D2 F4 G2 H4 J8 = 26; then Ben's 20-point penalty.
    assert kinds == [("end", 0, -7), ("end", 1, -26), ("penalty", 1, -20)]
    assert snap["players"][0]["score"] == 37 and snap["players"][1]["score"] == -46


def test_a_tie_is_decided_by_the_engine_on_the_score_before_the_racks_and_shown_in_the_snapshot() -> None:
    t = _table()
    t.play("8H QI")  # Q 10 + I 1 on the double-word start square: 22
    t.advance(15)
    snap = t.play("I7 A.")  # AI down: 2, A on a double letter: 3
    assert [p["score"] for p in snap["players"]] == [22, 3] and snap["result"] is None
    t.advance(15)
    for _ in range(6):  # six scoreless turns in a row end a two-player NASPA game
        t.press()
    assert t.snapshot()["result"] is None  # not before the racks are in
    t.control("racks", {"player": 0, "tiles": "JXKAEIO"})  # 8 + 8 + 5 + 4 = 25
    snap = t.control("racks", {"player": 1, "tiles": "?AEEEEE"})  # 0 + 6 = 6
    assert snap["state"] == "ended"
    assert [p["score"] for p in snap["players"]] == [22 - 25, 3 - 6]  # a tie at -3
    # Anna had more before the unplayed tiles were counted: she wins the tie [PC]
    assert snap["result"] == {"winners": [0], "reason": "tie_break"}


def test_pause_stops_the_clocks() -> None:
    t = _table()
    t.advance(10)
    t.control("pause", {})
    t.advance(100)
    snap = t.control("resume", {})
    assert snap["players"][0]["clock"]["remaining_ms"] == 25 * 60_000 - 10_000
    assert snap["state"] == "turn"


def test_start_needs_an_empty_board() -> None:
    t = SimulatedTable(default_setup(), words=WORDS)
    t.place("A1", "E")
    with pytest.raises(ControlError, match="clear the board"):
        t.control("start", {})


def test_turn_timer_warns_but_does_not_end_a_standard_turn() -> None:
    t = _table(clock_mode="turn", turn_seconds=180.0)
    snap = t.advance(181)
    assert snap["state"] == "turn" and "turn_timer" in _codes(snap)
    assert snap["turn_timer"] is not None and snap["turn_timer"]["remaining_ms"] < 0


# --- Scramble -------------------------------------------------------------------------------------

def _scramble(**changes: object) -> SimulatedTable:
    t = SimulatedTable(default_setup(kind="scramble", clock_mode="none", **changes), words=["OAT", "ZA", "OATS"])
    t.control("start", {})
    return t


def test_scramble_roll_play_and_the_scrambled_dice_confirmed_by_the_sensors() -> None:
    t = _scramble()
    assert t.snapshot()["state"] == "roll"
    with pytest.raises(ControlError, match="the table is roll"):
        t.control("pass", {})
    snap = t.roll("OATZEEE")
    assert snap["state"] == "turn" and snap["pending"]["rolled"] == "OATZEEE"
    assert snap["turn_timer"] == {"remaining_ms": 60_000, "running": True}
    # 5D OAT on the 9x9 mat: O 1 + A 1 + T 1 on the centre double word square: 6.
    snap = t.play("5D OAT")
    assert snap["moves"][-1]["score"] == 6
    t.advance(15)
    t.roll("ZEEEEEE")
    # E4 Z. reads ZA down through the A: Z 10 + A 1 = 11; O and T were on the mat and are not in ZA: scrambled.
    t.play("E4 Z.")
    snap = t.advance(15)
    assert snap["state"] == "removal" and snap["pending"]["remove"] == ["D5", "F5"]
    assert "remove_dice" in _codes(snap)
    t.lift("D5")
    assert t.snapshot()["state"] == "removal"
    t.lift("F5")
    snap = t.snapshot()
    assert snap["state"] == "roll" and snap["players"][0]["on_turn"]
    assert snap["board"][3:5] == ["....Z....", "....A...."]


def test_scramble_time_out_with_no_word_loses_the_turn() -> None:
    t = _scramble()
    t.roll("OATZEEE")
    snap = t.advance(60.5)
    assert snap["state"] == "roll" and snap["players"][1]["on_turn"]
    assert snap["moves"][-1]["kind"] == "pass"


def test_scramble_time_out_commits_the_dice_on_the_mat() -> None:
    t = _scramble()
    t.roll("OATZEEE")
    t.place_word("5D OAT")
    snap = t.advance(60.5)
    assert snap["state"] == "challenge" and snap["moves"][-1]["score"] == 6


def test_scramble_a_letter_not_rolled_is_refused() -> None:
    t = _scramble()
    t.roll("OATZEEE")
    snap = t.play("5D ZAS")
    assert snap["state"] == "turn" and "illegal_play" in _codes(snap)


# --- the end of the game, going out -----------------------------------------------------------------

def _tiny_bag_table() -> SimulatedTable:
    """A two-player NASPA game with 16 tiles (every tile an A worth 1): racks of 7 and 2 in the bag,
    so a game goes out in a few plays. The machine and the engine are the real ones; only the bag is small."""
    from dataclasses import replace

    from game.rules import naspa
    from game.tiles import TileSet
    from referee.table.machine import TableMachine
    from referee.table.rules import EveryWord, TableRules

    t = SimulatedTable(default_setup(challenge_window_ms=0), words=None)
    tiny = replace(naspa(), tiles=TileSet("tiny", "en", {"A": 16}, {"A": 1}))
    t.machine = TableMachine(t.machine.setup, TableRules(tiny, EveryWord()))
    t.control("start", {})
    return t


def test_going_out_ends_the_game_and_the_engine_scores_the_rack_left() -> None:
    t = _tiny_bag_table()
    snap = t.play("8H AA")  # A 1 + A 1 on the start square (double word): 4; Anna draws the last 2 tiles
    assert snap["bag"] == 0 and snap["players"][0]["rack_count"] == 7
    t.play("I7 A.")  # Ben: AA down through I8: 2, keeps 6 tiles
    snap = t.play("9G AAAAAAA")  # Anna lays all 7 under the A's and goes out
    assert snap["state"] == "ended"
    end = snap["moves"][-1]
    # NASPA: the player going out gets twice the tiles left on the other rack (Ben's 6 A's: 12).
    assert (end["kind"], end["player"], end["notation"], end["score"]) == ("end", 0, "(AAAAAA)", 12)
    assert snap["players"][1]["rack_count"] == 6
    assert not snap["players"][0]["on_turn"] and not snap["players"][1]["on_turn"]


def test_max_overtime_calls_the_director() -> None:
    t = _table(minutes_per_player=1.0, overtime_limit_minutes=1.0)
    snap = t.advance(121)
    assert "max_overtime" in _codes(snap) and snap["players"][0]["clock"]["remaining_ms"] == -61_000


def test_the_non_starting_players_clock_button_starts_the_game() -> None:
    t = SimulatedTable(default_setup(), words=WORDS)
    t.press(0)  # the starting player's own button does nothing before the game
    assert t.snapshot()["state"] == "waiting"
    snap = t.press(1)
    assert snap["state"] == "turn" and snap["players"][0]["clock"]["running"]


def test_scramble_phony_challenged_dice_come_off_and_the_turn_is_lost() -> None:
    t = _scramble()
    t.roll("OATZEEE")
    t.play("5D TAO")  # not in this table's lexicon
    snap = t.control("challenge", {"player": 1})
    assert snap["state"] == "takeback" and snap["pending"]["remove"] == ["D5", "E5", "F5"]
    for sq in ("D5", "E5", "F5"):
        t.lift(sq)
    snap = t.snapshot()
    assert snap["state"] == "roll" and snap["players"][1]["on_turn"] and snap["pending"]["roll"] == 7
    assert [m["kind"] for m in snap["moves"]] == ["play", "withdrawn"]


def test_scramble_reaching_the_target_ends_the_game() -> None:
    t = _scramble(scramble_target=5)
    t.roll("OATZEEE")
    t.play("5D OAT")
    snap = t.advance(15)
    assert snap["state"] == "ended" and snap["players"][0]["score"] == 6


def test_scramble_advanced_passes_the_unused_dice_on() -> None:
    t = SimulatedTable(default_setup(kind="scramble-advanced", clock_mode="none"), words=["OAT"])
    t.control("start", {})
    t.roll("OATZEEE")
    t.play("5D OAT")
    snap = t.advance(15)
    # Z, E, E, E are passed on, letters up: Ben rolls only 3 more dice.
    assert snap["state"] == "roll" and snap["pending"]["roll"] == 3


def test_lifting_a_tile_while_a_blank_is_asked_returns_the_turn() -> None:
    t = _table()
    t.place_word("8E QUIz")
    assert t.press()["state"] == "blank"
    t.lift("H8")
    snap = t.snapshot()
    assert snap["state"] == "turn" and snap["players"][0]["on_turn"] and snap["players"][0]["clock"]["running"]
    t.place("H8", "Z")
    assert t.press()["moves"][-1]["score"] == 44


def test_german_edition_and_messages() -> None:
    t = SimulatedTable(default_setup(edition="german", language="de", players=("Anna", "Ben", "Cem")),
                       words=["ÄHRE"])
    t.control("start", {})
    snap = t.play("8E ÄHRE")
    # German values: Ä 6, H 2, R 1, E 1 = 10, double word on H8: 20.
    assert snap["moves"][-1]["score"] == 20 and snap["bag"] == 102 - 21 - 4
    assert "ÄHRE" in snap["moves"][-1]["words"]
    t.advance(15)
    t.lift("E8")
    alert = next(a for a in t.snapshot()["alerts"] if a["code"] == "tile_moved")
    assert alert["text"].startswith("Ein Stein wurde außerhalb eines Zuges")


def test_tiles_taken_back_during_a_pause_count_on_resume() -> None:
    t = _table()
    t.place_word("8G ZX")
    t.press()
    t.control("challenge", {"player": 1})
    t.control("pause", {})
    t.lift("G8")
    t.lift("H8")
    assert t.snapshot()["state"] == "paused"
    snap = t.control("resume", {})
    assert snap["state"] == "turn" and snap["players"][1]["on_turn"]


def test_scramble_time_out_with_no_word_on_the_mat_loses_the_turn_and_clears_it() -> None:
    t = _scramble()
    t.roll("OATZEEE")
    t.place("D5", "O")
    t.place("F6", "T")  # not in one line: no word on the mat when time runs out
    snap = t.advance(60.5)
    assert snap["state"] == "takeback" and snap["pending"]["remove"] == ["D5", "F6"]
    assert snap["moves"][-1]["kind"] == "pass"  # the engine records a lost Scramble turn as a pass
    t.lift("D5")
    t.lift("F6")
    snap = t.snapshot()
    assert snap["state"] == "roll" and snap["players"][1]["on_turn"]


def test_scramble_time_out_with_a_presence_only_board_asks_the_letters() -> None:
    t = _scramble()
    t.roll("OATZEEE")
    for sq in ("D5", "E5", "F5"):
        t.place_doubtful(sq)
    snap = t.advance(60.5)
    assert snap["state"] == "blank" and snap["pending"]["letters"] == ["D5", "E5", "F5"]
    for sq, ch in (("D5", "O"), ("E5", "A"), ("F5", "T")):
        snap = t.control("correct", {"square": sq, "letter": ch})
    assert snap["state"] == "challenge" and snap["moves"][-1]["score"] == 6


def test_a_tile_swapped_for_another_letter_is_flagged_until_put_right() -> None:
    t = _table()
    t.play("8E QUIZ")
    t.advance(15)
    t.lift("F8")
    t.place("F8", "O")  # QOIZ: someone swapped a tile
    snap = t.snapshot()
    alert = next(a for a in snap["alerts"] if a["code"] == "tile_changed")
    assert alert["squares"] == ["F8"] and snap["board"][7][5] == "U"  # the game keeps the U
    t.lift("F8")
    t.place("F8", "U")
    assert not any(a["code"] in ("tile_changed", "tile_moved") for a in t.snapshot()["alerts"])


def test_a_clock_increment_is_added_at_the_end_of_each_turn() -> None:
    t = _table(increment_seconds=5.0)
    t.advance(20)
    snap = t.press()  # a pass after 20 s: 25:00 - 20 s + 5 s
    assert snap["players"][0]["clock"]["remaining_ms"] == 25 * 60_000 - 15_000
