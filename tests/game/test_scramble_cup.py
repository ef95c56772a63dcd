"""The cup: drawing up to seven, seeded rolls, sensor readings matched to real dice, the opening roll."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import NotOnRackError
from game.scramble.cup import ALPHABETS, MAX_ROLL, Dice, ShownDie, match_faces, opening_order
from game.scramble.dice import DICE_PER_SET, Face, load_dice_set
from game.scramble.errors import RollError
from game.squares import Square

EN = load_dice_set("english")


def _total(d: Dice) -> int:
    return len(d.cup) + len(d.hand) + len(d.mat)


def test_full_cup_rolls_seven() -> None:
    d = Dice().roll(EN, random.Random(1))
    assert len(d.hand) == MAX_ROLL and len(d.cup) == DICE_PER_SET - MAX_ROLL
    for shown in d.hand:
        assert shown.face in EN.dice[shown.die].faces


def test_seeded_rolls_repeat() -> None:
    a = Dice().roll(EN, random.Random(42))
    b = Dice().roll(EN, random.Random(42))
    assert a == b and a.rack == b.rack


def test_fewer_than_seven_in_the_cup_rolls_them_all() -> None:
    d = Dice().roll(EN, random.Random(3))
    d = d.place([(Square.from_str(f"{c}5"), d.hand[i].face.letter) for i, c in enumerate("CDEFGH")])
    d = d.to_cup()  # the seventh die goes back; six dice stay on the mat
    assert len(d.cup) == 6 and d.to_draw() == 6
    d = d.roll(EN, random.Random(4))
    assert len(d.hand) == 6 and not d.cup


def test_passed_dice_count_toward_seven() -> None:
    d = Dice().roll(EN, random.Random(5))
    d = d.place([(Square.from_str("E5"), d.hand[0].face.letter), (Square.from_str("F5"), d.hand[1].face.letter)])
    d = d.to_cup([], hand=False)  # advanced play: five dice passed on, letters up
    assert len(d.hand) == 5 and d.to_draw() == 2
    rolled = d.roll(EN, random.Random(6))
    assert rolled.hand[:5] == d.hand and len(rolled.hand) == MAX_ROLL


def test_reading_matches_faces_to_dice_in_the_cup() -> None:
    d = Dice().read(EN, ["Q10", "Z10", "X8", "J8", "K5", "E1", "E1"])
    assert d.rack == "QZXJKEE"
    for shown in d.hand:
        assert shown.face in EN.dice[shown.die].faces
    assert _total(d) == DICE_PER_SET


def test_reading_of_the_wrong_size() -> None:
    with pytest.raises(RollError, match="8 dice read, but the player rolls 7"):
        Dice().read(EN, ["E1"] * 8)


def test_reading_no_die_can_show() -> None:
    with pytest.raises(RollError, match="no die of the set 'english' has the face Q3"):
        Dice().read(EN, ["Q3", "E1", "E1", "E1", "E1", "E1", "E1"])


def test_reading_the_cup_cannot_show() -> None:
    # Only one die has a Q: two Qs in one roll cannot happen.
    with pytest.raises(RollError, match="cannot show"):
        Dice().read(EN, ["Q10", "Q10", "E1", "E1", "E1", "E1", "E1"])


def test_reading_re_identifies_dice_matched_wrongly_before() -> None:
    """E is on dice 1-8. If the first reading took the die with the only Q for an E, a later Q still reads."""
    q_die = next(i for i, die in enumerate(EN.dice) if die.shows("Q"))
    first = Dice(cup=frozenset(range(DICE_PER_SET)) - {q_die}, hand=(ShownDie(q_die, Face("E", 1)),))
    placed = first.place([(Square.from_str("E5"), "E")]).to_cup([], hand=True)
    assert placed.mat[Square.from_str("E5")].die == q_die
    # eleven dice in the cup; the next roll of seven shows the Q
    later = placed.read(EN, ["Q10", "A1", "I1", "O1", "U1", "N1", "R1"])
    assert later.mat[Square.from_str("E5")].die != q_die
    assert any(s.die == q_die and s.face.letter == "Q" for s in later.hand)
    assert _total(later) == DICE_PER_SET


def test_place_takes_dice_from_the_hand() -> None:
    d = Dice().read(EN, ["C3", "A1", "T1", "?0", "E1", "E1", "S1"])
    d = d.place([(Square.from_str("E5"), "C"), (Square.from_str("F5"), "?")])
    assert d.rack == "ATEES"
    assert d.mat[Square.from_str("F5")].face.is_blank


def test_place_a_letter_not_in_hand() -> None:
    d = Dice().read(EN, ["C3", "A1", "T1", "O1", "E1", "E1", "S1"])
    with pytest.raises(NotOnRackError, match="E5: Z is not among the faces in hand"):
        d.place([(Square.from_str("E5"), "Z")])


def test_to_cup_returns_squares_and_hand() -> None:
    d = Dice().read(EN, ["C3", "A1", "T1", "O1", "E1", "E1", "S1"])
    d = d.place([(Square.from_str("E5"), "C"), (Square.from_str("F5"), "A"), (Square.from_str("G5"), "T")])
    back = d.to_cup([Square.from_str("E5")])
    assert len(back.mat) == 2 and not back.hand and len(back.cup) == 10


def test_a_die_in_two_places_is_refused() -> None:
    with pytest.raises(RollError, match="two places"):
        Dice(cup=frozenset(range(DICE_PER_SET)), hand=(ShownDie(0, Face("E", 1)),))


def test_match_faces_none_when_impossible() -> None:
    assert match_faces(EN, [Face("Q", 10), Face("Q", 10)], range(DICE_PER_SET)) is None
    ids = match_faces(EN, [Face("E", 1)] * 8, range(DICE_PER_SET))
    assert ids is not None and len(set(ids)) == 8


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 7), min_size=1, max_size=12))
def test_dice_always_number_twelve(seed: int, keeps: list[int]) -> None:
    """Roll, place some, send some back, pass some on: the dice always number twelve."""
    rng = random.Random(seed)
    d = Dice()
    squares = [Square(r, c) for r in range(9) for c in range(9)]
    for keep in keeps:
        d = d.roll(EN, rng)
        assert len(d.hand) <= MAX_ROLL
        free = [s for s in squares if s not in d.mat]
        n = min(keep, len(d.hand))
        d = d.place([(free[k], d.hand[k].face.letter) for k in range(n)])
        d = d.to_cup(rng.sample(sorted(d.mat), rng.randint(0, len(d.mat))), hand=rng.random() < 0.5)
        assert _total(d) == DICE_PER_SET


def test_opening_roll_letter_closest_to_a() -> None:
    assert opening_order([Face("M", 3), Face("B", 3), Face("E", 1)], ALPHABETS["en"]) == [1]


def test_opening_roll_blank_beats_any_letter() -> None:
    assert opening_order([Face("A", 1), Face("?", 0)], ALPHABETS["en"]) == [1]


def test_opening_roll_tie_rolls_again() -> None:
    assert opening_order([Face("A", 1), Face("C", 3), Face("A", 1)], ALPHABETS["en"]) == [0, 2]


def test_opening_roll_german_umlaut_after_its_vowel() -> None:
    assert opening_order([Face("Ä", 6), Face("B", 3)], ALPHABETS["de"]) == [0]
    assert opening_order([Face("Ä", 6), Face("A", 1)], ALPHABETS["de"]) == [1]


def test_opening_roll_errors() -> None:
    with pytest.raises(RollError):
        opening_order([], ALPHABETS["en"])
    with pytest.raises(RollError, match="Ä is not in the alphabet"):
        opening_order([Face("Ä", 6)], ALPHABETS["en"])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_readings_of_real_rolls_are_never_refused(seed: int, advanced: bool) -> None:
    """The sensors see faces, not dice: a model fed only the faces of real (simulated) rolls must accept
    every one of them, re-identifying dice it matched wrongly before, and agree with the real dice."""
    rng = random.Random(seed)
    real = Dice()
    seen = Dice()
    squares = [Square(r, c) for r in range(9) for c in range(9)]
    for _ in range(15):
        before = len(real.hand)
        real = real.roll(EN, rng)
        seen = seen.read(EN, [d.face for d in real.hand[before:]])
        assert seen.rack == real.rack
        free = [s for s in squares if s not in real.mat]
        moves = [(free[k], real.hand[k].face.letter) for k in range(rng.randint(0, len(real.hand)))]
        real, seen = real.place(moves), seen.place(moves)
        back = rng.sample(sorted(real.mat), rng.randint(0, len(real.mat)))
        real, seen = real.to_cup(back, hand=not advanced), seen.to_cup(back, hand=not advanced)
        assert {s: d.face for s, d in seen.mat.items()} == {s: d.face for s, d in real.mat.items()}
        assert len(seen.cup) == len(real.cup)
