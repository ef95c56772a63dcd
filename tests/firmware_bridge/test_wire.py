"""The frame codec: every message round-trips, and no byte string can make the reader raise or lose
the next intact frame."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import wire

u8 = st.integers(0, 0xFF)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)


def test_crc_matches_the_published_check_value() -> None:
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16_table(b"123456789") == 0x29B1


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(st.binary(max_size=600))
def test_table_crc_equals_c_crc(data: bytes) -> None:
    # The Pico computes by table, the host with binascii: they must agree on every input.
    assert wire.crc16_table(data) == binascii.crc_hqx(data, 0xFFFF)


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(st.binary(max_size=1200))
def test_cobs_round_trips_and_removes_zeros(data: bytes) -> None:
    encoded = wire.cobs_encode(data)
    assert b"\x00" not in encoded
    assert wire.cobs_decode(encoded) == data
    assert len(encoded) <= len(data) + len(data) // 254 + 1


def test_cobs_known_vectors() -> None:
    # From the COBS paper / Wikipedia examples.
    assert wire.cobs_encode(b"\x00") == b"\x01\x01"
    assert wire.cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33"
    assert wire.cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255)) + b"\x01"


def test_cobs_decode_refuses_blocks_past_the_end() -> None:
    with pytest.raises(wire.WireError, match="past the end"):
        wire.cobs_decode(b"\x05\x01")


MESSAGES = st.one_of(
    st.tuples(
        st.just(wire.HELLO),
        st.builds(lambda *a: wire.pack_hello(*a), st.integers(1, 26), st.integers(1, 26), u8, u8, u8, u16, u16),
    ),
    st.tuples(st.just(wire.SQUARE_CHANGED), st.builds(wire.pack_square, u16, u8, u32)),
    st.tuples(st.just(wire.BUTTON), st.builds(wire.pack_button, u8, st.booleans(), u32)),
    st.tuples(st.just(wire.DICE_TRAY), st.builds(wire.pack_tray, u8, st.integers(0, 40), st.integers(0, 5), u32)),
    st.tuples(st.just(wire.HEARTBEAT), st.builds(wire.pack_heartbeat, u32, u16, u16, u16, u16, u16)),
    st.tuples(st.just(wire.ACK), st.builds(wire.pack_ack, u8, u8)),
    st.tuples(st.just(wire.NAK), st.builds(wire.pack_nak, u8, u8, u8)),
    st.tuples(st.just(wire.PONG), st.builds(wire.pack_pong, u32, u32)),
    st.tuples(st.just(wire.HOST_HELLO), st.builds(wire.pack_host_hello, u8)),
    st.tuples(st.just(wire.GET_BOARD), st.just(b"")),
    st.tuples(st.just(wire.SET_CONFIG), st.builds(wire.pack_set_config, u16, u16, u8)),
    st.tuples(st.just(wire.PING), st.builds(wire.pack_ping, u32)),
)

UNPACK = {
    wire.HELLO: wire.unpack_hello,
    wire.SQUARE_CHANGED: wire.unpack_square,
    wire.BUTTON: wire.unpack_button,
    wire.DICE_TRAY: wire.unpack_tray,
    wire.HEARTBEAT: wire.unpack_heartbeat,
    wire.ACK: wire.unpack_ack,
    wire.NAK: wire.unpack_nak,
    wire.PONG: wire.unpack_pong,
    wire.HOST_HELLO: wire.unpack_host_hello,
    wire.SET_CONFIG: wire.unpack_set_config,
    wire.PING: wire.unpack_ping,
}

PACK = {
    wire.HELLO: lambda f: wire.pack_hello(*f[1:]),  # version is not a parameter: it is the protocol's
    wire.SQUARE_CHANGED: lambda f: wire.pack_square(*f),
    wire.BUTTON: lambda f: wire.pack_button(*f),
    wire.DICE_TRAY: lambda f: wire.pack_tray(*f),
    wire.HEARTBEAT: lambda f: wire.pack_heartbeat(*f),
    wire.ACK: lambda f: wire.pack_ack(*f),
    wire.NAK: lambda f: wire.pack_nak(*f),
    wire.PONG: lambda f: wire.pack_pong(*f),
    wire.HOST_HELLO: lambda f: wire.pack_host_hello(*f),
    wire.SET_CONFIG: lambda f: wire.pack_set_config(*f),
    wire.PING: lambda f: wire.pack_ping(*f),
}


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(MESSAGES, u8)
def test_every_message_round_trips_through_a_frame(message: tuple[int, bytes], seq: int) -> None:
    msg_type, payload = message
    frame = wire.encode_frame(msg_type, seq, payload)
    assert frame[0] == 0 and frame[-1] == 0 and b"\x00" not in frame[1:-1]
    assert wire.decode_frame(frame[1:-1]) == (msg_type, seq, payload)
    if msg_type in UNPACK:
        fields = UNPACK[msg_type](payload)
        assert PACK[msg_type](fields) == payload


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(st.integers(1, 16), st.integers(1, 16), u32, u16, st.binary(max_size=12), st.data())
def test_board_dump_round_trips(
    width: int, height: int, ms: int, buttons: int, slots: bytes, data: st.DataObject
) -> None:
    codes = data.draw(st.binary(min_size=width * height, max_size=width * height))
    payload = wire.pack_dump(ms, width, height, codes, buttons, slots)
    assert wire.unpack_dump(payload) == (ms, width, height, codes, buttons, slots)
    assert wire.decode_frame(wire.encode_frame(wire.BOARD_DUMP, 9, payload)[1:-1])[2] == payload


def test_a_full_15x15_dump_fits_a_frame() -> None:
    payload = wire.pack_dump(1, 15, 15, bytes(range(225)), 0xF, bytes(7))
    assert len(payload) <= wire.MAX_PAYLOAD


@pytest.mark.parametrize(
    ("unpack", "payload", "match"),
    [
        (wire.unpack_square, b"\x00\x01", "wrong payload length"),
        (wire.unpack_button, wire.pack_button(1, True, 5)[:1] + b"\x02" + b"\x00" * 4, "neither 0 nor 1"),
        (wire.unpack_tray, bytes([0, 1, 9, 0, 0, 0, 0]), "face out of range"),
        (wire.unpack_dump, wire.pack_dump(0, 2, 2, b"\x00" * 4, 0, b"")[:-2], "too short"),
        (wire.unpack_dump, wire.pack_dump(0, 2, 2, b"\x00" * 4, 0, b"\x01"), None),
    ],
)
def test_payloads_that_break_their_layout_are_refused(unpack, payload, match) -> None:  # type: ignore[no-untyped-def]
    if match is None:
        assert unpack(payload)[5] == b"\x01"
        with pytest.raises(wire.WireError, match="tray slots"):
            unpack(payload + b"\x00")
        return
    with pytest.raises(wire.WireError, match=match):
        unpack(payload)


# ---- the reader: nothing raises, the next intact frame comes through ----

FRAMES = st.lists(st.tuples(MESSAGES, u8), min_size=1, max_size=6).map(
    lambda ms: [wire.encode_frame(t, s, p) for (t, p), s in ms]
)


def frames_of(stream: bytes, chunk: int = 0) -> tuple[list[tuple[int, int, bytes]], wire.FrameReader]:
    reader = wire.FrameReader()
    out: list[tuple[int, int, bytes]] = []
    if chunk <= 0:
        out = reader.feed(stream)
    else:
        for i in range(0, len(stream), chunk):
            out += reader.feed(stream[i : i + chunk])
    return out, reader


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(FRAMES, st.integers(0, 9))
def test_clean_stream_delivers_every_frame_in_any_chunking(frames: list[bytes], chunk: int) -> None:
    got, reader = frames_of(b"".join(frames), chunk)
    assert got == [wire.decode_frame(f[1:-1]) for f in frames]
    assert reader.errors() == 0


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(st.binary(max_size=2000), st.integers(0, 64))
def test_any_bytes_never_raise(data: bytes, chunk: int) -> None:
    got, _reader = frames_of(data, chunk)
    for msg_type, seq, payload in got:  # whatever slipped through is at least a well-formed frame
        assert 0 <= msg_type <= 255 and 0 <= seq <= 255 and len(payload) <= wire.MAX_FRAME


MARK = wire.encode_frame(wire.PONG, 77, wire.pack_pong(0xC0FFEE, 42))


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(st.binary(max_size=3000), st.integers(0, 50))
def test_garbage_then_an_intact_frame_delivers_that_frame(garbage: bytes, chunk: int) -> None:
    got, _ = frames_of(garbage + MARK, chunk)
    assert got and got[-1] == (wire.PONG, 77, wire.pack_pong(0xC0FFEE, 42))


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(FRAMES, st.data())
def test_truncated_frame_is_dropped_and_the_next_is_delivered(frames: list[bytes], data: st.DataObject) -> None:
    victim = data.draw(st.integers(0, len(frames) - 1))
    cut = data.draw(st.integers(1, len(frames[victim]) - 1))
    stream = b"".join(frames[:victim]) + frames[victim][:cut] + b"".join(frames[victim + 1 :]) + MARK
    got, _ = frames_of(stream)
    assert got[-1] == (wire.PONG, 77, wire.pack_pong(0xC0FFEE, 42))
    intact = [wire.decode_frame(f[1:-1]) for f in frames[:victim]]
    assert got[: len(intact)] == intact


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(FRAMES, st.data())
def test_bit_flip_loses_at_most_its_frame_and_never_fakes_one(frames: list[bytes], data: st.DataObject) -> None:
    stream = bytearray(b"".join(frames) + MARK)
    limit = len(stream) - len(MARK)
    pos = data.draw(st.integers(0, limit - 1))
    bit = data.draw(st.integers(0, 7))
    stream[pos] ^= 1 << bit
    got, _reader = frames_of(bytes(stream))
    assert got[-1] == (wire.PONG, 77, wire.pack_pong(0xC0FFEE, 42))
    originals = [wire.decode_frame(f[1:-1]) for f in frames]
    # CRC-16 catches every single-bit error: what comes out is a subsequence of what went in.
    rest = iter(originals)
    assert all(any(frame == o for o in rest) for frame in got[:-1])
    assert len(got) - 1 >= len(frames) - 2  # a flipped delimiter can at worst merge two frames


@settings(deadline=None)  # a shared machine's pauses are not the code's
@given(FRAMES, st.data())
def test_inserted_bytes_lose_at_most_their_frame(frames: list[bytes], data: st.DataObject) -> None:
    stream = b"".join(frames)
    pos = data.draw(st.integers(0, len(stream)))
    noise = data.draw(st.binary(min_size=1, max_size=20))
    got, _ = frames_of(stream[:pos] + noise + stream[pos:] + MARK)
    assert got[-1] == (wire.PONG, 77, wire.pack_pong(0xC0FFEE, 42))


@settings(max_examples=30, deadline=None)
@given(st.integers(wire.MAX_ENCODED + 1, 4 * wire.MAX_ENCODED), st.integers(1, 255))
def test_endless_frame_without_delimiter_is_dropped_in_bounded_memory(n: int, fill: int) -> None:
    reader = wire.FrameReader()
    for _ in range(10):
        assert reader.feed(bytes([fill]) * n) == []
        assert len(reader._buf) <= wire.MAX_ENCODED
    assert reader.too_long >= 1
    assert reader.feed(MARK)[-1][0] == wire.PONG


def test_reader_counts_each_kind_of_corruption() -> None:
    reader = wire.FrameReader()
    good = wire.encode_frame(wire.PING, 1, wire.pack_ping(5))
    bad_crc = bytearray(good)
    bad_crc[3] ^= 0x40
    assert reader.feed(bytes(bad_crc) + b"\x00\x05\x01\x00" + b"\x00\x02\x01\x00" + good) == [
        (wire.PING, 1, wire.pack_ping(5))
    ]
    assert (reader.crc_errors, reader.cobs_errors, reader.short, reader.frames) == (1, 1, 1, 1)
    assert reader.dropped_bytes > 0
