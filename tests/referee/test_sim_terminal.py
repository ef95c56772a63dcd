"""Issue 28 item 1, looked at in a real terminal: `referee run --sim` in tmux, keys typed into it and the screen
read back (`tmux capture-pane`). The game's news appears as it happens, the clock line ticks on the bottom row
without wiping a half-typed command, and Ctrl-C gives the terminal its own mode back. Waits poll the screen
until the text is there (with a timeout), they never sleep for a fixed time."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ..patience import patience

pytestmark = [pytest.mark.pty,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt install tmux)")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Tmux:
    """A tmux server of its own (its socket in the test's folder), one window 120 x 50, stopped by `close`."""

    def __init__(self, command: str, folder: Path) -> None:
        self.socket = str(folder / f"tmux-{uuid.uuid4().hex[:8]}")
        self._run("new-session", "-d", "-s", "t", "-x", "120", "-y", "50", command)

    def _run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True,
                              timeout=30).stdout

    def keys(self, *keys: str) -> None:
        self._run("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self._run("send-keys", "-t", "t", "-l", text)

    def screen(self) -> list[str]:
        return self._run("capture-pane", "-t", "t", "-p", "-S", "-200").rstrip("\n").split("\n")

    def wait(self, what: str, pred: Callable[[list[str]], bool], timeout: float = 30.0) -> list[str]:
        deadline = time.monotonic() + patience(timeout)
        while time.monotonic() < deadline:
            lines = self.screen()
            if pred(lines):
                return lines
            time.sleep(0.1)  # polling the screen, not waiting for time to pass
        raise AssertionError(f"timed out waiting for {what}; the screen:\n" + "\n".join(self.screen()))

    def wait_text(self, text: str, timeout: float = 30.0) -> list[str]:
        return self.wait(repr(text), lambda lines: any(text in line for line in lines), timeout)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, check=False, timeout=30)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Tmux]:
    referee = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "referee", "run", "--sim", "--no-camera",
                                                "--minutes", "3", "--port", str(_free_port()),
                                                "--state-dir", str(tmp_path)])
    # After the referee ends: whether the terminal is back in its own mode (echo, lines), then wait to be read.
    command = f"cd {shlex.quote(os.getcwd())} && {referee}; echo REFEREE-ENDED; stty -a; sleep 600"
    t = Tmux(command, tmp_path)
    try:
        yield t
    finally:
        t.close()


def _bottom(lines: list[str]) -> str:
    shown = [line for line in lines if line.strip()]
    return shown[-1] if shown else ""


def test_a_game_at_the_terminal_shows_the_news_and_keeps_the_typing_whole(terminal: Tmux) -> None:
    terminal.wait_text("type commands for the board and the table here")
    terminal.wait_text("the game waits for its start: type start")
    terminal.type("start")
    terminal.keys("Enter")
    terminal.wait_text("the game has started: Anna to move")
    terminal.type("word 8D HO")  # half a command: the clock ticks meanwhile
    first = terminal.wait("the clock and the typing on the bottom row",
                          lambda lines: "Anna [" in _bottom(lines) and _bottom(lines).endswith("> word 8D HO"))
    ticked = terminal.wait("the clock ticking", lambda lines: "Anna [" in _bottom(lines)
                           and _bottom(lines) != _bottom(first))
    assert _bottom(ticked).endswith("> word 8D HO"), _bottom(ticked)  # a tick redraws the typing, never wipes it
    terminal.type("USE")
    terminal.keys("Enter")
    terminal.type("press 0")
    terminal.keys("Enter")
    lines = terminal.wait_text("Anna: 8D HOUSE (HOUSE) +24, total 24")
    assert "> word 8D HOUSE" in lines  # the command stays on the screen as it was typed
    terminal.wait_text("the play may be challenged for 15 s: type challenge, or accept")
    terminal.type("challenge")
    terminal.keys("Enter")
    terminal.wait_text("Ben: loses the turn +0, total 0")
    terminal.type("pass")
    terminal.keys("Enter")
    terminal.wait_text("Anna: pass +0, total 24")
    terminal.type("blank H8 E")
    terminal.keys("Enter")
    terminal.wait_text("blank: ")  # refused: no blank is asked about; the reason is printed
    terminal.keys("C-c")
    lines = terminal.wait_text("REFEREE-ENDED")
    assert any("export it as GCG:" in line for line in lines)
    modes = terminal.wait_text("speed")  # stty -a after the end
    said = " ".join(modes)
    assert " icanon" in said and " echo " in said and "-icanon" not in said  # the terminal's own mode is back


def test_commands_from_a_pipe_and_the_news_in_german(tmp_path: Path) -> None:
    # Not a terminal at either end: the same lines, plain, and the commands read line by line (a script of moves).
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "referee", "run", "--sim", "--no-camera", "--language", "de",
                             "--edition", "english",  # German words, English tiles: the play below scores 24
                             "--port", str(_free_port()), "--state-dir", str(tmp_path)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("start\nword 8D HOUSE\npress 0\n")
        proc.stdin.flush()
        seen: list[str] = []
        while not any("Stand 24" in line for line in seen):
            line = proc.stdout.readline()
            assert line, "the simulated table ended before scoring the play: " + "".join(seen)
            seen.append(line)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    said = "".join(seen)
    assert "die Partie läuft: Anna ist am Zug\n" in said
    assert "Anna: 8D HOUSE (HOUSE) +24, Stand 24\n" in said
    assert "als GCG exportieren:" in out
