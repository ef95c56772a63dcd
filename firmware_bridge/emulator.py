"""The board without a board: the firmware's own code (`firmware.scanner`) on a simulated switch matrix.

- `matrix.SwitchMatrix`: what the sense lines read at a given millisecond, contact bounce included.
- `EmulatedBoard`: the firmware on that matrix in simulated time (`advance(ms)` runs one scan per
  millisecond), with the scripting API (place/lift/press/roll/unplug/...). No wall clock, no threads.
- `InProcessLink`: an EmulatedBoard and a `LinkCore` joined without any port, for simulated tables and tests.
- `pty_emulator.PtyEmulator`: an EmulatedBoard paced by the real clock on a
  thread, behind a pseudo-terminal, exactly as the host would reach `/dev/ttyACM0`.
"""

from __future__ import annotations

import random

from firmware_bridge.codes import TileCodes, default_tile_codes, reverse_bits
from firmware_bridge.core import LinkCore
from firmware_bridge.errors import EmulatorCommandError
from firmware_bridge.events import Event
from firmware_bridge.firmware import wire
from firmware_bridge.firmware.scanner import DEFAULT_DEBOUNCE_MS, DEFAULT_HEARTBEAT_MS, Firmware
from firmware_bridge.limits import hello_problem
from firmware_bridge.matrix import SwitchMatrix
from firmware_bridge.squares import line_of_squares, square_index

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here on the RP2040
MAX_TRAY_DIE = 20  # 1 + 20 * 6 + 5 = 126: the largest code a tray slot's 7 switches read
TX_BUFFER = 4096  # bytes the board may queue for a host that is not reading (the Pico's USB CDC is smaller)


class SimHal:
    """The firmware's HAL in simulated time: the matrix, and two byte queues standing for the USB cable."""

    def __init__(self, matrix: SwitchMatrix, tick_offset: int = 0) -> None:
        self.matrix = matrix
        self.now_ms = 0
        self.tick_offset = tick_offset
        self.to_host = bytearray()
        self.from_host = bytearray()
        self.connected = True

    def ticks_ms(self) -> int:
        return (self.now_ms + self.tick_offset) % TICKS_PERIOD

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        half = TICKS_PERIOD // 2
        return ((a - b + half) % TICKS_PERIOD) - half

    def scan(self, buf: bytearray) -> None:
        self.matrix.read_into(buf, self.now_ms)

    def read(self) -> bytes | None:
        if not self.from_host:
            return None
        data = bytes(self.from_host)
        self.from_host.clear()
        return data

    def write(self, data: bytes) -> bool:
        if not self.connected:
            return False
        if len(self.to_host) + len(data) > TX_BUFFER:
            return False
        self.to_host += data
        return True


