from __future__ import annotations

import numpy as np
import pytest

from vision import cells
from vision.errors import VisionError
from vision.glyphs import font_choices, render_tile
from vision.tilesets import tile_sets, tile_values


def _on_board(tile: np.ndarray) -> np.ndarray:
    """A tile of about one square on the board's green, in a window of 1.4 squares (as the reader cuts)."""
    window = np.empty((56, 56, 3), np.uint8)
    window[:] = (60, 135, 40)
    window[9 : 9 + tile.shape[0], 9 : 9 + tile.shape[1]] = tile
    return window


@pytest.mark.parametrize("font", font_choices())
def test_every_font_draws_a_findable_glyph(font: str) -> None:
    for letter in "AÜQI":
        tile = render_tile(letter, 6, 38, font, scale=0.47)
        assert tile.shape == (38, 38, 3)
        _patch, height = cells.glyph_patch(_on_board(tile))
        assert 0.3 < height < 0.75, f"{letter} in {font}"


def test_a_blank_tile_has_no_glyph() -> None:
    _patch, height = cells.glyph_patch(_on_board(render_tile("?", None, 38, "hershey:simplex")))
    assert height == 0.0


def test_tile_sets_are_the_engines() -> None:
    from game.tiles import load_tile_set, tile_set_names

    assert tile_sets() == sorted(tile_set_names()) and {"english", "german"} <= set(tile_sets())
    engine = load_tile_set("german").values
    assert tile_values("german") == {k: v for k, v in engine.items() if k != "?"}
    assert tile_values("german")["Ä"] == 6 and tile_values("english")["Q"] == 10
    assert len(tile_values("german")) == 29
    with pytest.raises(VisionError, match="unknown tile set 'klingon'"):
        tile_values("klingon")


def test_sharpness_falls_with_blur() -> None:
    import cv2

    img = np.zeros((200, 200), np.uint8)
    img[::20] = 255
    img[:, ::20] = 255
    assert cells.sharpness(img) > cells.sharpness(cv2.GaussianBlur(img, (0, 0), 3))
