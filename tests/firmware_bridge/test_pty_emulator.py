"""The pty emulator as a device: a stable path, raw bytes both ways, a node that vanishes on unplug.

Talks to it with pyserial as the link does, but without the link, so a failure here is the emulator's."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import serial

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.firmware import wire
from firmware_bridge.pty_emulator import PtyEmulator

pytestmark = pytest.mark.pty
TIMEOUT = 10.0


@pytest.fixture
def emulator() -> Iterator[PtyEmulator]:
    emu = PtyEmulator(EmulatedBoard(seed=6))
    emu.start()
    try:
        yield emu
    finally:
        emu.stop()


def read_frames(port: serial.Serial, want: int, kind: int) -> list[tuple[int, int, bytes]]:
    """Read until `want` frames of `kind` arrived (each read waits at most the port's timeout)."""
    reader = wire.FrameReader()
    got: list[tuple[int, int, bytes]] = []
    for _ in range(int(TIMEOUT / port.timeout)):
        got += reader.feed(port.read(4096))
        if sum(1 for t, _, _ in got if t == kind) >= want:
            return got
    raise AssertionError(f"only {got} within {TIMEOUT} s")


def test_the_path_is_a_symlink_to_a_pty_and_bytes_pass_raw(emulator: PtyEmulator) -> None:
    assert os.path.islink(emulator.path)
    assert os.readlink(emulator.path) == emulator.device and emulator.device.startswith("/dev/pts/")
    with serial.Serial(emulator.path, timeout=0.05) as port:
        # A PING whose token is full of bytes a tty would mangle: 0x00, \r, \n, Ctrl-C, Ctrl-S, Ctrl-Q, DEL.
        token = int.from_bytes(b"\x0d\x0a\x03\x13", "big")
        port.write(wire.encode_frame(wire.PING, 1, wire.pack_ping(token)) + b"\x11\x7f\x00")
        frames = read_frames(port, 1, wire.PONG)
    assert [wire.unpack_pong(p)[0] for t, _, p in frames if t == wire.PONG] == [token]


def test_unplug_removes_the_device_and_replug_brings_it_back_at_the_same_path(emulator: PtyEmulator) -> None:
    path = emulator.path
    port = serial.Serial(path, timeout=0.05)
    try:
        emulator.unplug()
        assert not os.path.exists(path)
        with pytest.raises(serial.SerialException):
            for _ in range(int(TIMEOUT / 0.05)):
                port.read(1)  # the host's open port fails, as with a USB device pulled out
    finally:
        port.close()
    with pytest.raises(serial.SerialException):
        serial.Serial(path)
    emulator.replug()
    with serial.Serial(path, timeout=0.05) as again:
        again.write(wire.encode_frame(wire.HOST_HELLO, 0, wire.pack_host_hello()))
        frames = read_frames(again, 1, wire.HELLO)
    assert wire.unpack_hello(next(p for t, _, p in frames if t == wire.HELLO))[1:3] == (15, 15)


def test_a_host_that_stops_reading_never_blocks_the_board(emulator: PtyEmulator) -> None:
    """200 GET_BOARDs at once and nobody reading 50 KB of dumps: the board drops what its 4 KB transmit
    buffer cannot hold (counting it for the heartbeat, leaving a sequence gap for the host) and keeps
    scanning; afterwards it answers as ever."""
    with serial.Serial(emulator.path, timeout=0.05) as port:
        port.write(b"".join(wire.encode_frame(wire.GET_BOARD, k & 0xFF, b"") for k in range(200)))
        start = emulator.now_ms()
        with emulator.stepped:
            assert emulator.stepped.wait_for(lambda: emulator.board.now_ms > start + 300, TIMEOUT)
            assert emulator.board.firmware.tx_drops > 100  # whole frames dropped and counted, as on a Pico
        frames = read_frames(port, 1, wire.BOARD_DUMP)
        port.write(wire.encode_frame(wire.PING, 1, wire.pack_ping(5)))
        frames += read_frames(port, 1, wire.PONG)
    assert any(t == wire.PONG for t, _, _ in frames)  # the board answers as ever
