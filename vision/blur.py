"""Is a frame smeared? Its fine detail, compared with the last frame that read clear.

Why the last clear frame and not the calibration frame: how much fine detail a board shows depends on what
lies on it. An empty board is thin grid lines, all fine detail; a board full of tiles has broad faces and
letters, and less: on camera C's games `cells.sharpness` falls from 2.9 on the empty board to 1.9 on the
last, while a motion blur of 8 pixels takes a frame to 1.5. A limit set from the empty board left the last
frames of a game a hair above it, and sensor noise (which adds fine detail to the empty board most) put
them under it. A frame a turn apart from the last clear one holds nearly the same tiles, so it is the
measure a smear is judged against (the calibration frame, more leniently, until a frame reads clear). A
camera that really changed (refocused, another lamp) gives `SETTLE` frames in a row of one new level, which
then becomes the level.
"""

from __future__ import annotations

FLOOR = 1.15  # `cells.sharpness` of a hopelessly blurred frame
KEEP = 0.7  # share of the last clear frame's detail above `FLOOR` a frame must keep to count as sharp
# ... and of the calibration frame's, before any frame read clear: the calibration frame may be the empty
# board, and the first frame read a full one (a table restarted mid-game, `referee vision read` on one photo).
KEEP_FIRST = 0.4
SETTLE = 5  # frames in a row within `STEADY` of each other that make a new level
STEADY = 0.05  # relative difference of sharpness between frames of one steady level


class Detail:
    """The fine detail of a camera's frames over a game, and the limit below which a frame is smeared."""

    def __init__(self, reference: float) -> None:
        self.reference = reference  # the last clear frame's `cells.sharpness` (at first, the calibration's)
        self._keep = KEEP_FIRST
        self._low: list[float] = []  # sharpness of the smeared frames in a row since the last clear one

    @property
    def limit(self) -> float:
        return FLOOR + self._keep * max(self.reference - FLOOR, 0.0)

    def smeared(self, sharpness: float) -> bool:
        """Is a frame of this `sharpness` smeared? A steady new level, held for `SETTLE` frames, is not."""
        if sharpness >= self.limit:
            self._low = []
            return False
        self._low = [s for s in self._low if abs(s - sharpness) <= STEADY * sharpness] + [sharpness]
        if len(self._low) >= SETTLE:
            self.clear(sharpness)
            return False
        return True

    def clear(self, sharpness: float) -> None:
        """A frame read clear (nothing covers it, not smeared): its detail is the measure from now on."""
        self.reference, self._keep, self._low = sharpness, KEEP, []
