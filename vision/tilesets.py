"""The letters printed on tiles of each edition: the engine's tile sets (`game/data/tiles`), read, not copied.

One source for the letters and their values: an edition added to the engine is one the camera can be
taught (its shipped classifier renders the letters with their values)."""

from __future__ import annotations

from functools import cache

from game.errors import DataError
from game.tiles import BLANK as GAME_BLANK
from game.tiles import load_tile_set, tile_set_names
from vision.errors import VisionError

BLANK = "?"
EMPTY = "."


@cache
def tile_values(tiles: str) -> dict[str, int]:
    """Letter -> printed value for the edition `tiles` ("english", "german", ...); the blank is not a letter."""
    try:
        tile_set = load_tile_set(tiles)
    except DataError:
        raise VisionError(f"unknown tile set {tiles!r}; known: {', '.join(tile_sets())}") from None
    return {letter: value for letter, value in tile_set.values.items() if letter != GAME_BLANK}


def tile_sets() -> list[str]:
    """The editions the engine knows, by name."""
    return sorted(tile_set_names())
