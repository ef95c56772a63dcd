"""The scripted board checks the host's side of the handshake to the byte."""

from __future__ import annotations

import pytest

from firmware_bridge.events import BoardDump, CommandRefused, Pong, SquareChanged
from firmware_bridge.firmware import wire
from firmware_bridge.link import BoardLink
from firmware_bridge.mock import ScriptedPort

TIMEOUT = 10.0


def test_handshake_sets_config_then_asks_for_the_board() -> None:
    port = ScriptedPort()
    port.expect(wire.HOST_HELLO, wire.pack_host_hello(), reply=[(wire.HELLO, wire.pack_hello(9, 9, 0, 0, 0, 30, 1000))])
    port.expect(wire.SET_CONFIG, wire.pack_set_config(30, 200, wire.REPORT_ALL), reply=[(wire.ACK, b"\x43\x01")])
    port.expect(wire.GET_BOARD, b"", reply=[(wire.BOARD_DUMP, wire.pack_dump(7, 9, 9, bytes(81), 0, b""))])
    port.expect(wire.PING, wire.pack_ping(42), reply=[(wire.PONG, wire.pack_pong(42, 8))])
    with BoardLink("scripted", opener=lambda url: port, heartbeat_ms=200) as link:
        dump, seen = link.wait_for(lambda e: isinstance(e, BoardDump), TIMEOUT)
        assert dump is not None, seen
        link.ping(42)
        pong, seen = link.wait_for(lambda e: isinstance(e, Pong), TIMEOUT)
        assert pong == Pong(42, 8)
        # Noise on the line: the link asks for the board again, as it must after any lost frame.
        port.expect(wire.GET_BOARD, b"", reply=[(wire.BOARD_DUMP, wire.pack_dump(9, 9, 9, bytes(81), 0, b""))])
        port.send_raw(b"\x00\x07noise\x00")
        dump, seen = link.wait_for(lambda e: isinstance(e, BoardDump), TIMEOUT)
        assert dump is not None and dump.picture.board_ms == 9, seen
        port.send(wire.SQUARE_CHANGED, wire.pack_square(40, 1, 1234))
        change, seen = link.wait_for(lambda e: isinstance(e, SquareChanged), TIMEOUT)
        assert change is not None and (change.square, change.occupied, change.board_ms) == ("E5", True, 1234)
        assert link.stats["bad_frames"] == 1
    port.assert_done()


def test_a_host_that_strays_from_the_script_is_caught() -> None:
    port = ScriptedPort()
    port.expect(wire.GET_BOARD)
    with BoardLink("scripted", opener=lambda url: port):
        assert port.wait_done(TIMEOUT)
    with pytest.raises(AssertionError, match="expected GET_BOARD, got HOST_HELLO"):
        port.assert_done()


def test_board_refusing_our_version_is_reported_in_words() -> None:
    port = ScriptedPort()
    port.expect(wire.HOST_HELLO, reply=[(wire.NAK, wire.pack_nak(wire.HOST_HELLO, 0, wire.NAK_VERSION))])
    with BoardLink("scripted", opener=lambda url: port) as link:
        refused, seen = link.wait_for(lambda e: isinstance(e, CommandRefused), TIMEOUT)
        assert refused == CommandRefused("HOST_HELLO", 0, "unsupported protocol version"), seen
        assert not link.picture().connected
