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


def test_rules_round_trip_through_json() -> None:
    import json

    from game.rules import SCORELESS_DE, rules_from_dict, rules_to_dict

    rules = german().with_options(challenge=ChallengeRule.TEN_POINT, bingo_bonus=40)
    raw = json.loads(json.dumps(rules_to_dict(rules)))
    assert raw["layout"] == "standard" and raw["tiles"] == "german" and raw["challenge"] == "ten-point"
    again = rules_from_dict(raw)
    assert again == rules and again.scoreless == SCORELESS_DE


@pytest.mark.parametrize(
    ("change", "message"),
    [({"colour": "red"}, "unknown options colour"), ({"challenge": "loud"}, "'loud' is not a valid"),
     ({"tiles": "klingon"}, "no tile set named 'klingon'")],
)
def test_bad_rules_dict(change: dict[str, object], message: str) -> None:
    from game.errors import DataError
    from game.rules import rules_from_dict, rules_to_dict

    with pytest.raises(DataError, match=message):
        rules_from_dict({**rules_to_dict(classic_english()), **change})
