"""Which way round the board lies in the camera's frames, from the letters on its tiles.

The standard premium layout looks the same turned by a quarter, so the board's grid alone cannot say where
A1 is: a camera mounted on the far side of the table, or sideways, sees the same pattern. The tiles can:
every letter stands upright in the board's own orientation (and its value digit sits bottom right). The
rectified board is turned by 0, 1, 2 and 3 quarters and its tiles read each way; the letter classifier finds
the upright turn far more familiar than the others. Printed ArUco markers (`markers.py`) say it directly.

A turn is folded into the calibration's homography (a rotation of board units about the centre), so the
reader, its colour references and every square name work in the board's own A1-O15 from then on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision import cells
from vision.calibration import Calibration
from vision.classifier import TileClassifier
from vision.faces import TileLight
from vision.geometry import SIZE

MIN_MARGIN = 1.35  # the runner-up turn's mean novelty over the best turn's, for the best to be sure ...
FEW_TILES_MARGIN = 0.65  # ... plus this over the number of tiles: one tile must be very sure on its own
NOVELTY_CAP = 6.0  # one odd tile (a smudge, a hand's edge) must not outvote the others


def quarter_matrix(quarters: int) -> np.ndarray:
    """Board units -> board units of the board turned like `np.rot90(rectified, quarters)` turns its image."""
    one = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, float(SIZE)], [0.0, 0.0, 1.0]])
    return np.linalg.matrix_power(one, quarters % 4)


def turned_index(quarters: int) -> np.ndarray:
    """For each square of the turned board (row-major), the index of the same square before the turn."""
    inverse = np.linalg.inv(quarter_matrix(quarters))
    out = np.empty(SIZE * SIZE, np.int64)
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        u, v, _ = inverse @ np.array([c + 0.5, r + 0.5, 1.0])
        out[i] = int(np.floor(v)) * SIZE + int(np.floor(u))
    return out


def turn(calibration: Calibration, quarters: int) -> Calibration:
    """The calibration with the board turned by `quarters`, and its orientation marked settled."""
    extra = dict(calibration.extra)
    colours = extra.get("empty_colours")
    if isinstance(colours, list) and len(colours) == SIZE * SIZE:
        extra["empty_colours"] = [colours[j] for j in turned_index(quarters)]
    lamp = extra.get("light")
    if isinstance(lamp, dict) and len(lamp.get("field", [])) == 6:
        c = list(lamp["field"])
        for _ in range(quarters % 4):  # x, y of the turned board are y, -x of the board before
            c = [c[0], c[2], -c[1], c[4], c[3], -c[5]]
        extra["light"] = {**lamp, "field": c}
    extra["orientation"] = "settled"
    return Calibration.from_matrix(
        quarter_matrix(quarters) @ calibration.matrix,
        calibration.image_size,
        method=calibration.method,
        source=calibration.source,
        residual=calibration.residual,
        extra=extra,
    )


def is_settled(calibration: Calibration) -> bool:
    """Markers name their corners; a grid's orientation is known once its tiles have settled it."""
    return calibration.method == "aruco" or calibration.extra.get("orientation") == "settled"


@dataclass(frozen=True)
class Vote:
    """The tiles' verdict: the best turn, how many tiles voted, and each turn's mean novelty."""

    quarters: int
    tiles: int
    novelty: tuple[float, float, float, float]

    @property
    def sure(self) -> bool:
        ranked = sorted(self.novelty)
        if self.tiles < 1:
            return False
        return ranked[1] >= (MIN_MARGIN + FEW_TILES_MARGIN / self.tiles) * max(ranked[0], 1e-6)


def vote(
    rect: np.ndarray, tiles: list[int], classifier: TileClassifier, board_value: float = 0.0,
    faces: TileLight | None = None,
) -> Vote:
    """Read the tiles on `tiles` (square indices of `rect`) in each of the four turns; the most familiar wins.

    `rect` is the rectified board (`cells.rectify`), square, so a turn of the image is exact.
    """
    if not tiles:
        return Vote(0, 0, (0.0, 0.0, 0.0, 0.0))
    means = []
    count = 0
    for q in range(4):
        turned = np.ascontiguousarray(np.rot90(rect, q))
        pl = cells.planes(turned, board_value, faces.turned(q) if faces is not None else None)
        where = turned_index(q)
        # The square index i before the turn lies at index k after it, where where[k] == i.
        after = np.argsort(where)
        squares = [divmod(int(after[i]), SIZE) for i in tiles]
        glyphs = cells.board_glyphs(pl, squares)
        patches = [p for p, _g in glyphs.values() if p is not None]
        guesses = classifier.predict(np.stack(patches)) if patches else []
        count = max(count, len(guesses))
        # A tile whose letter is not found this way round counts as unfamiliar as any.
        total = sum(min(g.novelty, NOVELTY_CAP) for g in guesses) + NOVELTY_CAP * (len(tiles) - len(guesses))
        means.append(total / len(tiles))
    best = int(np.argmin(means))
    return Vote(best, count, (means[0], means[1], means[2], means[3]))