class EmulatedBoard:
    """A sensor board in simulated time, with the scripting API the simulated table and tests use.

    `advance(ms)` runs the firmware one scan per `scan_period_ms` of simulated time; host bytes go in with
    `from_host(data)` and come out with `to_host()`. Physical actions (place, lift, press, roll) happen at
    the current simulated time, whether or not the board is plugged in: a tile placed while the board
    is unplugged is there when it boots again.
    """

    def __init__(
        self,
        width: int = 15,
        height: int = 15,
        coded: bool = False,
        buttons: int = 4,
        slots: int = 0,
        seed: int = 0,
        bounce_ms: float = 12.0,
        glitch: float = 0.2,
        debounce_ms: int = DEFAULT_DEBOUNCE_MS,
        heartbeat_ms: int = DEFAULT_HEARTBEAT_MS,
        scan_period_ms: int = 1,
        tile_codes: TileCodes | None = None,
        tick_offset: int | None = None,
    ) -> None:
        problem = hello_problem(
            width=width,
            height=height,
            buttons=buttons,
            slots=slots,
            debounce_ms=debounce_ms,
            heartbeat_ms=heartbeat_ms,
        )
        if problem is not None:  # the host would refuse such a board (and the HELLO could not even carry some)
            raise EmulatorCommandError(f"a {width}x{height} board does not fit the protocol: {problem}")
        if bounce_ms >= debounce_ms:
            raise EmulatorCommandError(f"bounce of {bounce_ms} ms would outlast the {debounce_ms} ms debounce")
        self.width = width
        self.height = height
        self.coded = coded
        self.buttons = buttons
        self.slots = slots
        self.debounce_ms = debounce_ms
        self.heartbeat_ms = heartbeat_ms
        self.scan_period_ms = scan_period_ms
        self.tile_codes = tile_codes or default_tile_codes()
        rng = random.Random(seed)
        self.squares = width * height
        self.matrix = SwitchMatrix(
            self.squares + buttons + slots, self.squares, width, 6 if coded else 1, rng, bounce_ms, glitch
        )
        offset = tick_offset if tick_offset is not None else rng.randrange(TICKS_PERIOD)
        self.hal = SimHal(self.matrix, offset)
        self.now_ms = 0
        self.boot_ms = 0  # simulated time of the last boot: board time (uptime) counts from here
        self.plugged = True
        self.muted = False
        self.firmware = self._boot()

    def _boot(self) -> Firmware:
        self.boot_ms = self.now_ms
        self.hal.to_host.clear()
        self.hal.from_host.clear()
        return Firmware(
            self.hal,
            self.width,
            self.height,
            coded=self.coded,
            buttons=self.buttons,
            slots=self.slots,
            debounce_ms=self.debounce_ms,
            heartbeat_ms=self.heartbeat_ms,
        )

    # ---- time ----

    def advance(self, ms: float) -> None:
        """Run the firmware through `ms` milliseconds of simulated time."""
        self.advance_to(self.now_ms + ms)

    def advance_to(self, t_ms: float) -> None:
        """Run every scan due up to simulated time `t_ms` (catching up in a burst if behind)."""
        while self.now_ms + self.scan_period_ms <= t_ms:
            self.now_ms += self.scan_period_ms
            self.hal.now_ms = self.now_ms
            if self.plugged and not self.muted:
                self.firmware.step()

    def settled(self) -> bool:
        """True once no contact bounces and the firmware has reported everything it will report."""
        return self.matrix.quiet_after() < self.now_ms and self.firmware.pending == 0

    # ---- the cable ----

    def from_host(self, data: bytes) -> None:
        """Bytes from the host, read by the firmware at its next step (lost while unplugged)."""
        if self.plugged:
            self.hal.from_host += data

    def to_host(self) -> bytes:
        """Everything the firmware wrote since the last call."""
        data = bytes(self.hal.to_host)
        self.hal.to_host.clear()
        return data

    def unplug(self) -> None:
        """Pull the USB cable: the board loses power; the tiles stay where they are."""
        self.plugged = False
        self.hal.connected = False
        self.hal.to_host.clear()

    def replug(self) -> None:
        """Plug it back: the board boots afresh (uptime 0 of a new life, HELLO first)."""
        self.plugged = True
        self.muted = False
        self.hal.connected = True
        self.hal.now_ms = self.now_ms
        self.firmware = self._boot()

    def mute(self) -> None:
        """The board hangs: still plugged in, says nothing and scans nothing (a silent board)."""
        self.muted = True

    def unmute(self) -> None:
        """The hung board carries on (no reboot: its picture and sequence continue)."""
        self.muted = False

    # ---- scripting: the physical world ----

    def _square(self, square: str) -> int:
        return square_index(square, self.width, self.height)

    def _tile_code(self, letter: str | None, upside_down: bool) -> int:
        if not self.coded:
            return wire.OCCUPIED
        if letter is None:
            raise EmulatorCommandError("this board reads letters: say which tile to place, e.g. place H8 E")
        code = self.tile_codes.code(letter)
        return reverse_bits(code, self.tile_codes.bits) if upside_down else code

    def place(self, square: str, letter: str | None = None, upside_down: bool = False) -> None:
        """Set a tile down; `upside_down` turns it 180 degrees, so its switches read the code reversed."""
        index = self._square(square)
        if self.matrix.settled[index] != wire.EMPTY:
            raise EmulatorCommandError(f"{square.upper()} already holds a tile: lift it first")
        self.matrix.set(index, self._tile_code(letter, upside_down), self.now_ms)

    def lift(self, square: str) -> None:
        """Take the tile off `square` (its switches chatter as it goes)."""
        index = self._square(square)
        if self.matrix.settled[index] == wire.EMPTY:
            raise EmulatorCommandError(f"{square.upper()} is empty: there is no tile to lift")
        self.matrix.set(index, wire.EMPTY, self.now_ms)

    def place_word(self, start: str, direction: str, word: str, gap_ms: float = 0.0) -> list[str]:
        """Place a word's tiles one after another, `gap_ms` apart (simulated time runs meanwhile);
        squares already holding a tile are skipped, as when a word goes through a letter on the board.
        Returns the squares that got a tile."""
        squares = line_of_squares(start, direction, len(word), self.width, self.height)
        placed: list[str] = []
        for name, letter in zip(squares, word, strict=True):
            if self.matrix.settled[self._square(name)] != wire.EMPTY:
                continue
            if placed and gap_ms:
                self.advance(gap_ms)
            self.place(name, letter)
            placed.append(name)
        return placed

    def _button(self, button: int) -> int:
        if not (0 <= button < self.buttons):
            raise EmulatorCommandError(f"button {button} does not exist: this board has buttons 0-{self.buttons - 1}")
        return self.squares + button

    def press(self, button: int) -> None:
        """Press a button and hold it (the contact bounces, as a real one does)."""
        self.matrix.set(self._button(button), 1, self.now_ms, bits=1)

    def release(self, button: int) -> None:
        """Let go of a button."""
        self.matrix.set(self._button(button), 0, self.now_ms, bits=1)

    def _slot(self, slot: int) -> int:
        if not (0 <= slot < self.slots):
            raise EmulatorCommandError(f"tray slot {slot} does not exist: this board has {self.slots} slot(s)")
        return self.squares + self.buttons + slot

    def roll(self, slot: int, die: int, face: int) -> None:
        """A die lands in a tray slot showing `face` (0..5)."""
        if not (0 <= die <= MAX_TRAY_DIE) or not (0 <= face < 6):
            # A slot has 7 reed switches (docs/hardware-board.md): a larger code would read as another die.
            raise EmulatorCommandError(
                f"die {die} face {face}: a tray slot reads dice 0-{MAX_TRAY_DIE} with faces 0-5 "
                "(7 switches: 1 + die x 6 + face must stay below 128)"
            )
        index = self._slot(slot)
        for other, (held, _) in self.tray().items():  # a die lies in one slot at a time
            if other != slot and held == die:
                raise EmulatorCommandError(f"die {die} is already in tray slot {other}: take it out first")
        self.matrix.set(index, 1 + die * 6 + face, self.now_ms, bits=7)

    def tray(self) -> dict[int, tuple[int, int]]:
        """What lies in the dice tray now: slot -> (die, face)."""
        first = self.squares + self.buttons
        codes = self.matrix.settled[first : first + self.slots]
        return {slot: divmod(code - 1, 6) for slot, code in enumerate(codes) if code}

    def clear_slot(self, slot: int) -> None:
        """Take the die out of a tray slot."""
        self.matrix.set(self._slot(slot), 0, self.now_ms, bits=7)

    def occupied(self) -> dict[str, int]:
        """What physically lies on the board now: square name -> code."""
        from firmware_bridge.squares import square_names

        names = square_names(self.width, self.height)
        return {names[i]: c for i, c in enumerate(self.matrix.settled[: self.squares]) if c}


