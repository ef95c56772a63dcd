"""The letters printed on tiles of each edition (data in `vision/data/tilesets.json`)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from vision.errors import VisionError

BLANK = "?"
EMPTY = "."


@cache
def _all() -> dict[str, dict[str, int]]:
    text = resources.files("vision").joinpath("data/tilesets.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    return {name: dict(entry["letters"]) for name, entry in raw.items() if not name.startswith("_")}


def tile_values(tiles: str) -> dict[str, int]:
    """Letter -> printed value for the edition `tiles` ("english" or "german")."""
    sets = _all()
    if tiles not in sets:
        raise VisionError(f"unknown tile set {tiles!r}; known: {', '.join(sorted(sets))}")
    return sets[tiles]


def tile_sets() -> list[str]:
    return sorted(_all())
