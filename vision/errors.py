"""Errors of the camera path: one class per kind of failure, each a `RefereeError` and a `ValueError`."""

from __future__ import annotations

from game.errors import RefereeError


class VisionError(RefereeError, ValueError):
    """Base of every error the camera path raises on purpose."""


class BoardNotFoundError(VisionError):
    """No board could be located in an image (no markers, no green field, no grid)."""


class CalibrationError(VisionError):
    """A calibration file is missing, corrupt, or does not fit the frames it is used with."""


class FrameSourceError(VisionError):
    """A camera or an image file could not be opened or read."""


class ModelError(VisionError):
    """A classifier model file is missing, corrupt, or of the wrong kind."""


class LabelsError(VisionError):
    """A labels file (the format of ../shared/photos/labels.json) is malformed or points at missing images."""
