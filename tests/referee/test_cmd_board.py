"""`referee board emulate` and `referee board monitor`, driven as a user would drive them."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.pty_emulator import PtyEmulator
from referee.cli import main
from referee.commands.board import execute

pytestmark = pytest.mark.pty


@pytest.fixture
def emulator() -> Iterator[PtyEmulator]:
    emu = PtyEmulator(EmulatedBoard(coded=True, seed=2))
    emu.start()
    try:
        yield emu
    finally:
        emu.stop()


def test_emulate_prints_the_device_and_takes_commands(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = (
        "place H8 E\nword G9 across ASK\nplace A1 Q upside-down\nshow\nplace H8 E\nfly away\npress 9\n"
        "unplug\nreplug\nquit\n"
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    assert main(["board", "emulate", "--coded", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("device: ") == 2  # at start, and again after replug
    assert "placed on G9 H9 I9" in out
    assert "  8 . . . . . . . E" in out and "  9 . . . . . . A S K" in out
    assert "  1 Q ." in out  # upside down, still a Q
    assert "error: H8 already holds a tile: lift it first" in out
    assert "error: 'fly away' is not a command; type help" in out
    assert "error: button 9 does not exist" in out


def test_emulate_refuses_a_bad_size(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match="--size 'big'"):
        main(["board", "emulate", "--size", "big"])
    assert main(["board", "emulate", "--size", "30x30"]) == 2
    assert "a 30x30 board does not fit the protocol" in capsys.readouterr().err


def test_monitor_refuses_timing_the_board_would_refuse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "monitor", "loop://", "--heartbeat-ms", "5"]) == 2
    assert "heartbeat period 5 ms: the board accepts 20 to 60000 ms" in capsys.readouterr().err
    assert main(["board", "monitor", "emulator://99x2"]) == 2
    assert "does not fit the protocol" in capsys.readouterr().err


def test_execute_help_lists_every_command(emulator: PtyEmulator) -> None:
    out = io.StringIO()
    assert execute(emulator, "help", out)
    for word in ("place", "lift", "word", "press", "roll", "unplug", "mute", "show", "quit"):
        assert word in out.getvalue()
    assert not execute(emulator, "quit", out)


def test_monitor_prints_a_live_change_and_redraws_the_board(
    emulator: PtyEmulator, capsys: pytest.CaptureFixture[str]
) -> None:
    result: list[int] = []
    monitor = threading.Thread(
        target=lambda: result.append(main(["board", "monitor", emulator.path, "--count", "2", "--timeout", "20"]))
    )
    monitor.start()
    # Wait (on the emulator's own steps) until the monitor's HOST_HELLO and GET_BOARD have arrived.
    with emulator.stepped:
        assert emulator.stepped.wait_for(lambda: emulator.board.firmware.reader.frames >= 2, 20)
    emulator.place("O15", "X")
    monitor.join(30)
    assert result == [0]
    out = capsys.readouterr().out
    assert "O15 X @" in out
    assert " 15 . . . . . . . . . . . . . . X" in out


def test_monitor_shows_the_board(emulator: PtyEmulator, capsys: pytest.CaptureFixture[str]) -> None:
    emulator.place("H8", "Q")
    assert emulator.wait_settled(10)
    # The first counted event is the BoardDump, which already holds the Q.
    assert main(["board", "monitor", emulator.path, "--count", "1", "--timeout", "20"]) == 0
    out = capsys.readouterr().out
    assert f"monitoring {emulator.path}" in out
    assert "board: 15x15, coded tiles, protocol v1" in out
    assert "board dump @" in out
    assert "  8 . . . . . . . Q" in out
    assert "link counters: frames=" in out


def test_board_help_from_the_console_script() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "board", "--help"], capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode == 0
    assert "emulate" in proc.stdout and "monitor" in proc.stdout


def test_emulate_in_its_own_process_serves_a_link_across_processes() -> None:
    """The workflow of the docs: `referee board emulate` in one terminal, the link (or `monitor`) in another."""
    from firmware_bridge.events import BoardDump, SquareChanged
    from firmware_bridge.link import BoardLink

    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "board", "emulate", "--coded", "--seed", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        first = proc.stdout.readline()
        assert first.startswith("device: "), first
        with BoardLink(first.split(": ", 1)[1].strip(), reconnect_s=0.05) as link:
            dump, seen = link.wait_for(lambda e: isinstance(e, BoardDump), 20)
            assert dump is not None, seen
            proc.stdin.write("place H8 Z\n")
            proc.stdin.flush()
            change, seen = link.wait_for(lambda e: isinstance(e, SquareChanged), 20)
            assert change is not None and (change.square, change.letter) == ("H8", "Z"), seen
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()


def test_monitor_fails_naming_the_url_when_the_board_cannot_be_reached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(tmp_path / "ttyACM9")  # no such device: it never opens
    assert main(["board", "monitor", url, "--connect-timeout", "0.2", "--count", "1"]) == 1
    captured = capsys.readouterr()
    assert f"the board at {url} could not be reached within 0.2 s" in captured.err
    assert "cannot open the port" in captured.err  # and why
    # --timeout shorter than the wait for the board: still not reached, still a failure
    assert main(["board", "monitor", url, "--timeout", "0.1"]) == 1
    assert f"the board at {url} could not be reached within 0.1 s" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--heartbeat-ms", "70000", "70000 is outside 20 to 60000 ms"),
        ("--heartbeat-ms", "-1", "-1 is outside 20 to 60000 ms"),
        ("--heartbeat-ms", "0", "0 is outside 20 to 60000 ms"),
        ("--debounce-ms", "5000", "5000 is outside 1 to 1000 ms"),
        ("--buttons", "17", "17 is outside 0 to 16"),
        ("--heartbeat-ms", "fast", "'fast' is not a whole number"),
    ],
)
def test_emulate_refuses_timing_outside_the_protocol_with_an_argparse_error(
    capsys: pytest.CaptureFixture[str], option: str, value: str, said: str
) -> None:
    """`--heartbeat-ms 70000` or `-1` used to end in a struct.error traceback from the firmware's HELLO."""
    with pytest.raises(SystemExit) as exit_:
        main(["board", "emulate", f"{option}={value}"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: {said}" in err and "Traceback" not in err


def test_emulate_names_a_missing_link_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It used to fail on os.symlink with a message naming /dev/pts/N, not the folder that is missing."""
    missing = tmp_path / "not-there"
    with pytest.raises(SystemExit):
        main(["board", "emulate", "--link-dir", str(missing)])
    err = capsys.readouterr().err
    assert f"argument --link-dir: {missing}: no such folder" in err and "/dev/pts" not in err


def test_an_emulator_refuses_a_link_dir_that_is_not_there(tmp_path: Path) -> None:
    from firmware_bridge.errors import EmulatorCommandError

    emulator = PtyEmulator(EmulatedBoard(seed=1), link_dir=tmp_path / "gone")
    with pytest.raises(EmulatorCommandError, match=f"{tmp_path / 'gone'}: no such folder"):
        emulator.start()
    emulator.stop()  # idempotent, also when it never started
    emulator.stop()
