"""ScrambleGame: one test per rule of a turn, the scrambled rule in play, challenges, advanced play, the end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.errors import (
    ChallengeError,
    DataError,
    ExchangeNotAllowedError,
    GameOverError,
    NotConnectedError,
    NotInLineError,
    NotOnRackError,
    NotYourTurnError,
    StartSquareError,
)
from game.events import EventKind
from game.layout import Layout, load_layout
from game.play import placements_from_str
from game.rules import classic_english
from game.scramble import ScrambleGame, ScrambleRules, scramble_rules
from game.scramble.dice import DICE_PER_SET, DiceSet, load_dice_set
from game.scramble.errors import RollError, RollOrderError
from game.squares import Square
from game.variants import get_variant

WORDS = {"FEAST", "FEASTS", "OATS", "ON", "OE", "NA", "TA", "OS", "QI"}


def game(advanced: bool = False, target: int = 200, players: int = 2) -> ScrambleGame:
    names = ["Ann", "Ben", "Cid"][:players]
    return ScrambleGame(scramble_rules(advanced=advanced, target=target), names, lexicon=WORDS)


def mat(g: ScrambleGame) -> dict[str, str]:
    return {str(sq): letter for sq, letter in g.mat().items()}


def dice_total(g: ScrambleGame) -> int:
    return len(g.dice.cup) + len(g.dice.hand) + len(g.dice.mat)


def opening(g: ScrambleGame) -> None:
    """Ann: FEAST on B5-F5 (F on the triple letter B5, S on the centre): (12+1+1+1+1) x 2 = 32."""
    g.set_rack(0, "AEFSTOR")
    assert g.play("5B FEAST").score == 32


def test_variants_are_registered() -> None:
    assert get_variant("scramble").game_class is ScrambleGame
    rules = get_variant("scramble-advanced").rules()
    assert isinstance(rules, ScrambleRules) and rules.advanced
    assert get_variant("scramble-german").rules().dice_set.language == "de"


def test_default_mat_and_rules() -> None:
    rules = scramble_rules()
    assert (rules.layout.width, rules.layout.height) == (9, 9)
    assert rules.layout.start == Square.from_str("E5")
    assert rules.layout.premium(Square.from_str("E5")) == "*"
    assert rules.target == 200 and rules.turn_seconds == 60 and rules.bingo_bonus == 50 and rules.bingo_tiles == 7
    assert rules.timer().seconds == 60 and rules.timer().ends_turn
    assert rules.with_options(turn_seconds=90.0).timer().seconds == 90


def test_standard_rules_are_refused() -> None:
    with pytest.raises(DataError, match="not a Scramble rule set"):
        ScrambleGame(classic_english(), ["Ann", "Ben"])


def test_rules_need_a_positive_target() -> None:
    with pytest.raises(DataError, match="winning score"):
        scramble_rules(target=0)


def test_play_before_rolling_is_refused() -> None:
    with pytest.raises(RollOrderError, match="has not rolled"):
        game().play("5B FEAST")


def test_second_roll_in_a_turn_is_refused() -> None:
    g = ScrambleGame(scramble_rules(), ["Ann", "Ben"], seed=3)
    g.roll()
    with pytest.raises(RollOrderError, match="already rolled"):
        g.roll()


def test_seven_dice_from_a_full_cup() -> None:
    g = ScrambleGame(scramble_rules(), ["Ann", "Ben"], seed=11)
    assert len(g.roll()) == 7
    assert len(g.dice.cup) == DICE_PER_SET - 7


def test_rack_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(RollError, match="6 dice read, but the player rolls 7"):
        game().set_rack(0, "AEFSTO")


def test_first_word_covers_the_centre() -> None:
    g = game()
    g.set_rack(0, "AEFSTOR")
    with pytest.raises(StartSquareError, match="E5"):
        g.play("4B FEAST")


def test_letters_not_rolled_are_refused() -> None:
    g = game()
    g.set_rack(0, "AEFSTOR")
    with pytest.raises(NotOnRackError):
        g.play("5D QI")


def test_unused_dice_go_back_to_the_cup() -> None:
    g = game()
    opening(g)
    assert len(g.dice.mat) == 5 and not g.dice.hand and len(g.dice.cup) == 7
    assert dice_total(g) == DICE_PER_SET


def test_next_player_rolls_all_that_remain_never_more_than_seven() -> None:
    g = game()
    opening(g)  # 5 dice on the mat, 7 in the cup
    assert g.dice.to_draw() == 7


def test_crossing_play_scrambles_the_old_word() -> None:
    """Ben: OATS down from D4 through the A of FEAST. O on D4 and T on D6 are double letters:
    2+1+2+1 = 6. FEAST's F, E, S, T go back to the cup; OATS stays."""
    g = game()
    opening(g)
    g.set_rack(1, "OTSNEEI")
    scored = g.play("D4 O.TS")
    assert scored.score == 6
    assert mat(g) == {"D4": "O", "D5": "A", "D6": "T", "D7": "S"}
    assert g.last_scramble is not None and not g.last_scramble.cleared
    assert {str(s) for s in g.last_scramble.removed} == {"B5", "C5", "E5", "F5"}
    assert len(g.dice.cup) == 8 and dice_total(g) == DICE_PER_SET


