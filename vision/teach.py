"""Learning a user's own tiles from labelled photos (the format of ../shared/photos/labels.json).

A labels file is a JSON list of {"game", "file", "board": [15 strings], ...}; each image lies at
`<game>/<file>` beside the labels file. Every photo is calibrated on its own (a camera may have been moved
between games), each labelled tile's glyph is cut from it, and the classifier is taught on those.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision import cells
from vision.classifier import TileClassifier
from vision.errors import LabelsError, VisionError
from vision.geometry import SIZE
from vision.images import read_image
from vision.registration import calibrate
from vision.tilesets import BLANK, EMPTY, tile_values


@dataclass(frozen=True)
class LabelledPhoto:
    game: str
    file: str
    path: Path
    board: tuple[str, ...]
    flag: str


def is_occluded(photo: LabelledPhoto) -> bool:
    """Whether the labels mark this photo as occluded (a hand or something over the board)."""
    return "occlu" in photo.flag.lower()


def load_labels(path: str | Path) -> list[LabelledPhoto]:
    """Parse and check a labels file; image paths are resolved relative to it."""
    p = Path(path)
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise LabelsError(f"{p}: labels file not found") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LabelsError(f"{p}: cannot read labels ({exc})") from exc
    if not isinstance(raw, list):
        raise LabelsError(f"{p}: expected a JSON list of labelled photos")
    out = []
    for n, entry in enumerate(raw):
        where = f"{p} entry {n}"
        if not isinstance(entry, dict) or not {"game", "file", "board"} <= entry.keys():
            raise LabelsError(f"{where}: needs 'game', 'file' and 'board'")
        board = entry["board"]
        if (
            not isinstance(board, list)
            or len(board) != SIZE
            or any(not isinstance(row, str) or len(row) != SIZE for row in board)
        ):
            raise LabelsError(f"{where}: 'board' must be 15 strings of 15 characters")
        image = p.parent / str(entry["game"]) / str(entry["file"])
        out.append(
            LabelledPhoto(str(entry["game"]), str(entry["file"]), image, tuple(board), str(entry.get("flag", "ok")))
        )
    return out


def glyphs_from_photo(
    image: np.ndarray, board: Iterable[str], matrix: np.ndarray
) -> tuple[list[np.ndarray], list[str]]:
    """The glyph patch and letter of every labelled lettered tile in one photo (blanks have no glyph)."""
    rows = list(board)
    pl = cells.planes(cells.rectify(image, matrix))
    lettered = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in (EMPTY, BLANK)]
    glyphs = cells.board_glyphs(pl, lettered)
    patches, letters = [], []
    for r, c in lettered:
        patch, _glyph = glyphs[(r, c)]
        if patch is not None:
            patches.append(patch)
            letters.append(rows[r][c])
    return patches, letters


def teach(
    photos: list[LabelledPhoto], *, meta: dict[str, Any] | None = None, tiles: str | None = None
) -> TileClassifier:
    """A classifier taught on the lettered tiles of `photos`.

    `tiles` ("english", "german"): the shipped classifier's rendered tiles of that set are taught as well,
    after the photos' own. A few photos of a new set (two frames of the first turns) hold a dozen letters
    of the set's thirty; the renders keep the others readable, while the photos' tiles, stored first and
    counted twice, make the set's own face the one tiles are compared with. Without `tiles`, only the
    photos are taught, and letters they lack cannot be read.
    """
    patches: list[np.ndarray] = []
    letters: list[str] = []
    skipped = 0
    for photo in photos:
        if is_occluded(photo):  # a hand over the tiles teaches the hand
            skipped += 1
            continue
        try:
            image = read_image(photo.path)
        except VisionError as exc:
            raise LabelsError(f"image listed in the labels: {exc}") from exc
        try:
            matrix = calibrate(image, where=str(photo.path)).matrix
        except VisionError as exc:
            raise LabelsError(f"{photo.path}: {exc}") from exc
        p, t = glyphs_from_photo(image, photo.board, matrix)
        patches += p
        letters += t
    if not patches:
        raise LabelsError("the labels hold no lettered tiles to learn from")
    info: dict[str, Any] = {"source": "taught", "photos": len(photos) - skipped, "skipped_occluded": skipped}
    info.update(meta or {})
    if tiles is None:
        return TileClassifier.train(np.stack(patches), letters, meta=info)
    from vision.shipped import rendered_glyphs

    unknown = sorted(set(letters) - set(tile_values(tiles)))
    if unknown:
        raise LabelsError(f"the labels hold letters that are not {tiles} tiles: {' '.join(unknown)}")
    rendered, rendered_letters = rendered_glyphs(tiles)
    info.update({"source": "taught+rendered", "tiles": tiles})
    return TileClassifier.train(
        np.concatenate([np.stack(patches), rendered]), letters + rendered_letters, meta=info, own=len(letters)
    )
