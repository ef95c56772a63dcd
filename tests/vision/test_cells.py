"""The per-pixel planes of a rectified board: which pixels are a tile's pale face."""

from __future__ import annotations

import cv2
import numpy as np

from vision import cells
from vision.geometry import SIZE
from vision.synth import render_board

BOARD = [*["." * SIZE] * 7, "......TAG......", *["." * SIZE] * 7]


def _rect(gain: float) -> np.ndarray:
    """The rendered board (one square of margin at its own pitch) at `cells.PITCH`, the light times `gain`."""
    flat = render_board(BOARD)
    side = round((SIZE + 2 * cells.PAD) * cells.PITCH)
    margin = flat.shape[0] / (SIZE + 2)  # render_board's margin: one square of its pixels
    crop = flat[round(margin * (1 - cells.PAD)) : round(flat.shape[0] - margin * (1 - cells.PAD))]
    crop = crop[:, round(margin * (1 - cells.PAD)) : round(flat.shape[1] - margin * (1 - cells.PAD))]
    scaled = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
    return np.clip(scaled.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def _tile_face_share(rect: np.ndarray, reference_value: float) -> np.ndarray:
    stats = cells.colour_stats(rect, cells.planes(rect, reference_value))
    return stats[[7 * SIZE + 6, 7 * SIZE + 7, 7 * SIZE + 8], 0]


def test_tiles_are_pale_on_a_lit_board() -> None:
    rect = _rect(1.0)
    value = cells.board_value(cv2.cvtColor(rect, cv2.COLOR_BGR2HSV))
    assert value >= cells.DARK_BOARD
    assert (_tile_face_share(rect, value) > 0.5).all()


def test_tiles_stay_pale_on_a_board_dark_since_calibration() -> None:
    """A room at 40 % light whose lamp was not taken out: the board's own value is the reference, and the
    tiles, far paler than the board, must still count as tiles."""
    rect = _rect(0.4)
    value = cells.board_value(cv2.cvtColor(rect, cv2.COLOR_BGR2HSV))
    assert 0 < value < cells.DARK_BOARD
    assert (_tile_face_share(rect, value) > 0.5).all()
