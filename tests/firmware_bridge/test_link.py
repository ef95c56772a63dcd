"""End to end: the firmware in the emulator behind a real pseudo-terminal, the host link through pyserial.

Waiting here is on events with timeouts (the link's queue, the emulator's step condition), never on
fixed sleeps; the timeouts are generous because the machine is shared."""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterator

import pytest
import serial

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.events import (
    BoardDump,
    Event,
    Heartbeat,
    LinkLost,
    LinkRestored,
    Pong,
    SquareChanged,
)
from firmware_bridge.firmware import wire
from firmware_bridge.link import BoardLink, open_port, parse_emulator_url
from firmware_bridge.mock import ScriptedPort
from firmware_bridge.pty_emulator import PtyEmulator

pytestmark = pytest.mark.pty
TIMEOUT = 10.0


@pytest.fixture
def emulator() -> Iterator[PtyEmulator]:
    emu = PtyEmulator(EmulatedBoard(coded=True, seed=11, glitch=1.0))
    emu.start()
    try:
        yield emu
    finally:
        emu.stop()


def link_to(url: str, **kwargs: object) -> BoardLink:
    link = BoardLink(url, reconnect_s=0.05, **kwargs)  # type: ignore[arg-type]
    link.start()
    dump, seen = link.wait_for(lambda e: isinstance(e, BoardDump), TIMEOUT)
    assert dump is not None, f"no BOARD_DUMP from {url}: {seen}"
    return link


def until_pong(link: BoardLink, token: int) -> list[Event]:
    """Everything the board sent before it answered this PING (the line is FIFO: a barrier)."""
    link.ping(token)
    pong, seen = link.wait_for(lambda e: isinstance(e, Pong) and e.token == token, TIMEOUT)
    assert pong is not None, seen
    return seen


def test_a_word_yields_exactly_its_square_events_after_debounce(emulator: PtyEmulator) -> None:
    link = link_to(emulator.path)
    try:
        emulator.place_word("H8", "across", "WORD")
        assert emulator.wait_settled(TIMEOUT)
        events = until_pong(link, 1)
        changes = [e for e in events if isinstance(e, SquareChanged)]
        assert sorted((c.square, c.letter) for c in changes) == [("H8", "W"), ("I8", "O"), ("J8", "R"), ("K8", "D")]
        assert not any(c.resync for c in changes)
        assert link.picture().render().splitlines()[8].split()[8:12] == ["W", "O", "R", "D"]
        assert link.stats["bad_frames"] == 0
    finally:
        link.stop()


def test_unplug_and_replug_mid_game_loses_no_change(emulator: PtyEmulator) -> None:
    link = link_to(emulator.path)
    try:
        emulator.place_word("G7", "down", "CAT")
        assert emulator.wait_settled(TIMEOUT)
        until_pong(link, 2)
        emulator.place("H7", "O")  # goes down as the cable comes out
        emulator.unplug()
        lost, seen = link.wait_for(lambda e: isinstance(e, LinkLost), TIMEOUT)
        assert lost is not None, seen
        emulator.lift("G9")  # changes while nobody is listening
        emulator.place("A1", "Z")
        emulator.replug()
        restored, seen = link.wait_for(lambda e: isinstance(e, LinkRestored), TIMEOUT)
        assert restored is not None, seen
        _, after = link.wait_for(lambda e: isinstance(e, BoardDump), TIMEOUT)
        assert emulator.wait_settled(TIMEOUT)
        after += until_pong(link, 3)
        reported = {(c.square, c.letter) for c in after if isinstance(c, SquareChanged)}
        reported |= {(c.square, c.letter) for c in seen if isinstance(c, SquareChanged)}
        assert {("H7", "O"), ("G9", None), ("A1", "Z")} <= reported
        assert dict(link.picture().squares) == {"G7": "C", "G8": "A", "H7": "O", "A1": "Z"}
        assert link.stats["reconnects"] >= 1
    finally:
        link.stop()


def test_silent_board_is_detected_within_three_heartbeat_periods(emulator: PtyEmulator) -> None:
    period = 0.5  # long enough that a busy machine's scheduling delays stay inside the 3-period bound
    link = link_to(emulator.path, heartbeat_ms=int(period * 1000))
    try:
        beat, seen = link.wait_for(lambda e: isinstance(e, Heartbeat), TIMEOUT)
        assert beat is not None, seen
        emulator.mute()
        lost, seen = link.wait_for(lambda e: isinstance(e, LinkLost), TIMEOUT)
        assert lost is not None and "silent" in lost.reason, seen
        assert lost.at - link.core.last_rx <= 3 * period
        emulator.unmute()
        restored, seen = link.wait_for(lambda e: isinstance(e, LinkRestored), TIMEOUT)
        assert restored is not None, seen
    finally:
        link.stop()


def test_emulator_url_starts_its_own_board() -> None:
    links: list[BoardLink] = []
    pictures: list[int] = []  # the callback may ask the link for its picture without deadlocking

    def on_event(event: Event) -> None:
        pictures.append(len(links[0].picture().squares))

    link = BoardLink("emulator://9x9?coded=1&buttons=2&seed=4", on_event=on_event, reconnect_s=0.05, queue_size=100)
    links.append(link)
    link.start()
    try:
        dump, seen = link.wait_for(lambda e: isinstance(e, BoardDump), TIMEOUT)
        assert dump is not None, seen
        assert link.picture().width == 9
        link.emulator.place("E5", "Q")
        assert link.emulator.wait_settled(TIMEOUT)
        changes = [e for e in until_pong(link, 4) if isinstance(e, SquareChanged)]
        assert [(c.square, c.letter) for c in changes] == [("E5", "Q")]
        assert pictures and pictures[-1] == 1
    finally:
        link.stop()


