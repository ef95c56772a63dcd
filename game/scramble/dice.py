"""Letter dice as data: faces, dice and dice sets for SCRABBLE Scramble.

A dice set file `game/data/dice/<name>.json` is

    {"name": "english", "language": "en", "provisional": true, "note": "where the faces come from",
     "dice": [[["A", 1], ["E", 1], ["N", 1], ["R", 1], ["T", 1], ["Q", 10]], ...]}

twelve dice of six faces, each face a letter (uppercase, German Ä, Ö, Ü allowed) or a blank `?`
and the value printed under it. The faces of the real dice are not in the manual, so the shipped
sets are marked provisional; `referee dice teach` writes a replacement while someone reads the
real dice. A letter must carry the same value on every die that shows it: the engine's scorer
values letters (through a `TileSet`), not dice, and Scramble's scoring is the standard game's.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from game.errors import DataError, NotationError
from game.shipped import load_shipped_json, shipped_names
from game.tiles import BLANK, TileSet

DICE_PER_SET = 12
FACES_PER_DIE = 6
_FACE_RE = re.compile(r"^([^\W\d_]|\?)(\d{1,2})$")


@dataclass(frozen=True, slots=True, order=True)
class Face:
    """One face of a die: a letter (or `?` for a blank) and its value. Text form `Q10`, `E1`, `?0`."""

    letter: str
    value: int

    def __post_init__(self) -> None:
        if self.letter != BLANK and (len(self.letter) != 1 or not self.letter.isalpha() or not self.letter.isupper()):
            raise NotationError(f"{self.letter!r} is not a die letter: use one uppercase letter or ? for a blank",
                                form="die_letter", letter=self.letter)
        if self.value < 0:
            raise NotationError(f"face {self.letter}: a value cannot be negative ({self.value})",
                                form="face_negative",
                                letter=self.letter, value=self.value)
        if self.letter == BLANK and self.value != 0:
            raise NotationError(f"a blank face is worth 0, not {self.value}", form="blank_face", value=self.value)

    @classmethod
    def from_str(cls, text: str) -> Face:
        """Read `Q10` (letter then value); a lowercase letter is accepted and uppercased."""
        m = _FACE_RE.match(text.strip())
        if not m:
            raise NotationError(f"{text!r} is not a die face: write a letter and its value, like Q10 or ?0",
                                form="die_face", text=text)
        return cls(m.group(1).upper(), int(m.group(2)))

    def __str__(self) -> str:
        return f"{self.letter}{self.value}"

    @property
    def is_blank(self) -> bool:
        return self.letter == BLANK


@dataclass(frozen=True, slots=True)
class Die:
    """Six faces. Text form: the faces separated by spaces, `E1 A1 N1 R1 T1 Q10`."""

    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        if len(self.faces) != FACES_PER_DIE:
            raise NotationError(f"a die has {FACES_PER_DIE} faces, not {len(self.faces)}: {self}", form="die_faces",
                                per_die=FACES_PER_DIE, count=len(self.faces), die=str(self))

    @classmethod
    def from_str(cls, text: str) -> Die:
        return cls(tuple(Face.from_str(part) for part in text.replace(",", " ").split()))

    def __str__(self) -> str:
        return " ".join(str(f) for f in self.faces)

    def shows(self, letter: str) -> bool:
        """Whether some face of this die carries `letter` (`?` for a blank)."""
        return any(f.letter == letter for f in self.faces)


@dataclass(frozen=True)
class DiceSet:
    """The twelve dice of a game, with the language of its lexicon and a note on their provenance."""

    name: str
    language: str
    dice: tuple[Die, ...]
    provisional: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        if len(self.dice) != DICE_PER_SET:
            raise DataError(f"dice set {self.name!r}: has {len(self.dice)} dice, a Scramble set has {DICE_PER_SET}",
                            form="dice_set_count", name=self.name, count=len(self.dice), per_set=DICE_PER_SET)
        seen: dict[str, tuple[int, int]] = {}
        for number, die in enumerate(self.dice, start=1):
            for face in die.faces:
                if face.letter in seen and seen[face.letter][1] != face.value:
                    first = seen[face.letter][0]
                    raise DataError(
                        f"dice set {self.name!r}: {face.letter} is worth {seen[face.letter][1]} on die {first} "
                        f"but {face.value} on die {number}; a letter has one value in a set",
                        form="dice_set_value", name=self.name, letter=face.letter, value=seen[face.letter][1],
                        first=first, other=face.value, number=number,
                    )
                seen.setdefault(face.letter, (number, face.value))

    def value(self, letter: str) -> int:
        """Points of a letter in this set (0 for `?` and for letters no die shows)."""
        for die in self.dice:
            for face in die.faces:
                if face.letter == letter:
                    return face.value
        return 0

    def letters(self) -> Counter[str]:
        """How many faces in the whole set carry each letter."""
        return Counter(face.letter for die in self.dice for face in die.faces)

    def tile_set(self, letters: Iterable[str] = ()) -> TileSet:
        """The set as the engine's `TileSet`: one 'tile' per face, with the face values.

        The scorer reads letter values from a tile set. `letters` adds letters that no die shows
        but a blank may stand for (the alphabet of the language), with count 0 and value 0.
        """
        counts = dict(self.letters())
        values = {letter: self.value(letter) for letter in counts}
        for letter in letters:
            counts.setdefault(letter, 0)
            values.setdefault(letter, 0)
        return TileSet(f"dice:{self.name}", self.language, counts, values)

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "<dice set>") -> DiceSet:
        """Read and check a dice set file; errors name the file and the die."""
        try:
            raw = json.loads(text)
            if not isinstance(raw, dict):
                raise DataError(f"{source}: not a dice set file (it holds no JSON object with name, language and dice)",
                                form="dice_file", source=source)
            name = str(raw["name"])
            language = str(raw["language"])
            provisional = raw.get("provisional", False)
            if not isinstance(provisional, bool):
                raise DataError(f"{source}: 'provisional' must be true or false", form="dice_provisional",
                                source=source)
            note = str(raw.get("note", ""))
            dice: list[Die] = []
            for number, faces in enumerate(raw["dice"], start=1):
                try:
                    dice.append(Die(tuple(_face_from_json(item) for item in faces)))
                except NotationError as exc:
                    raise DataError(f"{source}: die {number}: {exc}", form="dice_die", source=source, number=number,
                                    detail=str(exc)) from exc
        except DataError:
            raise
        except KeyError as exc:
            raise DataError(f"{source}: not a dice set file (it has no {exc.args[0]!r} key)", form="dice_key",
                            source=source, key=exc.args[0]) from exc
        except (ValueError, TypeError) as exc:
            raise DataError(f"{source}: not a dice set file ({exc})", form="dice_detail", source=source,
                            detail=str(exc)) from exc
        return cls(name, language, tuple(dice), provisional, note)

    def to_json(self) -> str:
        """The file form, one die per line, readable beside the real dice."""
        head = {"name": self.name, "language": self.language, "provisional": self.provisional, "note": self.note}
        lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
        lines.append('  "dice": [')
        for i, die in enumerate(self.dice):
            faces = ", ".join(json.dumps([f.letter, f.value], ensure_ascii=False) for f in die.faces)
            lines.append(f"    [{faces}]" + ("," if i < len(self.dice) - 1 else ""))
        lines += ["  ]", "}"]
        return "\n".join(lines) + "\n"


def _face_from_json(item: object) -> Face:
    if isinstance(item, str):
        return Face.from_str(item)
    if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], int):
        return Face(item[0], item[1])
    raise NotationError(f"{item!r} is not a face: write [letter, value] or 'Q10'", form="face_item", item=item)


@cache
def load_dice_set(name: str) -> DiceSet:
    """The dice set `game/data/dice/<name>.json` shipped with the package."""
    text = load_shipped_json("dice", name)
    if text is None:
        raise DataError(f"no dice set named {name!r} (have: {', '.join(dice_set_names())})", form="no_dice_set",
                        name=name, known=", ".join(dice_set_names()))
    return DiceSet.from_json(text, f"dice/{name}.json")


def dice_set_names() -> list[str]:
    """Names of the dice sets shipped in the package."""
    return shipped_names("dice")
