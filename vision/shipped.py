"""The shipped classifier: taught only on tiles the project renders itself, never on anyone's photos.

Built on first use (a few seconds) from `glyphs.render_tile` in every available font with small turns,
blur, lighting and shifts, then cached in the user's cache folder (`$XDG_CACHE_HOME/scrabble-referee`).
Reading real tiles with it is worse than with a taught model; `referee vision teach` closes the gap.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import cv2
import numpy as np

from vision import cells
from vision.classifier import TileClassifier
from vision.errors import ModelError
from vision.glyphs import font_choices, render_tile
from vision.tilesets import tile_values

RECIPE = 12  # bump when the rendering recipe changes, so stale caches are rebuilt
# Printed tiles use wide geometric faces and large values; the fonts at hand are narrower with small values.
# Letters are drawn from as wide as the font to a third wider, values from 0.18 to 0.3 of the tile.
WIDTHS = (1.0, 1.35)
VALUE_SCALES = (0.18, 0.3)
VALUE_CORNERS = ((0.86, 0.93), (0.9, 0.95))  # where the value's lower-right corner lies: x range, y range


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "scrabble-referee"


def rendered_glyphs(tiles: str, variants: int = 6, seed: int = 0) -> tuple[np.ndarray, list[str]]:
    """Glyph patches of rendered tiles: every letter x font x `variants` random looks."""
    rng = np.random.default_rng(seed)
    size = round(cells.PITCH * 1.4)
    patches, letters = [], []
    for letter, value in tile_values(tiles).items():
        for font in font_choices():
            for _ in range(variants):
                tile_side = round(cells.PITCH * rng.uniform(0.88, 1.0))
                scale = float(rng.uniform(0.42, 0.52))
                short_q = letter == "Q" and rng.random() < 0.75
                width = float(rng.uniform(*WIDTHS))
                value_scale = float(rng.uniform(*VALUE_SCALES))
                value_at = (float(rng.uniform(*VALUE_CORNERS[0])), float(rng.uniform(*VALUE_CORNERS[1])))
                tile = render_tile(
                    letter,
                    value,
                    tile_side,
                    font,
                    scale=scale,
                    short_q=short_q,
                    width=width,
                    value_scale=value_scale,
                    value_at=value_at,
                )
                canvas = _on_green(tile, size, rng.integers(-3, 4, size=2))
                m = cv2.getRotationMatrix2D((size / 2, size / 2), float(rng.uniform(-6, 6)), 1.0)
                canvas = cv2.warpAffine(canvas, m, (size, size), borderMode=cv2.BORDER_REPLICATE)
                sigma = float(rng.uniform(0.3, 1.2))
                canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
                gain = float(rng.uniform(0.75, 1.15))
                canvas = np.clip(canvas.astype(np.float32) * gain + rng.normal(0, 3, canvas.shape), 0, 255)
                patch, height = cells.glyph_patch(canvas.astype(np.uint8))
                if height > 0.0:
                    patches.append(patch)
                    letters.append(letter)
    return np.stack(patches), letters


def _on_green(tile: np.ndarray, size: int, shift: np.ndarray | None = None) -> np.ndarray:
    """`tile` on the board's green in a window of `size` px, shifted by `shift` px from the middle."""
    canvas = np.empty((size, size, 3), np.uint8)
    canvas[:] = (60, 120, 40)
    side = tile.shape[0]
    dx, dy = (int(shift[0]), int(shift[1])) if shift is not None else (0, 0)
    x0, y0 = (size - side) // 2 + dx, (size - side) // 2 + dy
    canvas[y0 : y0 + side, x0 : x0 + side] = tile
    return canvas


def build_shipped(tiles: str) -> TileClassifier:
    patches, letters = rendered_glyphs(tiles)
    return TileClassifier.train(patches, letters, meta={"source": "shipped", "tiles": tiles, "recipe": RECIPE})


def shipped_classifier(tiles: str = "german") -> TileClassifier:
    """The shipped classifier for `tiles`, from the cache or built now (and cached when possible)."""
    tile_values(tiles)  # unknown tile sets fail here, clearly
    # The fonts at hand are part of the recipe: installing fonts-dejavu-core later must rebuild the model.
    fonts = hashlib.sha256("\n".join(font_choices()).encode()).hexdigest()[:8]
    path = cache_dir() / f"shipped-{tiles}-r{RECIPE}-{fonts}.npz"
    if path.is_file():
        try:
            return TileClassifier.load(path)
        except ModelError:
            pass  # a damaged cache is rebuilt
    model = build_shipped(tiles)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        model.save(tmp)
        tmp.replace(path)
    except OSError:
        pass  # a read-only home still gets a working (uncached) classifier
    return model
