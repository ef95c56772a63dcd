"""What the sensors say is on the board right now: one `Cell` per occupied square.

The picture is the meeting point of the sensor board, the camera and the state machine. It is
small, plain and JSON-ready because every picture that changes something is journaled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.squares import Square
from referee.words import Phrase, template_fields
from referee.words.doubts import DOUBTS


@dataclass(frozen=True)
class Doubt:
    """Why the sensors do not trust a square's letter: a code of referee/words/doubts.py and the fields its words
    name (`camera_unsure` {square, letter, confidence}), said in the table's language when the table asks."""

    code: str
    fields: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def phrase(self) -> Phrase:
        return Phrase("doubts", self.code, self.fields)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "fields": dict(self.fields)}

    @classmethod
    def from_json(cls, data: Any) -> Doubt | None:
        """A journaled doubt: {"code", "fields"}; "" for none; a journal from before doubts had codes holds the
        English words, kept as a `text` doubt (they replay as they were shown), as is anything else (a newer
        table's code, a damaged entry)."""
        code, fields = (data.get("code"), data.get("fields")) if isinstance(data, Mapping) else (None, None)
        if isinstance(code, str) and code in DOUBTS and isinstance(fields, Mapping) \
                and template_fields(DOUBTS[code]["en"]) <= set(fields):
            return cls(code, dict(fields))
        return cls("text", {"text": str(data)}) if data else None


@dataclass(frozen=True)
class Cell:
    """An occupied square.

    `letter`: the uppercase letter read there, or None when nobody could read it (a presence-only
    sensor board without a camera, or a camera in doubt). `blank`: the tile is a blank (no letter
    printed; a person says which letter it stands for). `doubt`: why the letter is not trusted
    (None when it is): shown to the players and asked about, never silently scored.
    """

    letter: str | None = None
    blank: bool = False
    doubt: Doubt | None = None

    @property
    def sure(self) -> bool:
        return self.letter is not None and self.doubt is None and not self.blank


Picture = Mapping[str, Cell]


def picture_to_json(picture: Picture) -> dict[str, list[Any]]:
    """The picture as the journal holds it: square -> [letter or "", blank 0/1, doubt or ""]."""
    return {sq: [c.letter or "", int(c.blank), c.doubt.to_json() if c.doubt is not None else ""]
            for sq, c in sorted(picture.items())}


def picture_from_json(data: Mapping[str, Any]) -> dict[str, Cell]:
    return {sq: Cell(v[0] or None, bool(v[1]), Doubt.from_json(v[2])) for sq, v in data.items()}


def squares_text(squares: list[str] | set[str] | frozenset[str]) -> str:
    """`H8, H9, H10` in board order (row, then column: `Square`'s own order), for messages."""
    return ", ".join(sorted(squares, key=Square.from_str))
