"""What a table's state machine is built from: the game-relevant part of the configuration.

Journaled with each game (as a dict), so a replay after a restart rebuilds exactly the machine the
game started with, even if the configuration file was edited in between. The configuration's keys become a
setup in the builder (`referee.parts.table_setup`): the table knows nothing of the file it came from.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from game.errors import RefereeError

# The choices of a game's setup: the configuration's keys take these values (referee/config.py), and a journaled
# setup is held to them (`from_journal`).
GAME_KINDS = ("standard", "scramble", "scramble-advanced")
EDITIONS = ("english", "german")
LANGUAGES = ("en", "de")
CHALLENGE_RULES = ("double", "single", "five-point", "ten-point", "void", "auto")
END_RACK_RULES = ("each-way", "double")  # game.rules.EndRackRule: [ONYX][PC] 1x each way, [NASPA] 2x to the player out
CLOCK_MODES = ("none", "turn", "tournament")
MAX_OVERTIME_ACTIONS = ("flag", "lose")  # game.clock.ClockConfig.on_max_overtime: [NASPA] the director decides; Woogles


class SetupError(RefereeError, ValueError):
    """A journaled setup that no configuration could have made (a damaged card, a hand edit)."""


# What `from_journal` holds each key to: the configuration's own choices, numbers in the configuration's
# ranges (converted as `referee.parts.table_setup` does), strings.
_CHOICES: dict[str, tuple[str, ...]] = {
    "kind": GAME_KINDS, "edition": EDITIONS, "language": LANGUAGES, "challenge": CHALLENGE_RULES,
    "clock_mode": CLOCK_MODES, "on_max_overtime": MAX_OVERTIME_ACTIONS, "end_racks": ("", *END_RACK_RULES),
}
_NUMBERS: dict[str, tuple[float, float]] = {
    "challenge_window_ms": (0, 600_000), "minutes_per_player": (0, 600), "overtime_penalty_points": (0, 100),
    "overtime_limit_minutes": (0, 600), "increment_seconds": (0, 600), "turn_seconds": (1, 3600),
    "scramble_target": (1, 2000),
}
_WHOLE = frozenset({"challenge_window_ms", "overtime_penalty_points", "scramble_target"})
_STRINGS = frozenset({"table", "lexicon", "dice", "dice_set"})


def _checked(key: str, value: Any) -> Any:
    """`value` of journaled key `key`, or SetupError saying what it must be."""
    if key in _CHOICES:
        if not isinstance(value, str) or value not in _CHOICES[key]:
            allowed = ", ".join(repr(a) for a in _CHOICES[key])
            raise SetupError(f"{key} must be one of {allowed}, not {str(value)[:40]!r}")
        return value
    if key in _NUMBERS:
        lo, hi = _NUMBERS[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise SetupError(f"{key} must be a number, not {str(value)[:40]!r}")
        if not lo <= value <= hi:
            raise SetupError(f"{key} must be between {lo:g} and {hi:g}, not {value!r}")
        return int(value) if key in _WHOLE else float(value)
    if key in _STRINGS:
        if not isinstance(value, str):
            raise SetupError(f"{key} must be a string, not {str(value)[:40]!r}")
        return value
    if key == "players":
        if (not isinstance(value, list | tuple) or not 2 <= len(value) <= 4
                or not all(isinstance(n, str) and n.strip() and len(n) <= 200 for n in value)):
            raise SetupError(f"players must be a list of 2 to 4 names, not {str(value)[:60]!r}")
        return tuple(value)
    if key == "challenge_bonus_per_word":
        if not isinstance(value, bool):
            raise SetupError(f"{key} must be true or false, not {str(value)[:40]!r}")
        return value
    return value


@dataclass(frozen=True)
class TableSetup:
    table: str = "Table 1"
    kind: str = "standard"
    edition: str = "english"
    language: str = "en"
    players: tuple[str, ...] = ("Player 1", "Player 2")
    challenge: str = "double"
    challenge_window_ms: int = 15_000
    clock_mode: str = "none"  # "none", "turn", "tournament"
    minutes_per_player: float = 25.0
    overtime_penalty_points: int = 10
    overtime_limit_minutes: float = 10.0
    on_max_overtime: str = "flag"  # "flag" (the director is called) or "lose" (the game ends, lost on time)
    increment_seconds: float = 0.0
    turn_seconds: float = 180.0
    scramble_target: int = 200
    lexicon: str = ""  # the configured lexicon (an installed name or a path), for replays of the journal
    end_racks: str = ""  # "each-way" or "double"; "" the rule set's own (journals before the option have none)
    challenge_bonus_per_word: bool = False  # five-/ten-point: the bonus for each word wrongly challenged
    dice: str = ""  # Scramble: the configured dice (a shipped set's name or a file's path), for people to read
    # Scramble: the faces themselves (the dice file's JSON), so a resumed game rolls the dice it started with
    # even if the file was edited or removed; "" the edition's shipped set
    dice_set: str = ""

    @property
    def scramble(self) -> bool:
        return self.kind != "standard"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["players"] = list(self.players)
        return d

    @classmethod
    def from_journal(cls, data: Mapping[str, Any]) -> TableSetup:
        """The setup journaled with a game, checked as the configuration is: a damaged one (a game `kind` of
        "chess", a player's name that is a number) raises SetupError naming the key, instead of resuming as
        some other game or failing later with a traceback. Keys a newer referee wrote are left out, and keys
        an older one did not write keep their defaults, as in `from_dict`."""
        known = {f.name for f in fields(cls)}
        kwargs = {k: _checked(k, v) for k, v in data.items() if k in known}
        setup = cls(**kwargs)
        if setup.kind != "standard" and setup.clock_mode == "tournament":
            raise SetupError("clock_mode 'tournament' is not a Scramble game's")
        return setup

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSetup:
        known = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in known}
        if "players" in kwargs:
            kwargs["players"] = tuple(kwargs["players"])
        return cls(**kwargs)
