"""What the sensors say is on the board right now: one `Cell` per occupied square.

The picture is the meeting point of the sensor board, the camera and the state machine. It is
small, plain and JSON-ready because every picture that changes something is journaled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.squares import COLUMNS


@dataclass(frozen=True)
class Cell:
    """An occupied square.

    `letter`: the uppercase letter read there, or None when nobody could read it (a presence-only
    sensor board without a camera, or a camera in doubt). `blank`: the tile is a blank (no letter
    printed; a person says which letter it stands for). `doubt`: why the letter is not trusted
    ("" when it is): shown to the players and asked about, never silently scored.
    """

    letter: str | None = None
    blank: bool = False
    doubt: str = ""

    @property
    def sure(self) -> bool:
        return self.letter is not None and not self.doubt and not self.blank


Picture = Mapping[str, Cell]


def picture_to_json(picture: Picture) -> dict[str, list[Any]]:
    return {sq: [c.letter or "", int(c.blank), c.doubt] for sq, c in sorted(picture.items())}


def picture_from_json(data: Mapping[str, Any]) -> dict[str, Cell]:
    return {sq: Cell(v[0] or None, bool(v[1]), str(v[2])) for sq, v in data.items()}


def square_name(row: int, col: int) -> str:
    """0-based row and column to the board's name: column letter then row number, `H8`."""
    return f"{COLUMNS[col]}{row + 1}"


def square_rc(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, COLUMNS.index(name[0].upper())


def squares_text(squares: list[str] | set[str] | frozenset[str]) -> str:
    """`H8, H9, H10` in board order (row, then column), for messages."""
    return ", ".join(sorted(squares, key=square_rc))
