"""Property tests over random seeded Scramble games (basic and advanced, with random challenges).

Each example plays a whole game from a seed: every turn rolls, tries random placements until the
engine takes one (no lexicon: the placement rules judge, and a challenge's verdict is random),
or lets the timer run out. The invariants of the issue are checked at the start of every turn.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import IllegalPlayError
from game.events import EventKind
from game.play import Placement
from game.scramble import ScrambleGame, scramble_rules
from game.scramble.cup import MAX_ROLL
from game.scramble.dice import DICE_PER_SET
from game.scramble.rule import is_one_word
from game.squares import Direction
from game.tiles import BLANK, Tile

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def random_play(g: ScrambleGame, rng: random.Random, tries: int = 40) -> bool:
    """Try random placements of dice from the hand; play the first the engine accepts."""
    hand = [f.letter for f in g.hand()]
    occupied = {sq for sq, _ in g.board.tiles()}
    size = g.board.width
    for _ in range(tries):
        direction = rng.choice([Direction.ACROSS, Direction.DOWN])
        count = rng.randint(1, len(hand))
        if occupied:
            anchor = rng.choice(sorted(occupied))
            start = anchor.step(rng.choice([Direction.ACROSS, Direction.DOWN]), rng.choice([-1, 1]))
            start = start.step(direction, -rng.randint(0, count - 1))
        else:
            start = g.board.layout.start.step(direction, -rng.randint(0, count - 1))
        letters = rng.sample(hand, count)
        placements = []
        square = start
        while letters and 0 <= square.row < size and 0 <= square.col < size:
            if square not in occupied:
                letter = letters.pop()
                tile = Tile(rng.choice(LETTERS), blank=True) if letter == BLANK else Tile(letter)
                placements.append(Placement(square, tile))
            square = square.step(direction)
        try:
            g.evaluate(placements)
        except IllegalPlayError:
            continue
        g.play(placements)
        return True
    return False


def check_turn_start(g: ScrambleGame) -> None:
    dice = g.dice
    assert len(dice.cup) + len(dice.hand) + len(dice.mat) == DICE_PER_SET
    on_board = {sq: tile for sq, tile in g.board.tiles()}
    assert is_one_word(on_board), f"more than one word on the mat:\n{g.board}"
    assert set(on_board) == set(dice.mat)
    for square, tile in on_board.items():
        assert dice.mat[square].face.letter == tile.rack_letter
    if not g.rules.advanced:
        assert not dice.hand
    assert all(score >= 0 for score in g.scores)


def play_random_game(seed: int, advanced: bool, players: int) -> None:
    """One seeded game of random plays, random time-outs and random challenges, checking as it goes."""
    rng = random.Random(seed)
    g = ScrambleGame(
        scramble_rules(advanced=advanced, target=rng.choice([60, 120, 200])),
        [f"P{i}" for i in range(players)],
        seed=seed,
    )
    for _ in range(40):
        if g.over:
            break
        check_turn_start(g)
        passed = len(g.dice.hand)
        cup = len(g.dice.cup)
        g.roll()
        assert len(g.dice.hand) == min(MAX_ROLL, passed + cup) <= MAX_ROLL
        if rng.random() < 0.1 or not random_play(g, rng):
            g.time_up()
        elif rng.random() < 0.25:
            mover = next(e.player for e in reversed(g.events) if e.kind is EventKind.PLAY)
            challenger = rng.choice([i for i in range(players) if i != mover])
            g.challenge(challenger, valid=rng.random() < 0.5)
    if not g.over:
        check_turn_start(g)
    for event in g.events:
        # the only points ever taken away: a phony's own score, when it is withdrawn
        assert event.delta >= 0 or event.kind is EventKind.WITHDRAWN
    assert g.over == any(score >= g.rules.target for score in g.scores)
    if g.over:
        assert len(g.winners()) >= 1 and g.scores[g.winners()[0]] >= g.rules.target


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), advanced=st.booleans(), players=st.integers(2, 4))
def test_random_games_keep_the_invariants(seed: int, advanced: bool, players: int) -> None:
    play_random_game(seed, advanced, players)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_seeded_games_replay_exactly(seed: int) -> None:
    rng = random.Random(seed)
    g = ScrambleGame(scramble_rules(advanced=True), ["Ann", "Ben"], seed=seed)
    for _ in range(8):
        if g.over:
            break
        g.roll()
        if not random_play(g, rng):
            g.time_up()
    again = ScrambleGame.replay(g.rules, g.to_dict())
    assert again.scores == g.scores and again.dice == g.dice and again.mat() == g.mat()
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in g.events]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), advanced=st.booleans(), players=st.integers(2, 4))
def test_many_random_games_keep_the_invariants(seed: int, advanced: bool, players: int) -> None:
    """The same properties over many more games (run with the slow tests)."""
    play_random_game(seed, advanced, players)
