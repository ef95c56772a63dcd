"""LinkCore without ports: corrupt lines never raise and never leave a wrong picture; every protocol
failure is counted and reported in words."""

from __future__ import annotations

import logging
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codes import default_tile_codes
from firmware_bridge.core import DOWN, SYNC_LIMIT_S, UP, LinkCore
from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.errors import LinkConfigError
from firmware_bridge.events import BoardDump, CommandRefused, Event, Heartbeat, Hello, LinkLost, Pong, SquareChanged
from firmware_bridge.firmware import wire


def run(board: EmulatedBoard, core: LinkCore, ms: int, mangle=None) -> list[Event]:  # type: ignore[no-untyped-def]
    """Step board and core together, 1 ms at a time, passing board bytes through `mangle`."""
    events: list[Event] = []
    for _ in range(ms):
        board.advance(1)
        board.from_host(core.take_outgoing())
        data = board.to_host()
        if mangle is not None:
            data = mangle(data)
        now = board.now_ms / 1000
        if data:
            events += core.data_received(data, now)
        events += core.tick(now)
    return events


def connected(**kwargs: object) -> tuple[EmulatedBoard, LinkCore]:
    board = EmulatedBoard(**kwargs)  # type: ignore[arg-type]
    core = LinkCore()
    core.connection_made(0.0)
    run(board, core, 50)
    assert core.state == UP
    return board, core


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.floats(0.001, 0.2))
def test_noisy_line_never_raises_and_the_picture_ends_right(seed: int, rate: float) -> None:
    """Bytes flipped, dropped and invented at random while tiles go down: once the line is clean again
    the link's picture equals the board, because every lost frame triggers a resynchronisation."""
    board, core = connected(coded=True, seed=seed % 1000, width=9, height=9)
    rng = random.Random(seed)

    def mangle(data: bytes) -> bytes:
        out = bytearray()
        for b in data:
            r = rng.random()
            if r < rate / 3:
                continue  # dropped
            if r < 2 * rate / 3:
                b ^= 1 << rng.randrange(8)  # flipped
            out.append(b)
            if rng.random() < rate / 3:
                out += rng.randbytes(rng.randrange(1, 5))  # invented
        return bytes(out)

    letters = "ABCDEZ?"
    for k in range(12):
        name = f"{'ABCDEFGHI'[rng.randrange(9)]}{rng.randrange(1, 10)}"
        if name in board.occupied():
            board.lift(name)
        else:
            board.place(name, letters[k % len(letters)])
        run(board, core, rng.randrange(5, 60), mangle)
    run(board, core, 1500)  # clean line: a heartbeat exposes any gap, the dump repairs it
    expected = {name: core.tile_codes.letter(code) for name, code in board.occupied().items()}
    assert dict(core.picture().squares) == expected
    assert core.state == UP


def test_sequence_gap_asks_for_the_board_and_reports_what_was_missed() -> None:
    board, core = connected(seed=4)
    board.place("C3")
    board.advance(60)
    board.to_host()  # the SQUARE_CHANGED frame is lost on the way
    events = run(board, core, 1100)  # the next heartbeat shows the gap
    assert core.stats["seq_gaps"] == 1 and core.stats["resyncs"] == 1
    changes = [e for e in events if isinstance(e, SquareChanged)]
    assert [(c.square, c.occupied, c.resync) for c in changes] == [("C3", True, True)]
    assert any(isinstance(e, BoardDump) for e in events)


def test_refused_command_arrives_as_words(caplog: pytest.LogCaptureFixture) -> None:
    board, core = connected()
    core.command(wire.SET_CONFIG, wire.pack_set_config(5000, 1000, 7))
    core.command(0x70)
    core.ping(0x1234)
    with caplog.at_level(logging.WARNING, "firmware_bridge.link"):
        events = run(board, core, 10)
    refused = [e for e in events if isinstance(e, CommandRefused)]
    assert [(r.command, r.reason) for r in refused] == [
        ("SET_CONFIG", "value out of range"),
        ("0x70", "unknown message type"),
    ]
    assert "board refused SET_CONFIG" in caplog.text
    assert [e.token for e in events if isinstance(e, Pong)] == [0x1234]


UNUSED = next(c for c in range(1, 64) if default_tile_codes().letter(c) is None)


