"""Tiles and tile sets.

A `Tile` is what lies on a square: a letter, and whether it is a blank standing for that
letter. Text form follows GCG: an uppercase letter is a lettered tile, a lowercase letter a
blank designated as that letter, `?` a blank not yet designated (on a rack). Letters are
Unicode uppercase (German Ä, Ö, Ü); German ß has no tile and is written SS.

Tile sets are data (`game/data/tiles/<name>.json`) so that the German edition, a Polish
record or the Scramble dice values need no code: {"name", "language", "tiles": {"A": [count,
value], ..., "?": [count, 0]}}.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from game.errors import DataError, NotationError
from game.shipped import load_shipped_json, shipped_names

BLANK = "?"


def normalise_word(text: str) -> str:
    """Uppercase a word the way the tiles spell it: German ß becomes SS (there is no ß tile)."""
    return text.replace("ß", "SS").replace("ẞ", "SS").upper()


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """A tile on the board: `letter` is what it reads as; `blank` is True for a designated blank."""

    letter: str
    blank: bool = False

    @classmethod
    def from_str(cls, text: str) -> Tile:
        """`A` is a lettered tile, `a` a blank played as A. `?` (undesignated) is refused: on the
        board a blank always stands for a letter."""
        if len(text) != 1 or not text.isalpha():
            raise NotationError(f"{text!r} is not a tile: write one letter, lowercase for a blank", form="tile",
                                text=text)
        if text == "ß":
            raise NotationError("ß has no tile: play S and S", form="eszett")
        return cls(text.upper(), blank=text.islower())

    def __str__(self) -> str:
        return self.letter.lower() if self.blank else self.letter

    @property
    def rack_letter(self) -> str:
        """The letter this tile takes from a rack: `?` for a blank."""
        return BLANK if self.blank else self.letter


def rack_counter(rack: str | Iterable[str]) -> Counter[str]:
    """Count a rack written as text (`AEI?RST`); lowercase letters are read as blanks."""
    out: Counter[str] = Counter()
    for ch in rack:
        if ch == BLANK or ch.islower():
            out[BLANK] += 1
        elif ch.isalpha():
            out[ch] += 1
        else:
            raise NotationError(f"{ch!r} in rack {''.join(rack)!r} is not a tile", form="rack_char", char=ch,
                                rack="".join(rack))
    return out


@dataclass(frozen=True)
class TileSet:
    """How many of each tile there are and what each is worth. Blanks (`?`) are worth 0."""

    name: str
    language: str
    counts: Mapping[str, int]
    values: Mapping[str, int]
    _total: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_total", sum(self.counts.values()))

    @property
    def total(self) -> int:
        """Tiles in a full bag."""
        return self._total

    def value(self, tile: Tile) -> int:
        """Points of a tile on the board; a blank scores 0 whatever it stands for."""
        return 0 if tile.blank else self.values.get(tile.letter, 0)

    def letter_value(self, letter: str) -> int:
        """Points of a rack letter (`?` is 0)."""
        return self.values.get(letter, 0)

    def rack_value(self, rack: str | Iterable[str]) -> int:
        """Sum of the values of a rack's tiles (end-of-game adjustments)."""
        return sum(self.letter_value(letter) * n for letter, n in rack_counter(rack).items())

    def has_letter(self, letter: str) -> bool:
        """Whether a (non-blank) tile of this letter exists, i.e. a blank may stand for it."""
        return letter in self.counts and letter != BLANK

    def full_bag(self) -> Counter[str]:
        """Every tile of the set, by rack letter."""
        return Counter(dict(self.counts))

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "<tile set>") -> TileSet:
        """Read and check a tile set file (counts and values non-negative integers)."""
        try:
            raw = json.loads(text)
            name = str(raw["name"])
            language = str(raw["language"])
            tiles = raw["tiles"]
            counts: dict[str, int] = {}
            values: dict[str, int] = {}
            for letter, (count, value) in tiles.items():
                if not isinstance(count, int) or not isinstance(value, int) or count < 0 or value < 0:
                    raise DataError(f"{source}: tile {letter!r} needs a [count, value] of non-negative integers",
                                    form="tile_entry", source=source, letter=letter)
                if letter != BLANK and (len(letter) != 1 or not letter.isupper()):
                    raise DataError(f"{source}: {letter!r} is not an uppercase letter or '?'", form="tile_letter",
                                    source=source, letter=letter)
                counts[letter] = count
                values[letter] = value
        except DataError:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            raise DataError(f"{source}: not a tile set file ({exc})", form="tile_file", source=source,
                            detail=str(exc)) from exc
        return cls(name, language, counts, values)


@cache
def load_tile_set(name: str) -> TileSet:
    """The tile set `game/data/tiles/<name>.json` shipped with the package (english, german, polish)."""
    text = load_shipped_json("tiles", name)
    if text is None:
        raise DataError(f"no tile set named {name!r} (have: {', '.join(tile_set_names())})", form="no_tile_set",
                        name=name, known=", ".join(tile_set_names()))
    return TileSet.from_json(text, f"tiles/{name}.json")


def tile_set_names() -> list[str]:
    """Names of the tile sets shipped in the package."""
    return shipped_names("tiles")
