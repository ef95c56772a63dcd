"""Where the board lies in the camera's frames: a homography saved as JSON.

The homography maps image pixels to *board units*: the grid's top-left corner is (0, 0), its bottom-right
corner (15, 15), so square `A1` spans [0, 1] x [0, 1]. Keeping it in board units (not pixels of some
rectified image) lets the reader pick its own working resolution without re-calibrating.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.errors import CalibrationError

FORMAT_VERSION = 1
SIDE = 15  # squares along a side of the grid
SQUARES = SIDE * SIDE
CUT_SLACK = 0.05  # share of a square's side its corner may lie past the frame's border and the square be seen


@dataclass(frozen=True)
class Calibration:
    """A fixed camera's view of the board: `homography` (3x3, image px -> board units) and the frame size."""

    homography: tuple[tuple[float, float, float], ...]
    image_size: tuple[int, int]  # (width, height) of the frames it was made from
    method: str = "grid"  # "grid" (found from the board's own lines) or "aruco" (from printed markers)
    source: str = ""  # the image it was made from, for the record
    residual: float = 0.0  # RMS error of the fitted grid intersections, in board units
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_matrix(cls, matrix: np.ndarray, image_size: tuple[int, int], **kwargs: Any) -> Calibration:
        m = np.asarray(matrix, dtype=np.float64)
        if m.shape != (3, 3) or not np.all(np.isfinite(m)) or abs(np.linalg.det(m)) < 1e-12:
            raise CalibrationError("the board homography is not an invertible 3x3 matrix")
        m = m / m[2, 2]
        rows = tuple(tuple(float(v) for v in row) for row in m)
        return cls(homography=rows, image_size=(int(image_size[0]), int(image_size[1])), **kwargs)  # type: ignore[arg-type]

    @property
    def matrix(self) -> np.ndarray:
        return np.array(self.homography, dtype=np.float64)

    def board_to_image(self, points: np.ndarray) -> np.ndarray:
        """Board units (N x 2) to image pixels (N x 2)."""
        return _apply(np.linalg.inv(self.matrix), points)

    def image_to_board(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N x 2) to board units (N x 2)."""
        return _apply(self.matrix, points)

    def corners(self) -> np.ndarray:
        """The grid's four corners in image pixels: top-left, top-right, bottom-right, bottom-left."""
        return self.board_to_image(np.array([[0, 0], [15, 0], [15, 15], [0, 15]], dtype=np.float64))

    def visible(self, margin: float = 0.5, slack: float = CUT_SLACK) -> np.ndarray:
        """Which of the 225 squares (row-major, board units) lie inside the frame: 225 booleans.

        A frame may cut a few rows or columns of the grid (a camera that cannot go higher); the squares it
        cuts are reported unseen, never guessed. A square whose corner lies just past the frame's border, by
        at most `slack` of its side (plus `margin` pixels), is seen: its middle, where it is read, is in the
        frame, and a grid fitted near the border may put that corner a few pixels either side of it (after a
        bump, camera C's corner square O15 lay 3 pixels inside, and its refitted grid 1 pixel outside).
        """
        w, h = self.image_size
        rows, cols = np.divmod(np.arange(SQUARES), SIDE)
        corners = [
            self.board_to_image(np.column_stack([cols + dc, rows + dr]).astype(np.float64))
            for dr, dc in ((0, 0), (0, 1), (1, 1), (1, 0))
        ]
        side = np.linalg.norm(corners[2] - corners[0], axis=1) / np.sqrt(2.0)
        allow = margin + slack * side
        inside = np.ones(SQUARES, bool)
        for pts in corners:
            inside &= (
                (pts[:, 0] >= -allow)
                & (pts[:, 0] <= w - 1 + allow)
                & (pts[:, 1] >= -allow)
                & (pts[:, 1] <= h - 1 + allow)
            )
        return inside

    def cut_edges(self) -> list[str]:
        """The frame's edges ("top", "right", "bottom", "left", as the camera sees them) that cut the grid."""
        w, h = self.image_size
        edge = np.linspace(0, SIDE, 4 * SIDE + 1)
        zeros, sides = np.zeros_like(edge), np.full_like(edge, SIDE)
        outline = np.vstack([
            np.column_stack([edge, zeros]), np.column_stack([sides, edge]),
            np.column_stack([edge, sides]), np.column_stack([zeros, edge]),
        ])
        pts = self.board_to_image(outline)
        out = []
        for name, beyond in (
            ("top", pts[:, 1] < -0.5), ("right", pts[:, 0] > w - 0.5),
            ("bottom", pts[:, 1] > h - 0.5), ("left", pts[:, 0] < -0.5),
        ):
            if beyond.any():
                out.append(name)
        return out

    def check_frame(self, frame: np.ndarray, where: str = "frame") -> None:
        """Refuse a frame of another size: the homography would silently point at the wrong pixels."""
        h, w = frame.shape[:2]
        if (w, h) != self.image_size:
            raise CalibrationError(
                f"{where}: frame is {w}x{h} but the calibration was made for {self.image_size[0]}x"
                f"{self.image_size[1]}; calibrate again for this camera"
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "scrabble-referee-calibration",
            "version": FORMAT_VERSION,
            "homography": [list(r) for r in self.homography],
            "image_size": list(self.image_size),
            "method": self.method,
            "source": self.source,
            "residual": self.residual,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "calibration") -> Calibration:
        try:
            if data.get("format") != "scrabble-referee-calibration":
                raise CalibrationError(f"{where}: not a calibration file (no 'format' marker)")
            if int(data.get("version", 0)) > FORMAT_VERSION:
                raise CalibrationError(f"{where}: calibration version {data['version']} is newer than this program")
            size = data["image_size"]
            return cls.from_matrix(
                np.array(data["homography"], dtype=np.float64),
                (int(size[0]), int(size[1])),
                method=str(data.get("method", "grid")),
                source=str(data.get("source", "")),
                residual=float(data.get("residual", 0.0)),
                extra=dict(data.get("extra", {})),
            )
        except CalibrationError:
            raise
        except (AttributeError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"{where}: malformed calibration ({exc})") from exc

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            hint = "make one with `referee vision calibrate`"
            raise CalibrationError(f"{p}: calibration file not found; {hint}") from exc
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CalibrationError(f"{p}: cannot read calibration ({exc})") from exc
        return cls.from_json(data, where=str(p))


def _apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    homog = np.hstack([pts, np.ones((len(pts), 1))]) @ matrix.T
    out: np.ndarray = homog[:, :2] / homog[:, 2:3]
    return out
