"""Rule sets: everything that differs between editions, sources and variants, as one value.

The engine reads every constant it needs (layout, tile set, rack size, bingo size and bonus,
first-play rule, exchange rule, challenge rule, end-of-game rules, time penalty) from a
`RuleSet`, never from module constants, so a variant is a new `RuleSet` (built with
`dataclasses.replace`) plus, at most, a small `Game` subclass. Sources, as in RULES.md:
[ONYX] and [PC] the Hasbro manuals, [DE] the German manual, [NASPA] tournament practice.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from game.errors import DataError
from game.layout import Layout, load_layout
from game.tiles import TileSet, load_tile_set


class ChallengeRule(enum.Enum):
    """What happens when a play is challenged [ONYX][PC][NASPA]."""

    VOID = "void"  # the lexicon judges every play at once; phonies are refused (PC auto challenge)
    SINGLE = "single"  # a wrong challenge costs nothing
    DOUBLE = "double"  # a wrong challenger loses the next turn [ONYX]
    FIVE_POINT = "five-point"  # a wrong challenge gives the challenged player 5 points
    TEN_POINT = "ten-point"  # ... 10 points

    @property
    def bonus(self) -> int:
        """Points the challenged player gets for each wrong challenge."""
        return {ChallengeRule.FIVE_POINT: 5, ChallengeRule.TEN_POINT: 10}.get(self, 0)


class EndRackRule(enum.Enum):
    """How unplayed tiles are scored when a player goes out."""

    EACH_WAY = "each-way"  # [ONYX][PC]: others lose their racks, the player out gains them (1x)
    DOUBLE_TO_OUT = "double"  # [NASPA]: the player out gains twice the others' racks; nobody loses


@dataclass(frozen=True)
class ScorelessLimit:
    """The game ends after this many consecutive scoreless turns.

    `turns` counted per player when `per_player` (so 3 means 6 turns in a two-player game), or
    in total. With `passes_only`, only passes count and any other turn (even an exchange)
    breaks the run [DE].
    """

    turns: int
    per_player: bool
    passes_only: bool = False

    def limit(self, players: int) -> int:
        return self.turns * players if self.per_player else self.turns


SCORELESS_PC = ScorelessLimit(3, per_player=True)  # all players three times [PC]
SCORELESS_DE = ScorelessLimit(2, per_player=True, passes_only=True)  # all players pass twice [DE]
SCORELESS_NASPA = ScorelessLimit(6, per_player=False)  # six in a row [NASPA]


@dataclass(frozen=True)
class RuleSet:
    """One game's rules. Build variants with `dataclasses.replace(rules, ...)` or `rules.with_options`."""

    name: str
    layout: Layout
    tiles: TileSet
    rack_size: int = 7
    bingo_tiles: int = 7  # tiles played in one turn that earn the bonus
    bingo_bonus: int = 50  # added after the turn is totalled, never multiplied [DE]
    first_play_min_tiles: int = 2  # the first word has two or more letters [ONYX]
    first_play_covers_start: bool = True
    exchange_min_bag: int = 1  # [DE]: 7; an exchange also never takes more tiles than the bag holds
    challenge: ChallengeRule = ChallengeRule.DOUBLE
    # [WESPA] A.i, the international norm: the 5 or 10 points are owed per word wrongly challenged, not per
    # challenge. The challenger names the words; the bonus is the rule's points times their number.
    challenge_bonus_per_word: bool = False
    scoreless: ScorelessLimit = SCORELESS_PC
    end_racks: EndRackRule = EndRackRule.EACH_WAY
    time_penalty_points: int = 10  # per started minute over [NASPA]
    overtime_loss_minutes: float | None = None  # Woogles: more than this many minutes over loses the game
    min_players: int = 2
    max_players: int = 4
    tie_break_before_racks: bool = True  # [PC]: a tie goes to the higher score before unplayed tiles

    def with_options(self, **changes: object) -> RuleSet:
        """A copy with some options changed (keyword names are the field names)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def classic_english() -> RuleSet:
    """The English edition as the Hasbro manuals give it [ONYX][PC]."""
    return RuleSet("english", load_layout("standard"), load_tile_set("english"))


def naspa() -> RuleSet:
    """North American tournament rules: double challenge, six scoreless turns, 2x rack to the player out."""
    return RuleSet(
        "naspa",
        load_layout("standard"),
        load_tile_set("english"),
        exchange_min_bag=7,
        scoreless=SCORELESS_NASPA,
        end_racks=EndRackRule.DOUBLE_TO_OUT,
        max_players=2,
    )


def german() -> RuleSet:
    """The German edition [DE]: 102 tiles, exchange only with 7 or more in the bag, all pass twice."""
    return RuleSet(
        "german",
        load_layout("standard"),
        load_tile_set("german"),
        exchange_min_bag=7,
        scoreless=SCORELESS_DE,
    )


def polish() -> RuleSet:
    """Polish tiles on the standard board, for records in Polish (tournament rules as [NASPA])."""
    return replace(naspa(), name="polish", tiles=load_tile_set("polish"))


_ENUMS: dict[str, type[enum.Enum]] = {"challenge": ChallengeRule, "end_racks": EndRackRule}


def rules_to_dict(rules: RuleSet) -> dict[str, object]:
    """A JSON-ready description of a rule set: layout and tile set by name, every option by value.

    For journals: `rules_from_dict` rebuilds the same rules from the shipped data files. Layouts and
    tile sets built in code (not from `game/data`) are named but cannot be rebuilt from the name; a
    variant's own extra fields (a subclass of `RuleSet`) are left out: replay those with the variant's rules.
    """
    out: dict[str, object] = {}
    for f in fields(RuleSet):
        value = getattr(rules, f.name)
        if f.name in ("layout", "tiles"):
            out[f.name] = value.name
        elif isinstance(value, enum.Enum):
            out[f.name] = value.value
        elif isinstance(value, ScorelessLimit):
            out[f.name] = {"turns": value.turns, "per_player": value.per_player, "passes_only": value.passes_only}
        else:
            out[f.name] = value
    return out


def rules_from_dict(raw: Mapping[str, Any]) -> RuleSet:
    """Rebuild what `rules_to_dict` wrote; DataError names a bad field."""
    known = {f.name for f in fields(RuleSet)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise DataError(f"rule set: unknown options {', '.join(unknown)}", form="rules_options",
                        options=", ".join(unknown))
    try:
        values: dict[str, Any] = dict(raw)
        values["layout"] = load_layout(str(raw["layout"]))
        values["tiles"] = load_tile_set(str(raw["tiles"]))
        for name, kind in _ENUMS.items():
            if name in values:
                values[name] = kind(values[name])
        if "scoreless" in values:
            values["scoreless"] = ScorelessLimit(**values["scoreless"])
        return RuleSet(**values)
    except DataError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"rule set: {exc!r} in {dict(raw)}", form="rules_value", detail=repr(exc),
                        raw=str(dict(raw))) from exc