def test_extension_clears_the_mat_and_restarts_at_the_centre() -> None:
    """Ben: FEASTS (S on G5): 4+1+1+1+1+1 = 9, no premium under the new S. Every die goes back."""
    g = game()
    opening(g)
    g.set_rack(1, "SOTNEEI")
    assert g.play("5B .....S").score == 9
    assert g.mat() == {} and g.board.is_empty
    assert g.last_scramble is not None and g.last_scramble.cleared
    assert len(g.dice.cup) == DICE_PER_SET
    g.set_rack(0, "OATSNEI")
    with pytest.raises(StartSquareError):
        g.play("1A OATS")
    g.play("5E OATS")


def test_extension_that_forms_a_second_word_keeps_the_second_word() -> None:
    """The manual's WRAPS/SIZES case: Ben lays O on G4 and S on G5, forming OS (main word, down) and
    FEASTS (crossing). OS: 1+1 = 2; FEASTS: 4+1+1+1+1+1 = 9. Not an extension: OS stays, FEAST goes."""
    g = game()
    opening(g)
    g.set_rack(1, "OSNEEIU")
    assert g.play("G4 OS").score == 11
    assert mat(g) == {"G4": "O", "G5": "S"}
    assert g.last_scramble is not None and not g.last_scramble.cleared


def test_parallel_play_keeps_only_its_main_word() -> None:
    """Open case (several new words; two old letters used): FEAST on B5-F5; Ben lays ON on C4-D4 above
    E and A, forming ON, OE and NA. All three score; only ON, the main word, stays."""
    g = game()
    opening(g)
    g.set_rack(1, "ONIEEIU")
    scored = g.play("4C ON")
    assert sorted(w.word.text for w in scored.words) == ["NA", "OE", "ON"]
    # ON: O on C4 and N on D4 (D4 double letter): 1 + 2 = 3; OE: 1 + 1 = 2; NA: 2 + 1 = 3
    assert scored.score == 8
    assert mat(g) == {"C4": "O", "D4": "N"}
    assert g.last_scramble is not None and len(g.last_scramble.removed) == 5


def test_hook_with_one_die_keeps_the_two_letter_word() -> None:
    g = game()
    opening(g)
    g.set_rack(1, "TONEEIU")
    scored = g.play("D4 T.")  # TA: T on the double letter D4, 2 + 1
    assert scored.score == 3
    assert mat(g) == {"D4": "T", "D5": "A"}


def test_bingo_adds_fifty() -> None:
    """Seven dice in one turn (judged by the placement rules only: this game has no lexicon)."""
    g = ScrambleGame(scramble_rules(), ["Ann", "Ben"])
    g.set_rack(0, "ABCDEFG")
    scored = g.play("5A ABCDEFG")
    assert scored.bingo_bonus == 50
    # A1 B3(t on B5: 9) C3 D2 E1(x2 word) F4 G2: 1+9+3+2+1+4+2 = 22, x2 = 44, + 50
    assert scored.score == 94


