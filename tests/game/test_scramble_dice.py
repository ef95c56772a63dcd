"""Dice sets as data: the shipped provisional sets, the file format, and its errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import DataError, NotationError
from game.scramble.dice import DICE_PER_SET, FACES_PER_DIE, DiceSet, Die, Face, dice_set_names, load_dice_set
from game.tiles import load_tile_set

SHIPPED = {"english": "english", "german": "german"}  # dice set -> tile set whose values it follows
VOWELS = set("AEIOUÄÖÜ")


def test_shipped_sets_are_listed() -> None:
    assert set(SHIPPED) <= set(dice_set_names())


@pytest.mark.parametrize(("dice_name", "tiles_name"), sorted(SHIPPED.items()))
def test_shipped_set_shape_and_values(dice_name: str, tiles_name: str) -> None:
    dice = load_dice_set(dice_name)
    tiles = load_tile_set(tiles_name)
    assert dice.provisional, "the real faces are unknown: the shipped sets say they are provisional"
    assert "provisional" in dice.note.lower()
    assert len(dice.dice) == DICE_PER_SET
    assert all(len(die.faces) == FACES_PER_DIE for die in dice.dice)
    assert dice.language == tiles.language
    # every face carries the tile value of its letter; every letter of the edition is on some die
    for die in dice.dice:
        for face in die.faces:
            assert face.value == tiles.values[face.letter], f"{dice_name}: {face}"
    assert set(dice.letters()) == set(tiles.counts)
    assert dice.letters()["?"] == 2


@pytest.mark.parametrize("dice_name", sorted(SHIPPED))
def test_shipped_set_is_playable(dice_name: str) -> None:
    """The design promise of the provisional sets: no letter twice on a die, two or more vowels a die."""
    for number, die in enumerate(load_dice_set(dice_name).dice, start=1):
        letters = [f.letter for f in die.faces]
        assert len(set(letters)) == FACES_PER_DIE, f"die {number} repeats a letter: {die}"
        assert len(VOWELS & set(letters)) >= 2, f"die {number} has fewer than two vowels: {die}"


def test_german_set_has_umlauts() -> None:
    letters = load_dice_set("german").letters()
    assert all(letters[u] >= 1 for u in "ÄÖÜ")


def test_english_frequencies_follow_the_tiles() -> None:
    """E is the commonest face, then A; the ten-pointers appear once."""
    letters = load_dice_set("english").letters()
    assert letters.most_common(2) == [("E", 8), ("A", 6)]
    assert letters["Q"] == letters["Z"] == 1


def test_tile_set_view_is_what_the_scorer_reads() -> None:
    dice = load_dice_set("english")
    tiles = dice.tile_set()
    assert tiles.values["Q"] == 10 and tiles.counts["E"] == 8
    assert tiles.total == DICE_PER_SET * FACES_PER_DIE
    assert tiles.has_letter("Q") and not tiles.has_letter("?")


def test_tile_set_view_adds_letters_only_blanks_can_make() -> None:
    raw = json.loads(load_dice_set("english").to_json())
    raw["dice"][0] = [["E", 1], ["A", 1], ["N", 1], ["R", 1], ["T", 1], ["O", 1]]  # drop the only Q
    dice = DiceSet.from_json(json.dumps(raw))
    assert not dice.tile_set().has_letter("Q")
    assert dice.tile_set("ABCDEFGHIJKLMNOPQRSTUVWXYZ").has_letter("Q")


@pytest.mark.parametrize("dice_name", sorted(SHIPPED))
def test_json_round_trip(dice_name: str) -> None:
    dice = load_dice_set(dice_name)
    assert DiceSet.from_json(dice.to_json()) == dice


def test_face_text_round_trip() -> None:
    assert str(Face.from_str("q10")) == "Q10"
    assert Face.from_str("?0").is_blank
    assert Face.from_str("Ü6") == Face("Ü", 6)
    assert str(Die.from_str("E1, A1 N1 R1 T1 Q10")) == "E1 A1 N1 R1 T1 Q10"


@settings(max_examples=50)
@given(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ"), st.integers(0, 99))
def test_face_round_trip_property(letter: str, value: int) -> None:
    face = Face(letter, value)
    assert Face.from_str(str(face)) == face


@pytest.mark.parametrize("text", ["", "Q", "10", "QQ10", "Q-1", "?5", "ß1", "1Q"])
def test_bad_faces(text: str) -> None:
    with pytest.raises(NotationError):
        Face.from_str(text)


def test_die_needs_six_faces() -> None:
    with pytest.raises(NotationError, match="6 faces"):
        Die.from_str("A1 B3")


def _raw() -> dict[str, object]:
    return json.loads(load_dice_set("english").to_json())  # type: ignore[no-any-return]


def test_wrong_number_of_dice() -> None:
    raw = _raw()
    raw["dice"] = raw["dice"][:11]  # type: ignore[index]
    with pytest.raises(DataError, match="11 dice"):
        DiceSet.from_json(json.dumps(raw), "mine.json")


def test_die_with_bad_face_names_file_and_die() -> None:
    raw = _raw()
    raw["dice"][3][2] = ["AB", 1]  # type: ignore[index]
    with pytest.raises(DataError, match=r"mine\.json: die 4"):
        DiceSet.from_json(json.dumps(raw), "mine.json")


def test_letter_with_two_values_is_refused() -> None:
    raw = _raw()
    raw["dice"][5][0] = ["E", 2]  # type: ignore[index]
    with pytest.raises(DataError, match="E is worth 1 on die 1 but 2 on die 6"):
        DiceSet.from_json(json.dumps(raw))


@pytest.mark.parametrize("text", ["not json", "[]", '{"name": "x"}', '{"name": "x", "language": "en", "dice": 3}'])
def test_not_a_dice_file(text: str) -> None:
    with pytest.raises(DataError):
        DiceSet.from_json(text, "broken.json")


@pytest.mark.parametrize(("text", "why"), [("{}", "it has no 'name' key"),
                                            ('{"name": "x", "language": "en"}', "it has no 'dice' key"),
                                            ("[]", "it holds no JSON object with name, language and dice")])
def test_not_a_dice_file_says_what_is_missing(text: str, why: str) -> None:
    with pytest.raises(DataError, match=f"^broken.json: not a dice set file \\({why}"):
        DiceSet.from_json(text, "broken.json")


def test_provisional_must_be_a_boolean() -> None:
    raw = _raw()
    raw["provisional"] = "yes"
    with pytest.raises(DataError, match="provisional"):
        DiceSet.from_json(json.dumps(raw))


def test_unknown_set_lists_the_known_ones() -> None:
    with pytest.raises(DataError, match="english"):
        load_dice_set("klingon")
