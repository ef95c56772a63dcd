"""Whole simulated games (racks known, seeded bag) played to the end, written as GCG, checked again.

A tiny move maker plays one legal tile at a time (no lexicon: every placement the rules allow), with
now and then an exchange, a wrong challenge or a withdrawn play, until a player goes out. The record
checker, which knows no racks, must then agree with every line the game wrote.
"""

from __future__ import annotations

import random

import pytest

from game.events import EventKind
from game.game import Game
from game.gcg import parse_gcg, write_gcg
from game.gcg_check import check_record
from game.rules import ChallengeRule, EndRackRule, classic_english, naspa

from .helpers import one_tile_play


@pytest.mark.parametrize(("seed", "rules"), [
    (1, naspa()),
    (2, classic_english().with_options(end_racks=EndRackRule.EACH_WAY, challenge=ChallengeRule.FIVE_POINT)),
    (3, naspa().with_options(challenge=ChallengeRule.TEN_POINT)),
])
def test_simulated_game_to_the_end_checks_clean(seed: int, rules: object) -> None:
    rng = random.Random(seed)
    game = Game(rules, ["ann", "bob"], seed=seed)  # type: ignore[arg-type]
    turns = 0
    while not game.over and turns < 400:
        turns += 1
        who = game.to_move
        roll = rng.random()
        if roll < 0.05 and game.bag_count >= 7:
            game.exchange((game.rack(who) or "")[:2])
            continue
        play = one_tile_play(game, rng)
        if play is None:
            game.pass_turn()
            continue
        game.play(play)
        if game.over:
            break
        if roll > 0.95:
            game.challenge(1 - who, valid=False)  # withdrawn
        elif roll > 0.9 and game.rules.challenge.bonus:
            game.challenge(1 - who, valid=True)
    assert game.over, f"no end after {turns} turns"
    kinds = {e.kind for e in game.events}
    assert EventKind.END_RACK in kinds and EventKind.PLAY in kinds
    text = write_gcg(game.players, game.events)
    result = check_record(parse_gcg(text), rules)  # type: ignore[arg-type]
    assert result.mismatches == [], result.mismatches[:3]
    # the racks the checker inferred at the end are the racks the game knew
    final = parse_gcg(text).moves[-1]
    assert final.total == game.scores[game.events[-1].player]