def test_time_up_loses_the_turn() -> None:
    g = game()
    g.set_rack(0, "AEFSTOR")
    g.time_up()
    assert g.events[-1].kind is EventKind.PASS and g.scores == [0, 0]
    assert g.to_move == 1 and len(g.dice.cup) == DICE_PER_SET and not g.rolled


def test_exchange_is_not_a_scramble_turn() -> None:
    g = game()
    g.set_rack(0, "AEFSTOR")
    with pytest.raises(ExchangeNotAllowedError):
        g.exchange("AE")


def test_unacceptable_play_takes_the_dice_back_and_loses_the_turn() -> None:
    g = game()
    opening(g)
    g.set_rack(1, "OTSNEEI")
    g.play("D4 O.TS")
    result = g.challenge(0, valid=False)
    assert not result.valid and result.points == 6
    assert g.scores == [32, 0]
    assert mat(g) == {"B5": "F", "C5": "E", "D5": "A", "E5": "S", "F5": "T"}
    assert len(g.dice.mat) == 5 and len(g.dice.cup) == 7 and not g.dice.hand
    assert g.events[-1].kind is EventKind.WITHDRAWN and g.to_move == 0


def test_challenge_judged_by_the_lexicon() -> None:
    g = game()
    g.set_rack(0, "AEFSTOR")
    g.play("5C SAFE")  # not in WORDS
    result = g.challenge(1)
    assert not result.valid and result.bad_words == ("SAFE",)


def test_acceptable_play_costs_the_challenger_the_next_turn() -> None:
    g = game(players=3)
    opening(g)
    result = g.challenge(1)
    assert result.valid
    assert g.to_move == 2
    assert any(e.kind is EventKind.LOST_TURN and e.player == 1 for e in g.events)


def test_rolling_closes_the_challenge_window() -> None:
    g = game()
    opening(g)
    g.set_rack(1, "OTSNEEI")
    with pytest.raises(ChallengeError):
        g.challenge(1)


def test_first_to_the_target_wins() -> None:
    g = game(target=30)
    opening(g)
    assert g.over and "Ann reached 30" in g.end_reason and g.winners() == [0]
    with pytest.raises(GameOverError):
        g.roll()


def test_a_winning_phony_taken_back_reopens_the_game() -> None:
    g = game(target=30)
    opening(g)
    g.challenge(1, valid=False)
    assert not g.over and g.scores == [0, 0] and g.to_move == 1


def test_advanced_play_passes_unused_dice() -> None:
    g = game(advanced=True)
    opening(g)  # AEFSTOR: FEAST played, O and R passed on
    assert sorted(g.dice.rack) == ["O", "R"]
    assert g.dice.to_draw() == 5
    g.set_rack(1, "ORSTEEI")
    assert sorted(g.rack(1) or "") == sorted("ORSTEEI")
    assert dice_total(g) == DICE_PER_SET


def test_advanced_rack_must_hold_the_dice_passed_on() -> None:
    g = game(advanced=True)
    opening(g)
    with pytest.raises(NotOnRackError, match="passed on"):
        g.set_rack(1, "STEEIAN")


def test_advanced_lost_turn_sends_the_dice_to_the_cup() -> None:
    g = game(advanced=True)
    opening(g)
    g.set_rack(1, "ORSTEEI")
    g.time_up()
    assert not g.dice.hand and len(g.dice.cup) == 7


def test_reading_from_the_sensors() -> None:
    g = game()
    hand = g.read_roll(["F4", "E1", "A1", "S1", "T1", "O1", "R1"])
    assert "".join(f.letter for f in hand) == "FEASTOR"
    with pytest.raises(RollOrderError):
        g.read_roll(["E1"])


def test_a_reading_no_die_can_show_is_refused() -> None:
    with pytest.raises(RollError, match="cannot show"):
        game().read_roll(["Q10", "Q10", "E1", "E1", "E1", "E1", "E1"])