def test_frames_that_pass_crc_but_make_no_sense_are_counted_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    board, core = connected(width=9, height=9, coded=True)
    seq = (core._rx_seq or 0) + 1
    bad = [
        (wire.SQUARE_CHANGED, wire.pack_square(500, 1, 5)),  # off the board
        (wire.SQUARE_CHANGED, b"\x01"),  # wrong length
        (0x33, b""),  # unknown type
        (wire.BOARD_DUMP, wire.pack_dump(1, 15, 15, bytes(225), 0, b"")),  # not the board's size
        (wire.SQUARE_CHANGED, wire.pack_square(3, UNUSED, 7)),  # a code no tile carries, either way up
    ]
    stream = b"".join(wire.encode_frame(t, seq + i, p) for i, (t, p) in enumerate(bad))
    with caplog.at_level(logging.WARNING, "firmware_bridge.link"):
        events = core.data_received(stream, 1.0)
    assert core.stats["bad_payloads"] == 3
    assert core.stats["unknown_types"] == 1
    assert core.stats["unknown_codes"] == 1
    odd = [e for e in events if isinstance(e, SquareChanged)]
    assert [(e.square, e.occupied, e.letter) for e in odd] == [("D1", True, None)]
    assert "square index 500 is off a 81-square board" in caplog.text
    assert "bad_payloads so far: 2" not in caplog.text  # a burst is logged once, then every 100th
    run(board, core, 30)  # the resync it asked for puts the picture right again
    assert dict(core.picture().squares) == {}


def test_board_of_another_protocol_version_is_refused() -> None:
    core = LinkCore()
    core.connection_made(0.0)
    hello = bytearray(wire.pack_hello(15, 15, 0, 0, 0, 30, 1000))
    hello[0] = 2
    events = core.data_received(wire.encode_frame(wire.HELLO, 0, bytes(hello)), 0.1)
    assert not any(isinstance(e, Hello) for e in events)
    assert [e.reason for e in events if isinstance(e, LinkLost)] == [
        "board refused: its HELLO says the board speaks protocol v2, this host v1"
    ]
    assert core.state == DOWN and core.refused is not None


def test_handshake_retries_and_a_lost_dump_is_asked_for_again() -> None:
    board = EmulatedBoard(seed=8)
    core = LinkCore()
    core.connection_made(0.0)
    core.take_outgoing()  # our HOST_HELLO is lost; the board's boot HELLO was sent before we listened
    board.to_host()
    run(board, core, 600)  # HOST_HELLO again after 0.5 s
    assert core.state == UP

    board.place("A1")
    board.advance(60)
    board.to_host()  # a SQUARE_CHANGED lost ...
    events = run(board, core, 1010, mangle=lambda d: b"" if wire.BOARD_DUMP in d[:3] else d)
    assert core.stats["resyncs"] == 1
    events += run(board, core, 1100)  # ... and the first dump too: GET_BOARD is repeated
    assert [(e.square, e.resync) for e in events if isinstance(e, SquareChanged)] == [("A1", True)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_any_bytes_into_a_live_link_never_raise(chunks: list[bytes]) -> None:
    core = LinkCore()
    core.connection_made(0.0)
    hello = wire.encode_frame(wire.HELLO, 0, wire.pack_hello(9, 9, wire.CAP_CODED, 2, 1, 30, 1000))
    dump = wire.encode_frame(wire.BOARD_DUMP, 1, wire.pack_dump(0, 9, 9, bytes(81), 0, b"\x00"))
    core.data_received(hello + dump, 0.01)
    assert core.state == UP
    for i, chunk in enumerate(chunks):
        core.data_received(chunk, 0.02 + i / 1000)
        core.tick(0.02 + i / 1000)
    # Whatever came, the link still takes the next intact frame.
    mark = wire.encode_frame(wire.PONG, 200, wire.pack_pong(99, 1))
    assert Pong(99, 1) in core.data_received(mark, 0.1)


def test_timing_the_board_would_refuse_is_refused_up_front() -> None:
    with pytest.raises(LinkConfigError, match="heartbeat period 10 ms: the board accepts 20 to 60000 ms"):
        LinkCore(heartbeat_ms=10)
    with pytest.raises(LinkConfigError, match="debounce time 0 ms"):
        LinkCore(debounce_ms=0)


def test_a_refused_set_config_leaves_the_link_watching_the_boards_own_heartbeat() -> None:
    board = EmulatedBoard(seed=3, heartbeat_ms=1000)
    core = LinkCore(heartbeat_ms=100)
    core.connection_made(0.0)
    board.firmware.heartbeat_ms = 1000

    # The board's firmware is older and refuses SET_CONFIG (simulated by a NAK in place of its ACK).
    events: list[Event] = []
    for _ in range(50):
        board.advance(1)
        out = core.take_outgoing()
        for t, s, p in wire.FrameReader().feed(out):
            if t == wire.SET_CONFIG:
                events += core.data_received(
                    wire.encode_frame(wire.NAK, board.firmware.seq, wire.pack_nak(t, s, wire.NAK_UNKNOWN_TYPE)), 0.0
                )
                board.firmware.seq = (board.firmware.seq + 1) & 0xFF
            else:
                board.from_host(wire.encode_frame(t, s, p))
        data = board.to_host()
        if data:
            events += core.data_received(data, board.now_ms / 1000)
    assert any(isinstance(e, CommandRefused) and e.command == "SET_CONFIG" for e in events)
    assert core.hello is not None and core.hello.heartbeat_ms == 1000
    assert core.silence_limit_s == 2.5


def hello_frame(seq: int, width: int = 15, height: int = 15, buttons: int = 4, slots: int = 0,
                debounce_ms: int = 30, heartbeat_ms: int = 1000) -> bytes:
    return wire.encode_frame(
        wire.HELLO, seq, wire.pack_hello(width, height, 0, buttons, slots, debounce_ms, heartbeat_ms)
    )


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"heartbeat_ms": 0}, "heartbeat 0 ms is outside 20 to 60000 ms"),
        ({"heartbeat_ms": 65535}, "heartbeat 65535 ms is outside 20 to 60000 ms"),
        ({"debounce_ms": 0}, "debounce 0 ms is outside 1 to 1000 ms"),
        ({"width": 0}, "width 0 is outside 1 to 26 columns"),
        ({"width": 27, "height": 9}, "width 27 is outside 1 to 26 columns"),
        ({"height": 0}, "height 0 is outside 1 to 26 rows"),
        ({"buttons": 17}, "buttons 17 is outside 0 to 16"),
        ({"slots": 21, "width": 22, "height": 22}, "a 22x22 board with 21 tray slots needs a 514-byte dump"),
        ({"slots": 22}, "slots 22 is outside 0 to 21 (a tray holds each die once and a slot's 7 switches name dice"),
    ],
)
def test_a_hello_outside_the_protocols_ranges_is_a_reported_refusal(fields: dict[str, int], said: str) -> None:
    """A heartbeat of 0 ms used to make the host declare the board silent at once and reconnect 20 times a
    second; another size or too many buttons left the link waiting for ever. Now: refused, said once."""
    core = LinkCore()
    core.connection_made(0.0)
    events = core.data_received(hello_frame(0, **fields), 0.01)
    lost = [e for e in events if isinstance(e, LinkLost)]
    assert len(lost) == 1 and said in lost[0].reason and lost[0].reason.startswith("board refused: its HELLO says")
    assert not any(isinstance(e, Hello) for e in events)
    assert core.state == DOWN and core.refused is not None and core.stats["boards_refused"] == 1
    assert core.take_outgoing() == b""  # no GET_BOARD to a board we do not serve
    core.connection_made(5.0)  # tried again later: refused again, but said only once per outage
    assert core.data_received(hello_frame(0, **fields), 5.01) == []
    assert core.stats["boards_refused"] == 2