def test_parse_emulator_url_refuses_nonsense() -> None:
    assert parse_emulator_url("emulator://9x9?coded=yes&slots=7") == {
        "width": 9,
        "height": 9,
        "coded": True,
        "slots": 7,
    }
    assert parse_emulator_url("emulator://") == {}
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        parse_emulator_url("emulator://big")
    with pytest.raises(ValueError, match="unknown emulator option 'colour'"):
        parse_emulator_url("emulator://15x15?colour=red")


def test_loop_url_opens_and_its_echo_is_counted_not_raised() -> None:
    """`loop://` echoes our own HOST_HELLO back: a message type no board sends. Counted, never raised."""
    got_one = threading.Event()
    link = BoardLink("loop://", reconnect_s=0.05)
    link.start()
    try:
        for _ in range(200):  # the echo arrives within the first poll; the HELLO retry is 0.5 s
            if link.stats["unknown_types"] >= 1:
                got_one.set()
                break
            link.get(0.05)
        assert got_one.is_set()
        assert not link.picture().connected
    finally:
        link.stop()


class FakeSerialModule:
    """A fake of the part of pyserial that open_port calls: it hands out scripted ports."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, object]]] = []

    def serial_for_url(self, url: str, **kwargs: object) -> ScriptedPort:
        self.calls.append((url, kwargs))
        return ScriptedPort()


def test_open_port_calls_pyserial_with_the_url_and_flushes(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeSerialModule()
    monkeypatch.setattr(serial, "serial_for_url", fake.serial_for_url)
    port = open_port("/dev/ttyACM0")
    assert fake.calls == [
        (
            "/dev/ttyACM0",
            {"baudrate": 115200, "timeout": 0.02, "write_timeout": 1.0, "exclusive": True, "do_not_open": False},
        )
    ]
    assert isinstance(port, ScriptedPort) and port.flushed == 1


def test_a_second_reader_of_the_board_is_refused(emulator: PtyEmulator) -> None:
    """Two processes reading one serial port would each get half the frames: the second open is refused."""
    first = open_port(emulator.path)
    try:
        with pytest.raises(serial.SerialException, match="exclusively lock"):
            open_port(emulator.path)
    finally:
        first.close()
    open_port(emulator.path).close()  # free again once the first has closed it


def test_a_write_the_board_does_not_take_is_a_lost_link() -> None:
    """pyserial's write timeout (SerialTimeoutException) ends the connection like any port error."""
    port = ScriptedPort()
    port.fail_writes(serial.SerialTimeoutException("Write timeout"))
    with BoardLink("/dev/ttyACM7", opener=lambda url: port, reconnect_s=0.01) as link:
        lost, seen = link.wait_for(lambda e: isinstance(e, LinkLost), TIMEOUT)
        assert lost is not None and "Write timeout" in lost.reason, seen
        assert port.closed


def test_port_error_is_a_lost_link_and_the_port_is_reopened() -> None:
    ports: list[ScriptedPort] = []
    opened_again = threading.Event()

    def opener(url: str) -> ScriptedPort:
        if ports:
            opened_again.set()
            raise serial.SerialException(f"could not open port {url}: [Errno 2] No such file or directory")
        port = ScriptedPort()
        port.expect(wire.HOST_HELLO, reply=[(wire.HELLO, wire.pack_hello(15, 15, 0, 4, 0, 30, 1000))])
        port.expect(wire.GET_BOARD)  # the board goes away before it answers
        port.fail_read(serial.SerialException("device reports readiness to read but returned no data"))
        ports.append(port)
        return port

    with BoardLink("/dev/ttyACM7", opener=opener, reconnect_s=0.01) as link:
        assert opened_again.wait(TIMEOUT)
        assert ports[0].closed and [m for m, _, _ in ports[0].received][:1] == [wire.HOST_HELLO]
        assert link.stats["open_failures"] >= 1
        lost, seen = link.wait_for(lambda e: isinstance(e, LinkLost), TIMEOUT)
        assert lost is not None and "device reports readiness" in lost.reason, seen
        assert not any(isinstance(e, LinkLost) for e in seen[:-1])
        assert link.stats["links_lost"] == 1  # said once, not again on every failed reopen
    ports[0].assert_done()


def test_a_board_that_is_not_there_is_reported_once_and_welcomed_when_it_comes() -> None:
    board_dir = tempfile.mkdtemp(prefix="board-test-")
    emulator = PtyEmulator(EmulatedBoard(seed=3), link_dir=board_dir)
    link = BoardLink(emulator.path, reconnect_s=0.02)
    link.start()
    try:
        lost, seen = link.wait_for(lambda e: isinstance(e, LinkLost), TIMEOUT)
        assert lost is not None and lost.reason.startswith("cannot open the port"), seen
        emulator.start()  # the board is plugged in
        restored, seen = link.wait_for(lambda e: isinstance(e, LinkRestored), TIMEOUT)
        assert restored is not None, seen
        assert not any(isinstance(e, LinkLost) for e in seen)
        assert link.stats["links_lost"] == 1 and link.stats["open_failures"] >= 1
    finally:
        link.stop()
        emulator.stop()
        os.rmdir(board_dir)
