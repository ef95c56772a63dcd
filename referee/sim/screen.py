"""The simulated table's terminal when a person types at it: the clocks and the command being typed share the
bottom line, and everything the table says is printed above it, so neither ever overwrites the other.

A terminal in its usual (canonical) mode echoes what is typed wherever the cursor is; a clock line redrawn with
`\\r` every second wipes a half-typed command off the screen, and a message printed meanwhile lands in the
middle of it. `Screen` switches the terminal to cbreak mode (no echo, keys one at a time; Ctrl-C still stops the
program) and edits the line itself: it always knows what has been typed and draws it again after the clock or a
message. Left/right arrows are ignored, up/down step through the commands typed before, Backspace, Ctrl-U
(the whole line) and Ctrl-W (a word) delete. The terminal's mode is put back by `close()` (and at exit).
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import os
import shutil
import sys
import termios
import threading
import tty
from collections.abc import Callable, Iterator
from typing import Any, TextIO

PROMPT = "> "


class LineEditor:
    """The line being typed and the lines typed before (the keys' logic, without any terminal: tested alone)."""

    def __init__(self) -> None:
        self.buffer = ""
        self.history: list[str] = []
        self._back = 0  # how far up the history the line shown is (0: the line being typed)
        self._draft = ""
        self._escape = ""  # an escape sequence (an arrow key) being read

    def feed(self, text: str) -> list[str]:
        """Take typed characters; returns the lines finished by Enter (in order)."""
        done: list[str] = []
        for ch in text:
            if self._escape:
                self._escape += ch
                if len(self._escape) == 2 and ch not in "[O":
                    self._escape = ""  # Alt+key: dropped
                elif len(self._escape) > 2 and (ch.isalpha() or ch == "~"):
                    self._arrow(self._escape[-1])
                    self._escape = ""
                continue
            if ch == "\x1b":
                self._escape = ch
            elif ch in "\r\n":
                line, self.buffer = self.buffer, ""
                self._back = 0
                if line.strip() and (not self.history or self.history[-1] != line):
                    self.history.append(line)
                done.append(line)
            elif ch in "\x7f\x08":
                self.buffer = self.buffer[:-1]
            elif ch == "\x15":
                self.buffer = ""
            elif ch == "\x17":
                self.buffer = self.buffer.rstrip()
                self.buffer = self.buffer[:self.buffer.rfind(" ") + 1] if " " in self.buffer else ""
            elif ch == "\t":
                self.buffer += " "
            elif ch.isprintable():
                self.buffer += ch
        return done

    def _arrow(self, key: str) -> None:
        if key == "A" and self._back < len(self.history):
            if self._back == 0:
                self._draft = self.buffer
            self._back += 1
            self.buffer = self.history[-self._back]
        elif key == "B" and self._back > 0:
            self._back -= 1
            self.buffer = self.history[-self._back] if self._back else self._draft


class Screen:
    """The terminal of `referee run --sim` (see the module docstring). `say(text)` prints a message above the
    bottom line; `show_status(line)` sets the clocks on it (`referee.outputs.Outputs` calls it); `lines()` yields
    each command as Enter is pressed, until the input ends. Safe from any thread."""

    def __init__(self, out: TextIO = sys.stdout, stdin_fd: int | None = None,
                 width: Callable[[], int] | None = None) -> None:
        self.out = out
        self.fd = stdin_fd
        self._width = width or (lambda: shutil.get_terminal_size((100, 24)).columns)
        self.editor = LineEditor()
        self.status = ""
        self._lock = threading.RLock()
        self._saved: list[Any] | None = None
        self._opened = False
        self._closed = False

    # --- the terminal's mode -------------------------------------------------------------------------

    def open(self) -> Screen:
        """Put the terminal in cbreak mode (when `stdin_fd` is a terminal) and draw the bottom line."""
        if self.fd is not None and os.isatty(self.fd):
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
            atexit.register(self.close)
        with self._lock:
            self._opened = True
            self._draw()
        return self

    def close(self) -> None:
        """Clear the bottom line and give the terminal its mode back; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._opened:
                self._write("\r\x1b[K")
            if self._saved is not None and self.fd is not None:
                with contextlib.suppress(termios.error, OSError):
                    termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
                self._saved = None

    # --- what is shown -------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Print `text` (one or more lines) above the bottom line, then draw that line again."""
        with self._lock:
            if self._closed or not self._opened:
                print(text, file=self.out, flush=True)
                return
            body = "\r\n".join(text.rstrip("\n").split("\n"))
            self._write("\r\x1b[K" + body + "\r\n")
            self._draw()

    def show_status(self, line: str) -> None:
        """The clocks' line (what the terminal clock shows); redrawn with what is being typed."""
        with self._lock:
            self.status = line.strip("\r\n").rstrip()
            if self._opened and not self._closed:
                self._draw()

    def bottom_line(self) -> str:
        """The bottom line as drawn: the clocks, then the prompt and the command typed so far; the clocks give
        way when the terminal is too narrow for both, the typed text is never cut (its end stays in view)."""
        width = max(20, self._width() - 1)
        typed = PROMPT + self.editor.buffer
        line = f"{self.status}  {typed}" if self.status else typed
        if len(line) > width:
            line = typed if len(typed) <= width else typed[-width:]
        return line

    def _draw(self) -> None:
        self._write("\r\x1b[K" + self.bottom_line())

    def _write(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # a closed terminal: the table plays on
            self.out.write(text)
            self.out.flush()

    # --- what is typed -------------------------------------------------------------------------------

    def feed(self, text: str) -> list[str]:
        """Characters typed: edited into the line, shown; returns the commands finished by Enter."""
        with self._lock:
            done = self.editor.feed(text)
            for line in done:
                self._write("\r\x1b[K" + PROMPT + line + "\r\n")  # the command stays above, as typed
            if self._opened and not self._closed:
                self._draw()
        return done

    def lines(self) -> Iterator[str]:
        """The commands typed at the terminal (`stdin_fd`), one as Enter is pressed, until the input ends."""
        if self.fd is None:
            return
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while True:
            try:
                data = os.read(self.fd, 1024)
            except InterruptedError:
                continue
            except OSError:
                return
            if not data:  # the terminal closed (Ctrl-D is a key like any other here: dropped, not an end)
                return
            yield from self.feed(decoder.decode(data))


class Above:
    """A text stream whose lines are said above the bottom line (the log's warnings to the terminal)."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self._part = ""

    def write(self, text: str) -> int:
        self._part += text
        while "\n" in self._part:
            line, self._part = self._part.split("\n", 1)
            self.screen.say(line)
        return len(text)

    def flush(self) -> None:
        return None