def test_a_dump_that_contradicts_the_hello_is_a_refusal_not_a_wait_for_ever() -> None:
    core = LinkCore()
    core.connection_made(0.0)
    core.data_received(hello_frame(0, 3, 3), 0.01)
    dump = wire.encode_frame(wire.BOARD_DUMP, 1, wire.pack_dump(5, 15, 15, bytes(225), 0, b""))
    events = core.data_received(dump, 0.02)
    assert [e.reason for e in events if isinstance(e, LinkLost)] == [
        "board refused: it sends the dump of a 15x15 board after a HELLO of 3x3"
    ]
    assert core.state == DOWN


def test_a_board_that_talks_but_never_completes_the_handshake_is_lost() -> None:
    """Heartbeats keep the silence check quiet; the handshake has its own limit."""
    core = LinkCore()
    core.connection_made(0.0)
    core.data_received(hello_frame(0), 0.01)
    events: list[Event] = []
    t = 0.0
    for seq in range(1, 40):  # heartbeats every second, but never the dump it was asked for
        t = seq * 1.0
        beat = wire.encode_frame(wire.HEARTBEAT, seq, wire.pack_heartbeat(int(t * 1000), 1000, 0, 0, 0, 0))
        events += core.data_received(beat, t)
        events += core.tick(t)
        if core.state == DOWN:
            break
    assert [e.reason for e in events if isinstance(e, LinkLost)] == [
        f"no BOARD_DUMP from the board within {SYNC_LIMIT_S:.0f} s, though it sends frames"
    ]
    assert SYNC_LIMIT_S < t <= SYNC_LIMIT_S + 1.0


def test_a_repeated_frame_is_delivered_once_and_not_counted_as_255_lost() -> None:
    _, core = connected(width=9, height=9, coded=True)
    seq = ((core._rx_seq or 0) + 1) & 0xFF
    change = wire.encode_frame(wire.SQUARE_CHANGED, seq, wire.pack_square(40, 5, 1234))
    beat = wire.encode_frame(wire.HEARTBEAT, (seq + 1) & 0xFF, wire.pack_heartbeat(2000, 1000, 0, 0, 0, 0))
    events = core.data_received(change + change + beat + beat, 1.0)
    assert [str(e) for e in events if isinstance(e, SquareChanged)] == ["E5 E @1234ms"]
    assert len([e for e in events if isinstance(e, Heartbeat)]) == 1
    assert core.stats["duplicates"] == 2
    assert core.stats["lost_frames"] == 0 and core.stats["seq_gaps"] == 0 and core.stats["resyncs"] == 0
