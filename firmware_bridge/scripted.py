"""What the stand-ins for a sensor board share: the physical world, scripted from any thread.

`PtyEmulator` (the firmware's code under CPython) and `MicroPythonBoard` (its own main.py on MicroPython) both hold
an `EmulatedBoard`, the tiles, buttons and dice tray of the world, and let a test, the console or the simulated
camera act on it and look at it. Each action takes the stand-in's lock and happens at its current time; how a
stand-in catches up with that time (`_catch_up`), starts and stops is its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Self, TypeVar

from firmware_bridge.emulator import EmulatedBoard

_T = TypeVar("_T")


class ScriptedBoard:
    """A board stand-in's scripting API on its `board`, under its `lock` (see the module's docstring).
    A context manager: `with PtyEmulator() as emu:` starts it and stops it."""

    board: EmulatedBoard
    lock: threading.RLock

    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def _catch_up(self) -> None:
        """Bring the board's world to the stand-in's current time, before an action happens at it."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _act(self, action: Callable[[], _T]) -> _T:
        with self.lock:
            self._catch_up()
            return action()

    def place(self, square: str, letter: str | None = None, upside_down: bool = False) -> None:
        """Set a tile down now (EmulatedBoard.place's checks and bounce)."""
        self._act(lambda: self.board.place(square, letter, upside_down))

    def lift(self, square: str) -> None:
        """Take the tile off `square` now."""
        self._act(lambda: self.board.lift(square))

    def place_word(self, start: str, direction: str, word: str) -> list[str]:
        """Place a word's tiles all at once (occupied squares kept); the squares that got a tile."""
        return self._act(lambda: self.board.place_word(start, direction, word))

    def press(self, button: int) -> None:
        """Press a button and hold it."""
        self._act(lambda: self.board.press(button))

    def release(self, button: int) -> None:
        """Let go of a button."""
        self._act(lambda: self.board.release(button))

    def roll(self, slot: int, die: int, face: int) -> None:
        """A die lands in a tray slot showing `face`."""
        self._act(lambda: self.board.roll(slot, die, face))

    def clear_slot(self, slot: int) -> None:
        """Take the die out of a tray slot."""
        self._act(lambda: self.board.clear_slot(slot))

    def tray(self) -> dict[int, tuple[int, int]]:
        """EmulatedBoard.tray (slot -> (die, face)), under the lock."""
        with self.lock:
            return self.board.tray()

    def tiles(self) -> dict[str, str]:
        """What lies on the board as an eye sees it: square -> letter, `?` a tile whose letter no code names (a
        blank, a board without coded tiles). The simulated camera films this (referee/sim/camera.py)."""
        with self.lock:
            board = self.board
            occupied = board.occupied()
            letters = {sq: board.tile_codes.letter(code) if board.coded else None for sq, code in occupied.items()}
        return {sq: letter or "?" for sq, letter in letters.items()}
