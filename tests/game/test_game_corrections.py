"""A director's corrections of the last play, made by the engine itself (`Game.undo_last_play`,
`Game.correct_tile`): the game afterwards is exactly the game that would have been played."""

from __future__ import annotations

import pytest

from game.errors import CorrectionError, NotInLexiconError
from game.events import EventKind
from game.game import Game
from game.rules import ChallengeRule, classic_english
from game.scramble import ScrambleGame, scramble_rules
from game.squares import Square

EN = classic_english()
WORDS = {"CAT", "CAB", "CATS", "AT", "TA"}


def test_undo_takes_the_play_back_as_if_it_had_never_been_made() -> None:
    game = Game(EN, ["Ann", "Ben"])
    game.play("8G CAT")
    game.undo_last_play()
    never = Game(EN, ["Ann", "Ben"])
    assert game.to_dict() == never.to_dict()
    assert game.board.is_empty and game.scores == [0, 0] and game.events == [] and game.to_move == 0
    assert game.rack_sizes == never.rack_sizes and game.bag_count == never.bag_count


def test_undo_keeps_a_time_penalty_and_an_adjustment_made_since() -> None:
    game = Game(EN, ["Ann", "Ben"])
    game.play("8G CAT")
    game.adjust_score(1, 5, "slow play")
    game.apply_time_penalty(0, 61)
    game.undo_last_play()
    assert [e.kind for e in game.events] == [EventKind.ADJUSTMENT, EventKind.TIME_PENALTY]
    assert game.scores == [-20, 5] and game.to_move == 0 and game.board.is_empty


def test_undo_is_refused_once_a_turn_followed_and_changes_nothing() -> None:
    game = Game(EN, ["Ann", "Ben"])
    with pytest.raises(CorrectionError) as none:
        game.undo_last_play()
    assert none.value.form == "no_play"
    game.play("8G CAT")
    game.pass_turn()
    before = game.to_dict()
    with pytest.raises(CorrectionError) as since:
        game.undo_last_play()
    assert since.value.form == "turn_since" and since.value.fields == {"play": "G8=C H8=A I8=T"}
    assert game.to_dict() == before


def test_a_corrected_letter_scores_the_play_again() -> None:
    game = Game(EN, ["Ann", "Ben"])
    game.play("8G CAT")
    game.pass_turn()  # a later turn does not stop a correction: the game is played again with the letter
    game.correct_tile(Square.from_str("I8"), "B")
    assert game.events[0].words == ("CAB",) and game.events[0].delta == 14 and game.scores == [14, 0]
    assert [e.kind for e in game.events] == [EventKind.PLAY, EventKind.PASS] and game.to_move == 0
    assert str(game.board[Square.from_str("I8")]) == "B"
    assert game.actions[0]["placements"] == "G8=C H8=A I8=B"


def test_a_corrected_blank_stays_a_blank() -> None:
    game = Game(EN, ["Ann", "Ben"])
    game.play("8G CaT")
    game.correct_tile(Square.from_str("H8"), "o")
    assert str(game.board[Square.from_str("H8")]) == "o" and game.events[0].words == ("COT",)
    assert game.scores == [8, 0]  # C 3 and T 1, doubled: the blank scores nothing whatever it stands for


def test_a_correction_the_rules_refuse_changes_nothing() -> None:
    game = Game(EN.with_options(challenge=ChallengeRule.VOID), ["Ann", "Ben"], lexicon=WORDS)
    game.play("8G CAT")
    before = game.to_dict()
    with pytest.raises(NotInLexiconError):
        game.correct_tile(Square.from_str("I8"), "X")  # CAX: the void rule refuses it as it would have then
    assert game.to_dict() == before and game.events[0].words == ("CAT",)


def test_only_a_tile_of_the_last_play_still_on_the_board_is_corrected() -> None:
    game = Game(EN, ["Ann", "Ben"], lexicon=WORDS)
    game.play("8G CAT")
    with pytest.raises(CorrectionError) as off:
        game.correct_tile(Square.from_str("J8"), "S")
    assert off.value.form == "not_in_play" and off.value.fields == {"square": "J8", "play": "G8=C H8=A I8=T"}
    game.play("I7 A.")  # Ben's AT, down through Ann's T
    with pytest.raises(CorrectionError):
        game.correct_tile(Square.from_str("G8"), "B")  # Ann's CAT is no longer the last play
    game.challenge(0, valid=False)  # AT challenged off: its A leaves the board
    with pytest.raises(CorrectionError, match="I7 is not a tile of the last play"):
        game.correct_tile(Square.from_str("I7"), "O")


def test_scramble_undoes_and_corrects_through_the_same_replay() -> None:
    game = ScrambleGame(scramble_rules(), ["Ann", "Ben"], seed=3)
    before = game.to_dict()
    game.roll()
    rolled = game.to_dict()
    hand = "".join(f.letter for f in game.hand())
    two = next((a, b) for a in hand for b in hand.replace(a, "", 1) if a != "?" and b != "?")
    game.play(f"E5 {two[0]}{two[1]}")
    game.undo_last_play()
    assert game.to_dict() == rolled and game.to_dict() != before and game.board.is_empty
