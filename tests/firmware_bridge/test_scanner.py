"""The firmware core under CPython with a hand-driven HAL: debounce edges, dumps that wait for bouncing
inputs, report flags, dropped frames and the heartbeat's scan rate."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import wire
from firmware_bridge.firmware.scanner import Firmware


class Hal:
    """Time and readings set by the test; frames written are kept, or refused while `full`."""

    def __init__(self, n: int) -> None:
        self.t = 0
        self.codes = bytearray(n)
        self.inbox = b""
        self.frames: list[tuple[int, int, bytes]] = []
        self.reader = wire.FrameReader()
        self.full = False

    def ticks_ms(self) -> int:
        return self.t

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def scan(self, buf: bytearray) -> None:
        buf[:] = self.codes

    def read(self) -> bytes | None:
        data, self.inbox = self.inbox, b""
        return data or None

    def write(self, data: bytes) -> bool:
        if self.full:
            return False
        self.frames += self.reader.feed(data)
        return True

    def run(self, fw: Firmware, ms: int) -> None:
        for _ in range(ms):
            self.t += 1
            fw.step()

    def of(self, msg_type: int) -> list[bytes]:
        return [p for t, _, p in self.frames if t == msg_type]


def board(**kwargs: object) -> tuple[Hal, Firmware]:
    hal = Hal(9 + 2)
    fw = Firmware(hal, 3, 3, coded=True, buttons=2, **kwargs)  # type: ignore[arg-type]
    return hal, fw


def test_boots_with_hello_and_takes_the_board_as_it_lies() -> None:
    hal = Hal(9)
    hal.codes[4] = 5  # a tile already on B2 at power-up: part of the picture, not a change
    fw = Firmware(hal, 3, 3, coded=True)
    hal.run(fw, 100)
    assert [t for t, _, _ in hal.frames] == [wire.HELLO]
    assert fw.stable[4] == 5


def test_change_counts_only_after_holding_for_the_debounce_time() -> None:
    hal, fw = board(debounce_ms=30)
    hal.codes[0] = 3
    hal.run(fw, 30)  # first seen at t=1; at t=30 it has held for 29 ms
    assert hal.of(wire.SQUARE_CHANGED) == []
    hal.run(fw, 1)  # at t=31: 30 ms, and the event carries t=1, when it first read so
    assert [wire.unpack_square(p) for p in hal.of(wire.SQUARE_CHANGED)] == [(0, 3, 1)]
    # A reading that goes away before the debounce time is never reported, however often it comes back.
    for _ in range(5):
        hal.codes[1] = 1
        hal.run(fw, 20)
        hal.codes[1] = 0
        hal.run(fw, 2)
    assert len(hal.of(wire.SQUARE_CHANGED)) == 1


def test_get_board_waits_for_a_bouncing_square_but_not_for_ever() -> None:
    hal, fw = board(debounce_ms=30)
    hal.codes[2] = 7
    hal.run(fw, 5)
    hal.inbox = wire.encode_frame(wire.GET_BOARD, 0, b"")
    hal.run(fw, 10)
    assert hal.of(wire.BOARD_DUMP) == []  # C1 is still settling
    hal.run(fw, 30)
    dumps = [wire.unpack_dump(p) for p in hal.of(wire.BOARD_DUMP)]
    assert len(dumps) == 1 and dumps[0][3][2] == 7  # the dump came right after the change, and shows it
    seq_change = next(s for t, s, _ in hal.frames if t == wire.SQUARE_CHANGED)
    seq_dump = next(s for t, s, _ in hal.frames if t == wire.BOARD_DUMP)
    assert seq_dump == seq_change + 1

    # Someone fiddles without pause: the answer comes after 3 debounce times anyway.
    hal.inbox = wire.encode_frame(wire.GET_BOARD, 1, b"")
    for k in range(60):
        hal.codes[3] = k % 2
        hal.run(fw, 2)
    assert len(hal.of(wire.BOARD_DUMP)) == 2


def test_report_flags_silence_what_the_host_does_not_want() -> None:
    hal, fw = board(debounce_ms=10)
    hal.inbox = wire.encode_frame(wire.SET_CONFIG, 0, wire.pack_set_config(10, 1000, wire.REPORT_BUTTONS))
    hal.run(fw, 2)
    assert hal.of(wire.ACK) == [wire.pack_ack(wire.SET_CONFIG, 0)]
    hal.codes[0] = 1  # a square: not reported
    hal.codes[9 + 1] = 1  # button 1: reported
    hal.run(fw, 20)
    assert hal.of(wire.SQUARE_CHANGED) == []
    assert [wire.unpack_button(p)[:2] for p in hal.of(wire.BUTTON)] == [(1, 1)]
    hal.inbox = wire.encode_frame(wire.GET_BOARD, 1, b"")
    hal.run(fw, 2)
    dump = wire.unpack_dump(hal.of(wire.BOARD_DUMP)[0])
    assert dump[3][0] == 1 and dump[4] == 0b10  # the picture still has everything


def test_dropped_frames_are_counted_and_leave_a_sequence_gap() -> None:
    hal, fw = board(debounce_ms=10, heartbeat_ms=100)
    hal.full = True
    hal.codes[5] = 2
    hal.run(fw, 20)
    hal.full = False
    hal.run(fw, 100)
    beats = [wire.unpack_heartbeat(p) for p in hal.of(wire.HEARTBEAT)]
    assert beats and beats[-1][5] == 1  # tx_drops
    seqs = [s for _, s, _ in hal.frames]
    assert seqs == [0, 2]  # HELLO, then the heartbeat: seq 1 (the SQUARE_CHANGED) was lost


def test_heartbeat_reports_the_scan_rate() -> None:
    hal, fw = board(heartbeat_ms=200)
    hal.run(fw, 1000)
    beats = [wire.unpack_heartbeat(p) for p in hal.of(wire.HEARTBEAT)]
    assert [b[0] for b in beats] == [200, 400, 600, 800, 1000]
    assert all(b[1] == 1000 for b in beats)  # one scan per ms


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=40),
            st.builds(
                lambda t, s, p: wire.encode_frame(t, s, p),
                st.sampled_from([*wire.NAMES, 0x00, 0x7F, 0xFF]),
                st.integers(0, 255),
                st.binary(max_size=12),
            ),
        ),
        max_size=10,
    )
)
def test_whatever_the_host_sends_the_board_keeps_working(chunks: list[bytes]) -> None:
    """Garbage, and well-framed commands with any payload: the firmware never raises, answers what it
    can (or NAKs), and still answers the next PING."""
    hal, fw = board()
    for chunk in chunks:
        hal.inbox = chunk
        hal.run(fw, 1)
    hal.inbox = wire.encode_frame(wire.PING, 9, wire.pack_ping(77))
    hal.run(fw, 1)
    assert wire.pack_pong(77, fw.uptime) in hal.of(wire.PONG)
