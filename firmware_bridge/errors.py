"""Errors of the sensor-board path: one class per kind of failure, each a `RefereeError` and a `ValueError`.

Bad bytes from the board are never raised: the link counts and logs them. These are for what a user
or a configuration gets wrong: a square name, a port URL, a tile-code table, an emulator command.
"""

from __future__ import annotations

from game.errors import RefereeError


class BoardLinkError(RefereeError, ValueError):
    """Base of every error the sensor-board path raises on purpose."""


class SquareNameError(BoardLinkError):
    """A square name that is not column letter + row number on this board (`H8`, `A1`, `I9`)."""


class PortURLError(BoardLinkError):
    """A port URL that names no device, emulator or pyserial handler the link can open."""


class TileCodeError(BoardLinkError):
    """A tile-code table that is malformed, or a letter that has no magnet code."""


class EmulatorCommandError(BoardLinkError):
    """A scripting command for the emulator that cannot be carried out (`place Z99 E`, `press 9`)."""


class LinkConfigError(BoardLinkError):
    """A debounce time or heartbeat period the board's firmware would refuse (protocol limits)."""