def test_seeded_game_replays_from_its_journal() -> None:
    g = ScrambleGame(scramble_rules(), ["Ann", "Ben"], seed=5)
    g.roll()
    g.time_up()
    g.roll()
    again = ScrambleGame.replay(g.rules, json.loads(json.dumps(g.to_dict())))
    assert again.hand() == g.hand() and again.dice == g.dice and again.to_move == g.to_move


def test_mat_layout_is_configurable() -> None:
    plain = Layout("plain", tuple("....*...." if r == 4 else "." * 9 for r in range(9)))
    g = ScrambleGame(scramble_rules().with_options(layout=plain), ["Ann", "Ben"])
    g.set_rack(0, "AEFSTOR")
    assert g.play("5B FEAST").score == (4 + 1 + 1 + 1 + 1) * 2
    assert load_layout("scramble").premium(Square.from_str("B5")) == "t"


def test_german_dice() -> None:
    g = ScrambleGame(scramble_rules("german"), ["Anna", "Ben"], lexicon={"ÖL"})
    g.set_rack(0, "ÖLEEENS")
    assert g.play("5D ÖL").score == (8 + 2) * 2


def test_rack_of_a_player_not_to_move_is_refused() -> None:
    with pytest.raises(NotYourTurnError):
        game().set_rack(1, "AEFSTOR")


def test_record_rack_is_the_roll() -> None:
    g = game()
    g.record_rack(0, "AEFSTOR")
    assert g.rolled and sorted(g.rack(0) or "") == sorted("AEFSTOR")
    g.record_rack(0, "ROTSFEA")  # the same faces again: accepted
    with pytest.raises(RollError, match="the dice in hand show"):
        g.record_rack(0, "AEFSTOQ")


def test_record_without_racks_reads_the_faces_played() -> None:
    """A record replayed leniently with no rack: the dice played are taken as the roll."""
    g = ScrambleGame(scramble_rules(), ["Ann", "Ben"], lexicon=WORDS, strict_turns=False)
    assert g.play("5B FEAST", 0).score == 32
    assert len(g.dice.mat) == 5 and len(g.dice.cup) == 7
    g.play("D4 O.TS", 1)
    assert mat(g) == {"D4": "O", "D5": "A", "D6": "T", "D7": "S"}
    assert len(g.dice.cup) + len(g.dice.mat) == DICE_PER_SET
    g.play("7D .N", 1)  # Ben again, as a record says after a wrong challenge (SN is judged only if challenged)
    again = ScrambleGame.replay(g.rules, json.loads(json.dumps(g.to_dict())), WORDS)
    assert again.scores == g.scores and again.mat() == g.mat() and again.dice == g.dice


def test_forced_play_keeps_the_dice_and_the_mat_consistent() -> None:
    """A director's ruling for a play the rules refuse (not touching the mat): the mat is cleared."""
    g = game()
    opening(g)
    g.set_rack(1, "OTSNEEI")
    g.force_play(placements_from_str("A1=T A2=O"), 5)
    assert g.scores == [32, 5]
    assert g.mat() == {} and len(g.dice.cup) == DICE_PER_SET
    assert g.last_scramble is not None and g.last_scramble.cleared


def test_forced_legal_play_with_a_letter_not_rolled() -> None:
    """A forced play that the placement rules accept is scrambled as usual; a letter not in hand is taken
    from a die in the cup that has it, so the dice still number twelve."""
    g = game()
    opening(g)
    g.set_rack(1, "OTSNEEI")
    g.force_play(placements_from_str("D4=Q"), 11)
    assert mat(g) == {"D4": "Q", "D5": "A"}
    assert dice_total(g) == DICE_PER_SET


def test_advanced_wrong_challenger_skipped_dice_go_to_the_next_player() -> None:
    g = game(advanced=True, players=3)
    opening(g)  # Ann passes O and R on
    g.challenge(1)  # Ben challenges FEAST in vain and loses the turn at once
    assert g.to_move == 2
    assert sorted(g.rack(2) or "") == ["O", "R"] and g.rack(1) == ""
    g.set_rack(2, "ORSTEEI")
    assert g.play("D4 O.TS").score == 6


