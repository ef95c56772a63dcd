"""What a table's state machine is built from: the game-relevant part of the configuration.

Journaled with each game (as a dict), so a replay after a restart rebuilds exactly the machine the
game started with, even if the configuration file was edited in between.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from referee.config import Config


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

    @classmethod
    def from_config(cls, c: Config) -> TableSetup:
        return cls(
            table=c.table.name,
            kind=c.game.kind,
            edition=c.game.edition,
            language=c.table.language,
            players=c.game.players,
            challenge=c.game.challenge,
            challenge_window_ms=round(c.game.challenge_window_s * 1000),
            clock_mode=c.clocks.mode,
            minutes_per_player=c.clocks.minutes_per_player,
            overtime_penalty_points=c.clocks.overtime_penalty_points,
            overtime_limit_minutes=c.clocks.overtime_limit_minutes,
            on_max_overtime=c.clocks.on_max_overtime,
            increment_seconds=c.clocks.increment_seconds,
            turn_seconds=60.0 if c.game.kind != "standard" else c.clocks.turn_seconds,
            scramble_target=c.game.scramble_target,
            lexicon=c.game.lexicon,
            end_racks=c.game.end_racks,
            challenge_bonus_per_word=c.game.challenge_bonus_per_word,
            dice=c.game.dice,
            dice_set=c.game.dice_set.to_json() if c.game.dice_set is not None else "",
        )

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["players"] = list(self.players)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSetup:
        known = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in known}
        if "players" in kwargs:
            kwargs["players"] = tuple(kwargs["players"])
        return cls(**kwargs)
