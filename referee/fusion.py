"""Fusion: the sensor board says *where* tiles are, the camera says *which* letters.

The sensor board is fast and certain about presence, so when it is connected it decides which
squares are occupied. A coded-tile board also reads letters; a presence-only board does not. The
camera reads letters with a confidence and says when it doubts a square (a hand, blur). The rule
is simple and never guesses: a letter is trusted only when every source that read it agrees and
the camera is confident; otherwise the square carries a `doubt` that the table shows and asks
about before scoring: a code and its fields (`Doubt`), said in the table's language (referee/words/doubts.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from game.squares import Square
from referee.table.picture import Cell, Doubt


@dataclass(frozen=True)
class CameraSquare:
    """One square as the camera read it: `letter` uppercase, `?` for a blank tile, None for unreadable."""

    occupied: bool
    letter: str | None
    confidence: float
    uncertain: bool = False
    unseen: bool = False  # outside the camera's frame: not known to be empty, nor to hold a tile


# The camera's own doubt (`vision.reader`: a weak margin between two letters, a glyph unlike any taught, a
# tile that may lie turned, a frame with something over it) is what its figures hold to: 0 confident wrong
# letters on every shared and perturbed game. Over the 7,605 tiles of the six labelled real games, read in
# play order with the shipped classifier, the letters the reader trusts were all right at every confidence,
# and 110 of them (67 C, 26 U, 8 Q, some M and A) lie between 0.25 and 0.9: a floor of 0.9 asked about them
# at every turn on every camera. 0.5 keeps a margin above the reader's own and asks about 9 of them.
MIN_CONFIDENCE = 0.5
# The dice tray's and the racks' letters come from other readers, whose confidence was not measured so: they
# keep the floor of 0.9 (or the configured one, when higher).
DICE_MIN_CONFIDENCE = 0.9


def fuse(
    sensors: Mapping[str, str | None] | None,
    camera: Mapping[str, CameraSquare] | None,
    min_confidence: float = MIN_CONFIDENCE,
) -> dict[str, Cell]:
    """One picture from the sources present. `sensors`: occupied squares -> letter (coded board) or
    None (presence only); None when there is no sensor board. `camera`: square -> reading, or None."""
    if sensors is None and camera is None:
        return {}
    if sensors is None:
        assert camera is not None
        seen = {sq: _camera_cell(sq, r, min_confidence) for sq, r in camera.items() if r.occupied and not r.unseen}
        return _doubt_at_the_frame_edge(seen, camera)
    out: dict[str, Cell] = {}
    for sq, coded in sensors.items():
        reading = camera.get(sq) if camera is not None else None
        if camera is None:
            out[sq] = Cell(coded) if coded != "?" else Cell(None, blank=True)
            continue
        if reading is not None and reading.unseen:
            out[sq] = (Cell(coded) if coded != "?" else Cell(None, blank=True)) if coded else Cell(
                None, doubt=Doubt("board_feels_unseen", {"square": sq}))
            continue
        if reading is None or not reading.occupied:
            if coded:
                out[sq] = Cell(coded) if coded != "?" else Cell(None, blank=True)
            else:
                out[sq] = Cell(None, doubt=Doubt("board_feels_hidden", {"square": sq}))
            continue
        cam = _camera_cell(sq, reading, min_confidence)
        if coded and coded != "?" and cam.letter and cam.doubt is None and cam.letter != coded:
            out[sq] = Cell(None, doubt=Doubt("readings_differ", {"square": sq, "board": coded, "camera": cam.letter}))
        elif coded == "?" or cam.blank:
            out[sq] = Cell(None, blank=True) if (coded in (None, "?") and cam.blank) or coded == "?" else Cell(
                None, doubt=Doubt("camera_sees_blank", {"square": sq, "board": coded}))
        elif coded:
            out[sq] = Cell(coded)
        else:
            out[sq] = cam
    return out


def _doubt_at_the_frame_edge(picture: dict[str, Cell], camera: Mapping[str, CameraSquare]) -> dict[str, Cell]:
    """With the camera alone, a frame that cuts the board hides whether a word goes on past its edge: a tile
    next to an unseen square is not trusted, so the table asks before it scores a play there."""
    unseen = {sq for sq, r in camera.items() if r.unseen}
    if not unseen:
        return picture
    out = dict(picture)
    for sq, cell in picture.items():
        if cell.doubt is not None or not _neighbours(sq) & unseen:
            continue
        out[sq] = Cell(None, doubt=Doubt("frame_cuts_letter", {"square": sq, "letter": cell.letter}) if cell.letter
                       else Doubt("frame_cuts", {"square": sq}))
    return out


def _neighbours(sq: str) -> set[str]:
    s = Square.from_str(sq)
    return {str(Square(r, c)) for r, c in ((s.row - 1, s.col), (s.row + 1, s.col), (s.row, s.col - 1),
                                           (s.row, s.col + 1)) if 0 <= r < 15 and 0 <= c < 15}


def _camera_cell(sq: str, r: CameraSquare, min_confidence: float) -> Cell:
    if r.letter == "?" and r.confidence >= min_confidence and not r.uncertain:
        return Cell(None, blank=True)
    if r.letter is None or r.letter == "?" or r.uncertain or r.confidence < min_confidence:
        if r.letter and r.letter != "?":  # its guess, in whole per cent (a wobble below that journals nothing new)
            return Cell(None, doubt=Doubt("camera_unsure", {"square": sq, "letter": r.letter,
                                                            "confidence": round(float(r.confidence), 2)}))
        return Cell(None, doubt=Doubt("camera_unreadable", {"square": sq}))
    return Cell(r.letter.upper())
