"""What the service needs of the things it is built from: a camera, the readers of its frames, a lexicon.

The service talks to these seams only, so a test, the simulated table and a real Pi plug in their own: an
OpenCV or Picamera2 source or a still image, `vision.BoardReader` or a fake, a word list from the store or a
set of words. The output devices are `hardware.factory.TableDevices` itself (one implementation, with a mock
backend for tests), the lexicon is the engine's own seam (`game.game.WordList`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from game.game import WordList

Lexicon = WordList  # membership of an uppercase word: all a table asks of its lexicon


class FrameSource(Protocol):
    """A camera: `read()` returns the next frame (a numpy image) or raises when it cannot."""

    def read(self) -> Any: ...


class SquareSeen(Protocol):
    """One square of a board reading (`vision.reader.SquareReading`)."""

    @property
    def occupied(self) -> bool: ...

    @property
    def letter(self) -> str: ...

    @property
    def confidence(self) -> float: ...

    @property
    def uncertain(self) -> bool: ...


class BoardSeen(Protocol):
    """A board reading (`vision.reader.BoardReading`): every square, and whether the frame was clear."""

    @property
    def occluded(self) -> bool: ...

    @property
    def uncertain(self) -> Iterable[str]: ...

    @property
    def squares(self) -> Mapping[str, SquareSeen]: ...


class BoardReaderPort(Protocol):
    """Reads a frame into a board reading (`vision.BoardReader`)."""

    def read(self, frame: Any) -> BoardSeen: ...


class DieSeen(Protocol):
    """One die (or tile) read in a tray or rack area (`vision.dice.DieReading`)."""

    @property
    def letter(self) -> str: ...

    @property
    def confidence(self) -> float: ...

    @property
    def uncertain(self) -> bool: ...


class DiceReaderPort(Protocol):
    """Reads the dice in an area of a frame (`vision.DiceReader`): the Scramble tray, the racks at the end."""

    def read(self, frame: Any) -> Sequence[DieSeen]: ...