def test_rules_with_a_taught_dice_set() -> None:
    """A set written by `referee dice teach` (here: the English faces with Q worth 12) plays as well."""
    raw = json.loads(load_dice_set("english").to_json())
    raw["name"] = "mine"
    raw["dice"][0][5] = ["Q", 12]
    rules = scramble_rules(DiceSet.from_json(json.dumps(raw)))
    assert rules.name == "scramble-mine" and rules.tiles.values["Q"] == 12
    g = ScrambleGame(rules, ["Ann", "Ben"], lexicon={"QI"})
    g.set_rack(0, "QIEEEEE")
    assert g.play("5D QI").score == (12 + 1) * 2


def test_default_mat_is_symmetric_and_documented() -> None:
    """The picture in docs/rules-scramble.md is the layout file, and it is symmetric like the standard board."""
    rows = load_layout("scramble").rows
    assert all(rows[r][c] == rows[c][r] == rows[8 - r][c] == rows[r][8 - c] for r in range(9) for c in range(9))
    docs = (Path(__file__).resolve().parents[2] / "docs" / "rules-scramble.md").read_text(encoding="utf-8")
    picture = [line.split()[1:] for line in docs.splitlines() if line[:3].strip().isdigit() and len(line.split()) == 10]
    assert ["".join(cells) for cells in picture] == list(rows)


def test_later_words_must_join_the_word_on_the_mat() -> None:
    g = game()
    opening(g)
    g.set_rack(1, "OTSNEEI")
    with pytest.raises(NotConnectedError):
        g.play("8A NOTE")


def test_diagonal_words_are_not_allowed() -> None:
    g = game()
    g.set_rack(0, "AEFSTOR")
    with pytest.raises(NotInLineError):
        g.play(placements_from_str("E5=A F6=T"))


def test_a_blank_face_scores_zero_but_keeps_the_word_premium() -> None:
    """FEAST with the blank as F on the triple letter B5: (0+1+1+1+1) x 2 = 8."""
    g = game()
    g.set_rack(0, "?EASTOR")
    assert g.play("5B fEAST").score == 8
    assert g.mat()[Square.from_str("B5")] == "f"
    assert g.dice.mat[Square.from_str("B5")].face.is_blank


def test_rules_refuse_dice_whose_values_the_scorer_does_not_have() -> None:
    with pytest.raises(DataError, match="differ from the dice 'german'"):
        scramble_rules().with_options(dice=load_dice_set("german"))


def test_journal_carries_the_rules_dice_and_mat() -> None:
    """`to_dict` is JSON; `from_dict` rebuilds the game with its dice set (even a taught one) and mat."""
    raw = json.loads(load_dice_set("english").to_json())
    raw["name"] = "mine"
    plain = Layout("plain", tuple("....*...." if r == 4 else "." * 9 for r in range(9)))
    rules = scramble_rules(DiceSet.from_json(json.dumps(raw)), advanced=True, target=150).with_options(layout=plain)
    g = ScrambleGame(rules, ["Ann", "Ben"], lexicon=WORDS, seed=9)
    g.set_rack(0, "AEFSTOR")
    g.play("5B FEAST")
    again = ScrambleGame.from_dict(json.loads(json.dumps(g.to_dict())), WORDS)
    assert isinstance(again, ScrambleGame)
    assert again.rules == g.rules and again.rules.target == 150 and again.rules.advanced
    assert again.rules.dice_set.name == "mine" and again.rules.layout.rows == plain.rows
    assert again.scores == g.scores == [16, 0] and again.dice == g.dice


def test_journal_with_broken_rules() -> None:
    data = ScrambleGame(scramble_rules(), ["Ann", "Ben"]).to_dict()
    data["rules"]["dice"]["dice"] = data["rules"]["dice"]["dice"][:5]
    with pytest.raises(DataError, match="5 dice"):
        ScrambleGame.from_dict(data)
    del data["rules"]["dice"]
    with pytest.raises(DataError, match="Scramble rule set"):
        ScrambleGame.from_dict(data)


def test_malformed_roll_in_a_journal() -> None:
    g = ScrambleGame(scramble_rules(), ["Ann", "Ben"])
    with pytest.raises(DataError, match="read_roll"):
        g.apply_action({"action": "read_roll"})
