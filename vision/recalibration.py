"""Finding the board again after the camera was bumped, and refusing a grid that would misplace the tiles.

Why: a camera knocked by a sleeve mid-game points every square at its neighbour's pixels, quietly; a
human with a laptop is not at every table. The reader (`BoardReader`) notices a bump (many squares change
colour at once, or the tiles it knew are no longer read where they were), finds the grid again on that very
frame (`registration.calibrate`), and switches to it only when the tiles it knew read there again, the same
letters on the same squares: the premium layout alone cannot tell a grid turned by a quarter, and the tiles
are the game. Until then it keeps waiting, and says so.

This module holds the pure parts: what the reader remembers of the tiles, how far a grid moved, and the
check of a candidate grid's reading against the remembered tiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from vision import orientation
from vision.calibration import Calibration
from vision.geometry import SIZE

NOT_MOVED = 0.2  # squares: a grid found again within this of the old one is the same grid (a hand, not a bump)
RETRY_FRAMES = 5  # after a refused or needless search, frames read before the grid is searched for again
MIN_KNOWN = 3  # remembered tiles from which losing half of them at once suggests the camera moved
MANY_FOREIGN = 40  # foreign squares that suggest a bump wherever they lie
SPREAD_FOREIGN = 16  # fewer suffice when they lie in every quarter of the board


def looks_moved(foreign: set[int]) -> bool:
    """Does this frame's set of foreign squares (indices, row-major) suggest the camera moved?

    Many foreign squares do, wherever they are. A small turn moves the edges and corners of the grid and
    barely its centre, so a bump of a few degrees shows fewer, spread around the whole board; a hand or a
    sleeve covers one compact region, reaching from one side. Spread means: foreign squares in each of the
    board's four quarters. A false alarm only costs one search for the grid (it is found where it was)."""
    if len(foreign) >= MANY_FOREIGN:
        return True
    if len(foreign) < SPREAD_FOREIGN:
        return False
    half = SIZE // 2
    quarters = {(i // SIZE > half, i % SIZE > half) for i in foreign if i // SIZE != half and i % SIZE != half}
    return len(quarters) == 4


def moved_by(old: Calibration, new: Calibration) -> tuple[int, float]:
    """How far the grid `new` lies from `old`: the quarter turn of `new` that lies nearest, and the distance
    (squares, worst of the grid's corners and centre) in `old`'s board units."""
    probe = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE], [SIZE / 2, SIZE / 2]], np.float64)
    best = (0, float("inf"))
    for quarters in range(4):
        turned = orientation.turn(new, quarters)
        seen = old.image_to_board(turned.board_to_image(probe))
        distance = float(np.linalg.norm(seen - probe, axis=1).max())
        if distance < best[1]:
            best = (quarters, distance)
    return best


@dataclass(frozen=True)
class TileCheck:
    """A candidate grid's reading of the remembered tiles: how many read the same, and where they differ."""

    checked: int
    differ: tuple[str, ...]

    @property
    def same(self) -> bool:
        return self.checked > 0 and not self.differ


def check_tiles(known: Mapping[str, str], letters: Mapping[str, str], unseen: set[str]) -> TileCheck:
    """Compare the remembered tiles (`known`: square -> letter) with a reading's letters on those squares.

    Squares outside the candidate's frame are skipped (they cannot be checked); every other remembered
    tile must read the same letter (a blank as a blank) on the same square.
    """
    checked = [sq for sq in known if sq not in unseen]
    differ = tuple(sq for sq in checked if letters.get(sq) != known[sq])
    return TileCheck(len(checked), differ)


def lost_tiles(known: Mapping[str, str], letters: Mapping[str, str], doubted: set[str]) -> list[str]:
    """Remembered tiles a clear reading no longer shows (another letter, or none), leaving doubted squares out."""
    return [sq for sq, letter in known.items() if sq not in doubted and letters.get(sq) != letter]