class InProcessLink:
    """An EmulatedBoard and a LinkCore joined without a port: `advance(ms)` returns the host's events.

    Bytes cross in both directions every `chunk_ms` of simulated time, as a USB frame would carry them.
    """

    def __init__(self, board: EmulatedBoard, core: LinkCore | None = None, chunk_ms: int = 1) -> None:
        self.board = board
        self.core = core or LinkCore()
        self.chunk_ms = chunk_ms
        self._connected = False

    def _now(self) -> float:
        return self.board.now_ms / 1000.0

    def advance(self, ms: float) -> list[Event]:
        """Run board and link through `ms` of simulated time; the host's events in order."""
        events: list[Event] = []
        end = self.board.now_ms + ms
        while True:
            if not self._connected and self.board.plugged:
                self.core.connection_made(self._now())
                self._connected = True
            elif self._connected and not self.board.plugged:
                self._connected = False
                events += self.core.connection_lost("board unplugged", self._now())
            if self._connected:
                self.board.from_host(self.core.take_outgoing())
                data = self.board.to_host()
                if data:
                    events += self.core.data_received(data, self._now())
                events += self.core.tick(self._now())
                if self.core.state == "down":
                    self._connected = False  # the link closes the port and opens it again
            if self.board.now_ms >= end:
                return events
            self.board.advance(min(self.chunk_ms, end - self.board.now_ms))

