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


def heartbeats(first_seq: int, count: int) -> bytes:
    """`count` HEARTBEAT frames a second apart in board time, as an idle board sends them."""
    return b"".join(
        wire.encode_frame(wire.HEARTBEAT, (first_seq + i) & 0xFF, wire.pack_heartbeat(i * 1000, 1000, 0, 0, 0, 0))
        for i in range(count)
    )


def scripted_board() -> ScriptedPort:
    port = ScriptedPort()
    port.expect(wire.HOST_HELLO, reply=[(wire.HELLO, wire.pack_hello(9, 9, 0, 0, 0, 30, 1000))])
    port.expect(wire.GET_BOARD, reply=[(wire.BOARD_DUMP, wire.pack_dump(0, 9, 9, bytes(81), 0, b""))])
    return port


HOUR = 3_600  # an idle board's heartbeats in an hour, one a second


def test_an_idle_boards_heartbeats_leave_nothing_behind_in_a_service_that_reads_on_event() -> None:
    """The service takes events from on_event and never reads the queue: it used to keep every one of them
    (about 10 MB a day from heartbeats alone). Now a link with on_event keeps no queue at all, so what an
    hour leaves behind (nothing) is what a day leaves; benchmarks/board_link.py runs the full day."""
    port = scripted_board()
    beats = threading.Event()
    seen = [0]

    def on_event(event: Event) -> None:
        if isinstance(event, Heartbeat):
            seen[0] += 1
            if seen[0] == HOUR:
                beats.set()

    # The link's clock stands still: an hour of the board's time passes in a moment of the test's.
    with BoardLink("scripted", on_event=on_event, opener=lambda url: port, clock=lambda: 0.0) as link:
        assert port.wait_done(TIMEOUT)
        port.send_raw(heartbeats(2, HOUR))
        assert beats.wait(60), seen
        assert link.events.qsize() == 0 and link.stats["events_dropped"] == 0
        assert link.stats["lost_frames"] == 0 and link.stats["frames"] == HOUR + 2
    port.assert_done()


def test_a_flood_into_a_queue_nobody_reads_stays_bounded_and_counts_what_it_dropped() -> None:
    """`referee board monitor` reads the queue; a reader that stalls under a flood holds at most queue_size
    events (it used to hold all of them: about 700 MB a minute), the newest, and says how many it dropped."""
    port = scripted_board()
    flood = 5_000
    pong = threading.Event()
    on_event = lambda event: pong.set() if isinstance(event, Pong) else None  # noqa: E731
    with BoardLink("scripted", on_event=on_event, opener=lambda url: port, queue_size=500, clock=lambda: 0.0) as link:
        assert port.wait_done(TIMEOUT)
        port.send_raw(heartbeats(2, flood) + wire.encode_frame(wire.PONG, (flood + 2) & 0xFF, wire.pack_pong(7, 1)))
        assert pong.wait(60)
        assert link.events.qsize() == 500
        assert link.stats["events_dropped"] == 2 + flood + 1 - 500  # HELLO, the dump, the flood, the PONG
        kept = [link.get(0) for _ in range(500)]
        assert isinstance(kept[-1], Pong) and all(isinstance(e, Heartbeat) for e in kept[:-1])
    port.assert_done()


def test_a_link_without_a_queue_says_so_when_asked_for_events() -> None:
    link = BoardLink("scripted", on_event=lambda event: None, opener=lambda url: ScriptedPort())
    with link, pytest.raises(RuntimeError, match="keeps no event queue"):
        link.get(0)


def test_a_refused_board_is_tried_again_seldom_not_20_times_a_second() -> None:
    """A HELLO announcing a heartbeat of 0 ms used to make the link reconnect about 20 times a second."""
    opens: list[ScriptedPort] = []
    second = threading.Event()

    def opener(url: str) -> ScriptedPort:
        port = ScriptedPort()
        port.expect(wire.HOST_HELLO, reply=[(wire.HELLO, wire.pack_hello(15, 15, 0, 4, 0, 30, 0))])
        opens.append(port)
        if len(opens) > 1:
            second.set()
        return port

    with BoardLink("/dev/ttyACM9", opener=opener, reconnect_s=0.01) as link:
        lost, seen = link.wait_for(lambda e: isinstance(e, LinkLost), TIMEOUT)
        assert lost is not None, seen
        assert lost.reason == "board refused: its HELLO says heartbeat 0 ms is outside 20 to 60000 ms"
        assert not second.wait(1.0)  # at most once in REFUSED_RETRY_S (5 s), whatever reconnect_s says
        assert len(opens) == 1 and link.stats["boards_refused"] == 1


def test_emulator_url_is_a_pyserial_port_and_its_board_outlives_a_reopen() -> None:
    """emulator:// is registered with pyserial (serial_for_url), not special-cased in the link; closing and
    opening the port object again reaches the same board, as with a real one that stays powered."""
    from firmware_bridge.urlhandler import register

    register()
    register()  # idempotent
    assert serial.protocol_handler_packages.count("firmware_bridge.urlhandler") == 1
    port = serial.serial_for_url("emulator://9x9?coded=1&seed=5", timeout=0.05, do_not_open=True)
    emulator = port.emulator
    try:
        assert emulator is not None and not port.is_open
        port.open()
        emulator.place("E5", "Q")
        assert emulator.wait_settled(TIMEOUT)
        port.close()
        port.close()  # idempotent
        port.open()
        port.reset_input_buffer()
        port.write(wire.encode_frame(wire.GET_BOARD, 0))
        reader = wire.FrameReader()
        dumps: list[bytes] = []
        for _ in range(200):
            dumps += [p for t, _, p in reader.feed(port.read(512)) if t == wire.BOARD_DUMP]
            if dumps:
                break
        assert dumps and wire.unpack_dump(dumps[0])[3][40] != 0  # E5 still holds the Q
    finally:
        port.close()
        emulator.stop()
    with pytest.raises(ValueError, match="unknown emulator option 'colour'"):
        serial.serial_for_url("emulator://9x9?colour=red", do_not_open=True)


def test_a_link_to_an_unknown_kind_of_url_fails_at_once_saying_so() -> None:
    from firmware_bridge.errors import PortURLError
    from firmware_bridge.link import check_url

    with pytest.raises(PortURLError, match="protocol 'http' not known"):
        BoardLink("http://board.local")
    assert check_url("http://board.local") is False
    assert check_url("emulator://9x9") and check_url("loop://")
    with pytest.raises(PortURLError, match="does not fit the protocol"):
        check_url("emulator://99x99")


def test_a_closed_link_closes_once_and_cannot_be_restarted() -> None:
    port = scripted_board()
    link = BoardLink("scripted", opener=lambda url: port)
    with link:
        assert port.wait_done(TIMEOUT)
    link.close()
    link.stop()
    assert port.closed
    with pytest.raises(RuntimeError, match="is closed"):
        link.start()
