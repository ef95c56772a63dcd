"""What is wrong on the board now, derived from the picture and the links: the checks that block a commit.

A tile moved or changed outside a turn, tiles put down after the commit, the sensor board unplugged, the camera
lost. None of these is an event: each is found afresh from what the table holds, every time it is asked, so it
goes as soon as the board is right again and the game state never changes because of one. The machine
(referee/table/machine.py `_commit`) refuses a clock press while one of them is an error; the view
(referee/table/view.py) says them to the players. Pure, and it returns codes and squares, no words.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from referee.table.picture import Cell

# The codes, in the order they are shown.
CODES = ("board_lost", "camera_lost", "tile_moved", "tile_changed", "tiles_added")


@dataclass(frozen=True)
class Anomaly:
    """One thing wrong on the board: its code (`CODES`), "error" (blocks a commit) or "warning", the squares."""

    code: str
    level: str
    squares: tuple[str, ...] = ()


def anomalies(*, links: Mapping[str, bool], committed: Mapping[str, str], observed: Mapping[str, Cell],
              pending: Collection[str], by_hand: Collection[str], expected: Collection[str],
              outside_turn: bool) -> list[Anomaly]:
    """What is wrong now. `committed`: the game's board (square -> letter, lowercase a blank); `observed`: the
    picture; `pending`: the squares of the play being read; `by_hand`: squares whose letter a person gave (the
    sensors' letter there is not held against it); `expected`: squares whose tiles are known to lie there
    without being committed (to take back, scrambled dice to remove); `outside_turn`: no tiles may go down now.

    A lost sensor board says nothing of the squares: with no picture to trust, only its loss is reported."""
    out: list[Anomaly] = []
    board = links.get("board")
    if board is False:
        out.append(Anomaly("board_lost", "error"))
    if links.get("camera") is False:
        out.append(Anomaly("camera_lost", "error"))
    if board is False:
        return out
    lifted = [sq for sq in committed if sq not in observed] + [sq for sq in pending if sq not in observed]
    if lifted:
        out.append(Anomaly("tile_moved", "error", tuple(sorted(lifted))))
    changed = [sq for sq, ch in committed.items()
               if sq in observed and sq not in by_hand and not ch.islower()
               and observed[sq].sure and observed[sq].letter != ch]
    if changed:
        out.append(Anomaly("tile_changed", "error", tuple(sorted(changed))))
    if outside_turn:
        extra = [sq for sq in observed if sq not in committed and sq not in pending and sq not in expected]
        if extra:
            out.append(Anomaly("tiles_added", "warning", tuple(sorted(extra))))
    return out
