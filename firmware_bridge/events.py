"""Typed observations the link hands to the referee service, and the sensor board's raw reading.

They say what the sensors saw, nothing about turns or scores. Square names are `H8`-style; `board_ms`
is the board's own uptime in milliseconds (modulo 2**32) when the contacts settled, so the order and
spacing of changes is exact whatever the serial line or the host's scheduler did to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Hello:
    """The board introduced itself (at the handshake, and unasked after a reboot)."""

    version: int
    width: int
    height: int
    coded: bool
    buttons: int
    slots: int
    debounce_ms: int
    heartbeat_ms: int


@dataclass(frozen=True, slots=True)
class SquareChanged:
    """A square's contents changed.

    `occupied` False: the square is now empty. `occupied` True and `letter` None: a tile lies there but the
    board cannot read letters (presence-only build) or read a code no tile carries. Otherwise `letter` is
    the tile's letter, `?` for a blank. `resync` marks a change found by comparing a fresh BOARD_DUMP with
    the picture (after a reconnect or lost frames): it happened, but `board_ms` is the dump's time.
    """

    square: str
    occupied: bool
    letter: str | None
    board_ms: int
    resync: bool = False

    def __str__(self) -> str:
        what = "empty" if not self.occupied else (self.letter or "occupied")
        return f"{self.square} {what}{' (resync)' if self.resync else ''} @{self.board_ms}ms"


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    button: int
    pressed: bool
    board_ms: int

    def __str__(self) -> str:
        return f"button {self.button} {'pressed' if self.pressed else 'released'} @{self.board_ms}ms"


@dataclass(frozen=True, slots=True)
class DiceTray:
    """A tray slot now holds die `die` showing face `face` (0..5), or is empty (both None). `resync`, as for
    `SquareChanged`: a change found by comparing a fresh BOARD_DUMP (the dump follows with the whole tray)."""

    slot: int
    die: int | None
    face: int | None
    board_ms: int
    resync: bool = False

    def __str__(self) -> str:
        what = "empty" if self.die is None else f"die {self.die} face {self.face}"
        return f"tray slot {self.slot} {what}{' (resync)' if self.resync else ''} @{self.board_ms}ms"


@dataclass(frozen=True, slots=True)
class BoardReading:
    """The sensor board's raw reading, as the link holds it now: occupied squares (name -> letter or None,
    as the magnet codes read), pressed buttons, tray slots (slot -> (die, face)), the board's time of it,
    and whether the link is up.

    Not the referee's board picture (`referee`'s `Picture` of `Cell`s): that one fuses this reading with
    the camera's, carries doubt and blanks, and is what the table judges. This is one sensor's word only,
    buttons and dice tray included, and knows nothing of turns."""

    width: int
    height: int
    squares: Mapping[str, str | None] = field(default_factory=lambda: MappingProxyType({}))
    buttons: frozenset[int] = frozenset()
    tray: Mapping[int, tuple[int, int]] = field(default_factory=lambda: MappingProxyType({}))
    board_ms: int = 0
    connected: bool = False

    def render(self) -> str:
        """The board as a grid of text, `.` empty, `#` occupied letter unknown, letters as read."""
        from firmware_bridge.squares import COLUMNS, square_name

        lines = ["    " + " ".join(COLUMNS[: self.width])]
        for row in range(self.height):
            cells = []
            for col in range(self.width):
                name = square_name(row * self.width + col, self.width)
                if name not in self.squares:
                    cells.append(".")
                else:
                    cells.append(self.squares[name] or "#")
            lines.append(f"{row + 1:>3} " + " ".join(cells))
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class BoardDump:
    """A full reading from the board, in `picture` (at the handshake, and after each resynchronisation)."""

    picture: BoardReading


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The board is alive: its uptime, scan rate and its own error counters (cumulative since boot)."""

    uptime_ms: int
    scans_per_s: int
    crc_errors: int
    framing_errors: int
    bad_commands: int
    tx_drops: int


@dataclass(frozen=True, slots=True)
class Pong:
    token: int
    board_ms: int

    def __str__(self) -> str:
        return f"pong {self.token} @{self.board_ms}ms"


@dataclass(frozen=True, slots=True)
class CommandRefused:
    """The board NAKed a command: which, and why in words."""

    command: str
    seq: int
    reason: str

    def __str__(self) -> str:
        return f"board refused {self.command} (seq {self.seq}): {self.reason}"


@dataclass(frozen=True, slots=True)
class LinkLost:
    """The board went away (unplugged, a port error, silent for too long) or could not be reached in the first
    place. Said once; the next LinkRestored says it is back. `at` is host monotonic seconds."""

    reason: str
    at: float

    def __str__(self) -> str:
        return f"board link lost: {self.reason}"


@dataclass(frozen=True, slots=True)
class LinkRestored:
    """The board is back and resynchronised; SquareChanged(resync=True) events for what changed meanwhile
    come right after this one."""

    hello: Hello
    at: float

    def __str__(self) -> str:
        return f"board link restored ({self.hello.width}x{self.hello.height})"


Event = (
    Hello
    | SquareChanged
    | ButtonEvent
    | DiceTray
    | BoardDump
    | Heartbeat
    | Pong
    | CommandRefused
    | LinkLost
    | LinkRestored
)
