"""What changed between the settings a journaled game has and the configuration's, in the configuration's words.

A game that was created but not started takes the configuration's new settings when the referee starts again
(nothing was played under the old ones); a game under way keeps the ones it started with to its end (its clocks,
challenge rule and tiles cannot change between two moves) and says so, naming each one, on the page and in the
log, instead of resuming silently (docs/configuration.md).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from referee.table.setup import TableSetup

# TableSetup's fields as the configuration file names them (docs/configuration.md).
CONFIG_KEYS: dict[str, str] = {
    "table": "table.name", "kind": "game.kind", "edition": "game.edition", "language": "table.language",
    "players": "game.players", "challenge": "game.challenge", "challenge_window_ms": "game.challenge_window_s",
    "clock_mode": "clocks.mode", "minutes_per_player": "clocks.minutes_per_player",
    "overtime_penalty_points": "clocks.overtime_penalty_points",
    "overtime_limit_minutes": "clocks.overtime_limit_minutes", "on_max_overtime": "clocks.on_max_overtime",
    "increment_seconds": "clocks.increment_seconds", "turn_seconds": "clocks.turn_seconds",
    "scramble_target": "game.scramble_target", "lexicon": "game.lexicon", "end_racks": "game.end_racks",
    "challenge_bonus_per_word": "game.challenge_bonus_per_word", "dice": "game.dice",
    "dice_set": "game.dice (the faces in its file)",
}


def _shown(name: str, value: Any) -> str:
    if name == "challenge_window_ms":
        return f"{value / 1000:g}"
    if name == "players":
        return ", ".join(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if value != "" else '""'


def setup_changes(kept: TableSetup, configured: TableSetup) -> list[tuple[str, str, str]]:
    """Each setting that differs: (the configuration's key, the game's value, the configuration's value)."""
    changes = []
    for f in fields(TableSetup):
        old, new = getattr(kept, f.name), getattr(configured, f.name)
        if old != new:
            key = CONFIG_KEYS.get(f.name, f.name)
            if f.name == "dice_set":
                changes.append((key, "", ""))
            else:
                changes.append((key, _shown(f.name, old), _shown(f.name, new)))
    return changes


def changes_text(changes: list[tuple[str, str, str]]) -> str:
    """`clocks.minutes_per_player 1 -> 2; game.challenge double -> single`."""
    return "; ".join(f"{key} {old} -> {new}" if old or new else key for key, old, new in changes)
