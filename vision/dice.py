"""Reading letter dice in a tray: find each die's top face, turn it upright, read its letter.

A die lies at any angle. Its face is found as a pale square blob; the face is cut out square along its own
edges, then read in all four quarter turns, keeping the turn the classifier is surest of (a letter read on
its side looks like nothing taught, so the upright reading wins). No photos of real dice exist yet: this is
built and tested on synthetic renders (`vision.synth.render_dice`) only.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import cells
from vision.classifier import TileClassifier
from vision.tilesets import BLANK


@dataclass(frozen=True)
class DieReading:
    letter: str  # a letter, or "?" for a blank face
    confidence: float
    centre: tuple[float, float]  # image px
    uncertain: bool


class DiceReader:
    """Reads the dice inside `tray` = (x, y, width, height) of each frame."""

    def __init__(self, classifier: TileClassifier, tray: tuple[int, int, int, int], min_side: int = 16) -> None:
        self.classifier = classifier
        self.tray = tray
        self.min_side = min_side

    def read(self, frame: np.ndarray) -> list[DieReading]:
        x, y, w, h = self.tray
        roi = frame[y : y + h, x : x + w]
        hsv = cv2.cvtColor(roi, cv2.COLOR_BGR2HSV)
        face = ((hsv[..., 1] < 70) & (hsv[..., 2] > 120)).astype(np.uint8) * 255
        face = np.asarray(cv2.morphologyEx(face, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8)))
        contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        faces = []
        for contour in contours:
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
            side = (rw + rh) / 2
            if side < self.min_side or abs(rw - rh) > 0.25 * side:
                continue
            faces.append(self._upright(roi, (cx, cy), side, angle, (x, y)))
        out = [self._read_face(turns, glyphs, where) for where, turns, glyphs in faces]
        return sorted(out, key=lambda d: (d.centre[1], d.centre[0]))

    def _upright(
        self, roi: np.ndarray, centre: tuple[float, float], side: float, angle: float, offset: tuple[int, int]
    ) -> tuple[tuple[float, float], list[np.ndarray], list[cells.Glyph]]:
        """The face cut square along its own edges in its four quarter turns, and the glyph found in each."""
        win = round(cells.PITCH * 1.4)
        scale = cells.PITCH * 0.95 / side
        m = cv2.getRotationMatrix2D(centre, angle, scale)
        m[0, 2] += win / 2 - centre[0]
        m[1, 2] += win / 2 - centre[1]
        upright = cv2.warpAffine(roi, m, (win, win), borderMode=cv2.BORDER_REPLICATE)
        turns = [np.ascontiguousarray(np.rot90(upright, turn)) for turn in range(4)]
        glyphs = []
        for turn in turns:
            pl = cells.planes(turn)
            glyphs.append(cells.find_glyph(pl.gray, pl.face, pl.tile))
        return (centre[0] + offset[0], centre[1] + offset[1]), turns, glyphs

    def _read_face(self, turns: list[np.ndarray], glyphs: list[cells.Glyph], where: tuple[float, float]) -> DieReading:
        patches = [
            cells.cut_glyph(cv2.cvtColor(t, cv2.COLOR_BGR2GRAY), g, g.height)
            for t, g in zip(turns, glyphs, strict=True)
            if g.found  # a sideways I or a short glyph may show no glyph in some turns
        ]
        if not patches:  # clean in every turn: a blank face; smudged in some turn: doubt
            clean = all(g.height == 0.0 for g in glyphs)
            return DieReading(BLANK, 1.0 if clean else 0.0, where, not clean)
        guesses = self.classifier.predict(np.stack(patches))
        best = max(guesses, key=lambda g: (g.confidence, -g.novelty))
        return DieReading(best.letter, best.confidence, where, best.doubtful)
