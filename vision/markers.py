"""ArUco markers on the board's corners, and the printable sheet to make them.

Stick marker 0 at the grid's top-left corner, 1 top-right, 2 bottom-right, 3 bottom-left, each marker's
inner corner touching the corner of the grid. With markers, the board is found in any light and on any
board colour; the grid lines are still fitted afterwards for precision.
"""

from __future__ import annotations

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)  # TL, TR, BR, BL
# The corner of each marker that touches the grid: ArUco corners run TL, TR, BR, BL of the marker itself.
_INNER = {0: 2, 1: 3, 2: 0, 3: 1}


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
    """The grid's corners (TL, TR, BR, BL) from the four corner markers, or None unless all four are seen."""
    found = find_markers(image)
    if len(found) < 4:
        return None
    return np.array([found[i][_INNER[i]] for i in CORNER_IDS])


def marker_sheet(marker_mm: float = 30.0, dpi: int = 200) -> np.ndarray:
    """An A4 page (grey image) with the four corner markers, labelled, to print at 100% scale."""
    px_per_mm = dpi / 25.4
    page_w, page_h = round(210 * px_per_mm), round(297 * px_per_mm)
    sheet = np.full((page_h, page_w), 255, np.uint8)
    side = round(marker_mm * px_per_mm)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    names = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
    margin = round(25 * px_per_mm)
    cells = [
        (margin, margin),
        (page_w - margin - side, margin),
        (page_w - margin - side, page_h // 2),
        (margin, page_h // 2),
    ]
    for marker_id, (x, y) in zip(CORNER_IDS, cells, strict=True):
        sheet[y : y + side, x : x + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side, borderBits=1)
        label = f"{marker_id}: {names[marker_id]} corner"
        cv2.putText(
            sheet,
            label,
            (x, y + side + round(8 * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6 * dpi / 100,
            0,
            max(1, dpi // 100),
            cv2.LINE_AA,
        )
    text = f"SCRABBLE referee corner markers, ArUco 4x4_50, print at 100%: each square {marker_mm:.0f} mm"
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
