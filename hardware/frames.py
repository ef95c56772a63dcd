"""What each output shows for a given clock state: pure functions, no devices, no clock reads.

The LED ring, the bar graph, the digit displays, the terminal and (through the table snapshot) the
scoreboard page all draw the same `Reading`s, so they agree, and every picture can be tested at any
chosen instant of a fake clock. Even blinking is a function of the time on the clock (overtime
milliseconds), not of a separate timer, so a frame is fully determined by the reading.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from game.clock import GameClock
from game.timers import TurnTimer, to_ms

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)


@dataclass(frozen=True)
class Reading:
    """One clock face at one instant."""

    remaining_ms: int  # negative in overtime
    total_ms: int  # the full time (budget or turn), for the sand level
    active: bool  # this face's clock is the one on move (running, or frozen by a pause)
    paused: bool = False
    flagged: bool = False  # past the maximum overtime

    @property
    def fraction(self) -> float:
        """Sand left, 0 to 1 (an increment can push the clock past its budget: still full)."""
        if self.remaining_ms <= 0 or self.total_ms <= 0:
            return 0.0
        return min(1.0, self.remaining_ms / self.total_ms)

    @property
    def overtime(self) -> bool:
        return self.remaining_ms < 0

    @property
    def blink_on(self) -> bool:
        """In overtime a running face blinks: lit for the first half of every overtime second.
        A stopped face (the opponent's, or during a pause) stays lit so the blink means "running"."""
        if not self.overtime or not self.active or self.paused:
            return True
        return (-self.remaining_ms) % 1000 < 500


def readings(timer: GameClock | TurnTimer) -> list[Reading]:
    """The faces of a game clock (one per player, in seat order) or of the turn timer (one)."""
    if isinstance(timer, TurnTimer):
        state = timer.state
        return [
            Reading(
                remaining_ms=to_ms(timer.remaining()),
                total_ms=to_ms(timer.config.seconds),
                active=state in ("running", "paused"),
                paused=state == "paused",
            )
        ]
    total = to_ms(timer.config.budget_s)
    live = timer.state in ("running", "paused")
    return [
        Reading(
            remaining_ms=timer.remaining_ms(p),
            total_ms=total,
            active=live and timer.on_move == p,
            paused=timer.state == "paused",
            flagged=timer.flagged(p),
        )
        for p in range(timer.config.players)
    ]


def focus(faces: Sequence[Reading]) -> Reading:
    """The face a single-face output (the bar graph) shows: the one on move, else the first."""
    for face in faces:
        if face.active:
            return face
    return faces[0]


# --- LED ring or strip -------------------------------------------------------------------------


@dataclass(frozen=True)
class RingStyle:
    """Colours at full scale (the driver applies the configured brightness) and when they change."""

    ok: RGB = (0, 160, 0)
    warn: RGB = (255, 120, 0)
    low: RGB = (255, 0, 0)
    overtime: RGB = (255, 0, 0)
    paused: RGB = (0, 0, 255)
    warn_fraction: float = 0.25  # amber from a quarter of the time left (45 s of 3 min, 6:15 of 25 min)
    low_fraction: float = 0.10  # red from a tenth (18 s of 3 min, 2:30 of 25 min)
    idle_dim: float = 0.15  # the faces not on move glow faintly so everyone sees whose turn it is


def segment_bounds(leds: int, faces: int) -> list[tuple[int, int]]:
    """The LEDs of each face's segment, [start, end), as even as the count allows."""
    return [(i * leds // faces, (i + 1) * leds // faces) for i in range(faces)]


def lit_count(reading: Reading, leds: int) -> int:
    """LEDs still full of sand: all at the start, the last one goes out exactly at zero."""
    return math.ceil(reading.fraction * leds - 1e-9)


def face_colour(reading: Reading, style: RingStyle) -> RGB:
    if reading.paused:
        colour = style.paused
    elif reading.overtime:
        colour = style.overtime
    elif reading.fraction <= style.low_fraction:
        colour = style.low
    elif reading.fraction <= style.warn_fraction:
        colour = style.warn
    else:
        colour = style.ok
    if not reading.active:
        colour = _scale(colour, style.idle_dim)
    return colour


def ring_frame(faces: Sequence[Reading], leds: int, style: RingStyle | None = None) -> list[RGB]:
    """One colour per LED: a segment per face, draining like sand, amber then red near the end;
    in overtime the whole segment is red and blinks while that clock runs."""
    style = style or RingStyle()
    frame: list[RGB] = [OFF] * leds
    for face, (start, end) in zip(faces, segment_bounds(leds, len(faces)), strict=True):
        size = end - start
        colour = face_colour(face, style)
        lit = size if face.overtime else lit_count(face, size)
        if not face.blink_on:
            lit = 0
        for i in range(start, start + lit):
            frame[i] = colour
    return frame


def place(frame: Sequence[RGB], offset: int = 0, reverse: bool = False) -> list[RGB]:
    """Map a drawn frame (index 0 = where the sand starts) onto the wired LEDs: logical LED i goes to
    wired LED (offset + i) mod n, or (offset - i) mod n when the ring is mounted the other way round."""
    n = len(frame)
    wired: list[RGB] = [OFF] * n
    step = -1 if reverse else 1
    for i, colour in enumerate(frame):
        wired[(offset + step * i) % n] = colour
    return wired


def _scale(colour: RGB, factor: float) -> RGB:
    r, g, b = colour
    return (round(r * factor), round(g * factor), round(b * factor))


# --- plain LED bar graph -----------------------------------------------------------------------


def bar_lit(reading: Reading, leds: int) -> int:
    """How many LEDs of a plain bar graph are lit: the sand level, all of them blinking in overtime."""
    if reading.overtime:
        return leds if reading.blink_on else 0
    return lit_count(reading, leds)


# --- 4-digit 7-segment displays (TM1637) -------------------------------------------------------


def clock_text(remaining_ms: int) -> str:
    """m:ss as a clock shows it. Counting down, a part second counts as a second, so "0:00" appears
    exactly when time is up; in overtime the time over is shown negative, whole seconds, the way
    the penalty reads it ("-3:04" is 3:04 over). From 10 minutes over only the minutes fit ("-10")."""
    if remaining_ms > 0:
        secs = -(-remaining_ms // 1000)
        minutes, seconds = divmod(secs, 60)
        if minutes > 99:
            return "99:59"
        return f"{minutes}:{seconds:02d}"
    if remaining_ms == 0:
        return "0:00"
    minutes, seconds = divmod((-remaining_ms) // 1000, 60)
    if minutes >= 10:
        return f"-{min(minutes, 999)}"
    return f"-{minutes}:{seconds:02d}"


def digits_text(reading: Reading) -> str:
    """What a player's display shows: the clock, blank on the off-beats of a running overtime."""
    return clock_text(reading.remaining_ms) if reading.blink_on else ""


def digits_brightness(reading: Reading, level: int) -> int:
    """The display's brightness (TM1637 levels 0-7): full for the clock on move, dimmed by three
    levels for the others, so the players see whose clock runs (the ring does the same)."""
    return level if reading.active else max(0, level - 3)


# Segments a-g are bits 0-6; bit 7 of the second digit drives the colon on 4-digit clock modules.
SEGMENTS: dict[str, int] = {
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66, "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F,
    "9": 0x6F, "-": 0x40, " ": 0x00, "_": 0x08, "A": 0x77, "B": 0x7C, "C": 0x39, "D": 0x5E, "E": 0x79,
    "F": 0x71, "G": 0x3D, "H": 0x76, "I": 0x06, "L": 0x38, "N": 0x54, "O": 0x3F, "P": 0x73, "R": 0x50,
    "S": 0x6D, "T": 0x78, "U": 0x3E, "Y": 0x6E,
}  # fmt: skip
COLON = 0x80


def tm1637_bytes(text: str) -> bytes:
    """Four segment bytes for `text`, right-aligned, with a ':' lighting the colon: "3:04" -> " 3:04".

    Raises ValueError for text that does not fit or a character a 7-segment digit cannot show."""
    colon = ":" in text
    chars = text.replace(":", "")
    if len(chars) > 4 or text.count(":") > 1:
        raise ValueError(f"{text!r} does not fit a 4-digit display")
    if colon and (len(text) < 3 or text[-3] != ":"):
        raise ValueError(f"{text!r}: the colon sits between the second and third digit")
    chars = chars.rjust(4).upper()
    try:
        out = bytearray(SEGMENTS[c] for c in chars)
    except KeyError as exc:
        raise ValueError(f"{text!r}: a 7-segment digit cannot show {exc.args[0]!r}") from None
    if colon:
        out[1] |= COLON
    return bytes(out)


# --- buzzer ------------------------------------------------------------------------------------

TIME_UP_PATTERN = (0.25, 0.15, 0.25, 0.15, 0.6)  # beep-beep-beeep at zero
FLAG_PATTERN = (1.5,)  # a long tone past the maximum overtime
PRESS_PATTERN = (0.03,)  # a click, for the `referee hardware test` command


def buzzer_on(pattern: Sequence[float], elapsed: float) -> bool:
    """Whether the buzzer sounds `elapsed` seconds into `pattern` (on, off, on, ... durations)."""
    if elapsed < 0:
        return False
    t = 0.0
    for i, duration in enumerate(pattern):
        t += duration
        if elapsed < t:
            return i % 2 == 0
    return False
