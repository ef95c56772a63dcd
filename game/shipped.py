"""The data files shipped inside the engine: `game/data/<kind>/<name>.json` (layouts, tiles, dice).

One reader for the three loaders (`load_layout`, `load_tile_set`, `load_dice_set`), so the way a shipped file is
found (inside the installed package, whatever the working directory) is written once. Each loader names its own
missing file in its own error: the words differ ("no tile set named ...", with the names it knows).
"""

from __future__ import annotations

from importlib import resources


def load_shipped_json(kind: str, name: str) -> str | None:
    """The text of `game/data/<kind>/<name>.json`, or None when the package ships no such file."""
    try:
        return resources.files("game").joinpath("data", kind, f"{name}.json").read_text(encoding="utf-8")
    except OSError:  # FileNotFoundError, or a name that is no file name at all
        return None


def shipped_names(kind: str) -> list[str]:
    """The names of the files of `kind` shipped in the package, sorted."""
    folder = resources.files("game").joinpath("data", kind)
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))
