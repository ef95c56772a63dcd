"""Property tests of the game: whatever legal sequence of turns and challenges, the tiles and the score
sheet stay consistent, and a withdrawn play leaves the game exactly as it was before it."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import RefereeError
from game.game import Game
from game.rules import ChallengeRule, classic_english

from .helpers import one_tile_play

RULES = classic_english().with_options(challenge=ChallengeRule.FIVE_POINT)
ACTIONS = st.lists(st.sampled_from(["play", "play", "play", "exchange", "pass", "phony", "good", "time"]),
                   min_size=1, max_size=40)


def state(game: Game) -> tuple[object, ...]:
    return (str(game.board), list(game.scores), [game.rack(i) for i in range(2)], list(game.bag or []),
            game.over)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), actions=ACTIONS)
def test_tiles_and_scores_stay_consistent(seed: int, actions: list[str]) -> None:
    rng = random.Random(seed)
    game = Game(RULES, ["ann", "bob"], seed=seed)
    before_last_play = None
    for action in actions:
        if game.over:
            break
        who = game.to_move
        try:
            if action == "play":
                placements = one_tile_play(game, rng)
                if placements is None:
                    continue
                before_last_play = state(game)
                game.play(placements)
            elif action == "exchange":
                game.exchange((game.rack(who) or "")[:3])
            elif action == "pass":
                game.pass_turn()
            elif action == "phony" and game.last_play is not None and before_last_play is not None:
                game.challenge(game.to_move, valid=False)
                after = state(game)
                # the board, the bag and the scores are back to before the play; the turn has passed
                assert after[0] == before_last_play[0] and after[3] == before_last_play[3]
                assert after[2] == before_last_play[2]
            elif action == "good" and game.last_play is not None:
                game.challenge(game.to_move, valid=True)
            elif action == "time":
                game.apply_time_penalty(who, rng.randint(0, 200))
        except RefereeError:
            pass  # a refused action changes nothing; what follows must still hold
        on_racks = sum(len(game.rack(i) or "") for i in range(2))
        assert game.board.tile_count + on_racks + game.bag_count == RULES.tiles.total
        for i in range(2):
            assert game.scores[i] == sum(e.delta for e in game.events if e.player == i)
        # tile tracking from ann's seat: what she cannot see, what is on the board and her rack make the set
        assert game.unseen(0) + game.board.rack_letters() + Counter(game.rack(0) or "") == RULES.tiles.full_bag()
