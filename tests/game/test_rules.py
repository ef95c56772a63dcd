from __future__ import annotations

import pytest

from game.rules import (
    SCORELESS_DE,
    SCORELESS_NASPA,
    SCORELESS_PC,
    ChallengeRule,
    EndRackRule,
    classic_english,
    german,
    naspa,
    polish,
)


def test_presets_follow_their_sources() -> None:
    en, de, na = classic_english(), german(), naspa()
    assert (en.rack_size, en.bingo_tiles, en.bingo_bonus, en.first_play_min_tiles) == (7, 7, 50, 2)
    assert en.end_racks is EndRackRule.EACH_WAY and en.scoreless == SCORELESS_PC
    assert de.exchange_min_bag == 7 and de.scoreless == SCORELESS_DE and de.tiles.total == 102
    assert na.end_racks is EndRackRule.DOUBLE_TO_OUT and na.scoreless == SCORELESS_NASPA and na.max_players == 2
    assert polish().tiles.name == "polish"


@pytest.mark.parametrize(("limit", "players", "turns"), [(SCORELESS_PC, 2, 6), (SCORELESS_PC, 4, 12),
                                                         (SCORELESS_DE, 3, 6), (SCORELESS_NASPA, 2, 6)])
def test_scoreless_limits(limit: object, players: int, turns: int) -> None:
    assert limit.limit(players) == turns  # type: ignore[attr-defined]


def test_challenge_bonuses_and_options() -> None:
    assert [r.bonus for r in ChallengeRule] == [0, 0, 0, 5, 10]
    assert classic_english().with_options(bingo_bonus=35).bingo_bonus == 35
