"""ArUco markers on the board's corners, and the printable sheet to make them.

Stick marker 0 at the grid's top-left corner, 1 top-right, 2 bottom-right, 3 bottom-left, each marker's
inner corner touching the corner of the grid. With markers, the board is found in any light and on any
board colour; the grid lines are still fitted afterwards for precision.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import VisionError

DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)  # TL, TR, BR, BL


def _detector() -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id -> its four corners (image px) for every corner marker seen."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = _detector().detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        if int(marker_id) in CORNER_IDS:
            found[int(marker_id)] = quad.reshape(4, 2).astype(np.float64)
    return found


def find_marker_quad(image: np.ndarray) -> np.ndarray | None:
    """The grid's corners (TL, TR, BR, BL) from the four corner markers, or None unless all four are seen.

    Each marker gives the corner of its own that lies nearest the middle of the four: its inner corner,
    whichever way up the marker was stuck on.
    """
    found = find_markers(image)
    if len(found) < 4:
        return None
    middle = np.mean([found[i].mean(axis=0) for i in CORNER_IDS], axis=0)
    return np.array([found[i][np.argmin(np.linalg.norm(found[i] - middle, axis=1))] for i in CORNER_IDS])


# The sheet: A4 with 25 mm margins; two markers side by side in each half of the page.
PAGE_MM = (210.0, 297.0)
MARGIN_MM = 25.0
# Between the two markers of a row at least this much white, so each keeps the quiet zone a detector needs.
GAP_MM = 5.0
# Smallest marker offered: its 6 cells (4x4 code and a border) are then under 2 mm each, the least a
# printer and a camera above a board resolve without doubt. A choice, not a law of the sheet.
MIN_MARKER_MM = 10.0
# Largest marker the sheet holds: two markers and the gap across the width between the margins.
MAX_MARKER_MM = (PAGE_MM[0] - 2 * MARGIN_MM - GAP_MM) / 2


def check_marker_size(marker_mm: float) -> float:
    """`marker_mm` if the sheet can hold four markers of that size, else a `VisionError` saying the range."""
    if not MIN_MARKER_MM <= marker_mm <= MAX_MARKER_MM:
        raise VisionError(f"a marker of {marker_mm:g} mm does not fit the A4 sheet: give a size from "
                          f"{MIN_MARKER_MM:g} to {MAX_MARKER_MM:g} mm (30 mm suits a board under a camera)")
    return marker_mm


def marker_sheet(marker_mm: float = 30.0, dpi: int = 200) -> np.ndarray:
    """An A4 page (grey image) with the four corner markers, labelled, to print at 100% scale.

    Sizes outside `MIN_MARKER_MM`..`MAX_MARKER_MM` are refused: larger markers would overlap their
    neighbour and print a sheet no camera can read."""
    check_marker_size(marker_mm)
    px_per_mm = dpi / 25.4
    page_w, page_h = round(PAGE_MM[0] * px_per_mm), round(PAGE_MM[1] * px_per_mm)
    sheet = np.full((page_h, page_w), 255, np.uint8)
    side = round(marker_mm * px_per_mm)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    names = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
    margin = round(MARGIN_MM * px_per_mm)
    cells = [
        (margin, margin),
        (page_w - margin - side, margin),
        (page_w - margin - side, page_h // 2),
        (margin, page_h // 2),
    ]
    for marker_id, (x, y) in zip(CORNER_IDS, cells, strict=True):
        sheet[y : y + side, x : x + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1)
        label = f"{marker_id}: {names[marker_id]} corner"
        scale, thick = 0.6 * dpi / 100, max(1, dpi // 100)
        (tw, _th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        tx = min(x, page_w - margin // 2 - tw)
        cv2.putText(
            sheet, label, (tx, y + side + round(8 * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX, scale, 0, thick, cv2.LINE_AA
        )
    text = f"SCRABBLE referee corner markers, ArUco 4x4_50, print at 100%: each marker {marker_mm:g} mm"
    cv2.putText(
        sheet,
        text,
        (margin, round(12 * px_per_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.45 * dpi / 100,
        0,
        max(1, dpi // 100),
        cv2.LINE_AA,
    )
    hint = "Stick each marker outside the grid, its inner corner on the grid's corner."
    cv2.putText(
        sheet,
        hint,
        (margin, page_h - margin),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.45 * dpi / 100,
        0,
        max(1, dpi // 100),
        cv2.LINE_AA,
    )
    return sheet
