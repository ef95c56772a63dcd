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
        face = cv2.morphologyEx(face, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
        contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = []
        for contour in contours:
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
            side = (rw + rh) / 2
            if side < self.min_side or abs(rw - rh) > 0.25 * side:
                continue
            out.append(self._read_die(roi, (cx, cy), side, angle, (x, y)))
        return sorted(out, key=lambda d: (d.centre[1], d.centre[0]))

    def _read_die(
        self, roi: np.ndarray, centre: tuple[float, float], side: float, angle: float, offset: tuple[int, int]
    ) -> DieReading:
        # Cut the face upright-ish (one of four turns), scaled so a face is one square of PITCH pixels.
        win = round(cells.PITCH * 1.4)
        scale = cells.PITCH * 0.95 / side
        m = cv2.getRotationMatrix2D(centre, angle, scale)
        m[0, 2] += win / 2 - centre[0]
        m[1, 2] += win / 2 - centre[1]
        upright = cv2.warpAffine(roi, m, (win, win), borderMode=cv2.BORDER_REPLICATE)
        where = (centre[0] + offset[0], centre[1] + offset[1])
        patches = []
        clean = True
        for turn in range(4):
            patch, height = cells.glyph_patch(np.ascontiguousarray(np.rot90(upright, turn)))
            if height > 0.0:  # a sideways I or a short glyph may show no glyph in some turns
                patches.append(patch)
            clean = clean and height == 0.0
        if not patches:  # clean in every turn: a blank face; smudged in every turn: doubt
            return DieReading(BLANK, 1.0 if clean else 0.0, where, not clean)
        guesses = self.classifier.predict(np.stack(patches))
        best = max(guesses, key=lambda g: (g.confidence, -g.novelty))
        uncertain = best.doubtful
        return DieReading(best.letter, best.confidence, where, uncertain)
