"""Wire protocol v1 of the sensor board: framing and message layouts (see docs/protocol.md).

This one module is shared by the Pico firmware (MicroPython) and the host (CPython), so that both ends
can never disagree about a byte. It therefore uses only what MicroPython has: no dataclasses, no typing,
no f-strings with format specs the port may lack, `struct` and bytes/bytearray operations only. Messages
are plain tuples here; the host turns them into typed events in `firmware_bridge.core`.

Frame on the wire: 0x00, COBS(type u8, seq u8, length u16, payload, CRC-16/CCITT-FALSE u16), 0x00, big-endian.
The length field is not redundant: a delimiter flipped to 0x01 appends a zero byte to the decoded frame,
and a CRC without a final XOR accepts a message with a zero appended after its CRC; the length does not.
The leading delimiter means any garbage before a frame is cut off by the frame's own first byte, so the
next intact frame is always delivered whatever corruption preceded it.
"""

import struct

try:  # CPython: the C implementation; MicroPython's binascii has no crc_hqx
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # pragma: no cover - exercised under MicroPython
    _crc_hqx = None

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 512  # a 26x26 board dump (676 squares) would not fit; 15x15 needs 225 + 12
HEADER = 4  # type, seq, payload length u16
MAX_FRAME = MAX_PAYLOAD + HEADER + 2  # + crc
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 2

# Board -> host
HELLO = 0x01
BOARD_DUMP = 0x02
SQUARE_CHANGED = 0x03
BUTTON = 0x04
DICE_TRAY = 0x05
HEARTBEAT = 0x06
ACK = 0x07
NAK = 0x08
PONG = 0x09
# Host -> board
HOST_HELLO = 0x41
GET_BOARD = 0x42
SET_CONFIG = 0x43
PING = 0x44

NAMES = {
    HELLO: "HELLO",
    BOARD_DUMP: "BOARD_DUMP",
    SQUARE_CHANGED: "SQUARE_CHANGED",
    BUTTON: "BUTTON",
    DICE_TRAY: "DICE_TRAY",
    HEARTBEAT: "HEARTBEAT",
    ACK: "ACK",
    NAK: "NAK",
    PONG: "PONG",
    HOST_HELLO: "HOST_HELLO",
    GET_BOARD: "GET_BOARD",
    SET_CONFIG: "SET_CONFIG",
    PING: "PING",
}

# HELLO capability bits
CAP_CODED = 0x01  # squares report a magnet code per tile, not only presence
CAP_TRAY = 0x02  # a dice tray with sensors is fitted
CAP_BUTTONS = 0x04  # buttons are wired to the board

# SET_CONFIG report flags
REPORT_SQUARES = 0x01
REPORT_BUTTONS = 0x02
REPORT_TRAY = 0x04
REPORT_ALL = 0x07

# NAK reasons
NAK_UNKNOWN_TYPE = 1
NAK_BAD_LENGTH = 2
NAK_BAD_VALUE = 3
NAK_VERSION = 4
NAK_REASONS = {
    NAK_UNKNOWN_TYPE: "unknown message type",
    NAK_BAD_LENGTH: "wrong payload length",
    NAK_BAD_VALUE: "value out of range",
    NAK_VERSION: "unsupported protocol version",
}

# Square codes: 0 is an empty square. A presence-only board reports 1 for "occupied"; a coded board
# reports the tile's magnet code (1..63). Tray slots report 0 (empty) or 1 + die * 6 + face.
EMPTY = 0
OCCUPIED = 1
NO_DIE = 0xFF

_HELLO = ">BBBBBBHH"  # version, width, height, caps, buttons, tray slots, debounce ms, heartbeat ms
_SQUARE = ">HBI"  # index, code, board ms
_BUTTON = ">BBI"  # id, pressed, board ms
_TRAY = ">BBBI"  # slot, die (0xFF none), face, board ms
_HEARTBEAT = ">IHHHHH"  # uptime ms, scans/s, crc errors, framing errors, bad commands, tx drops
_ACK = ">BB"  # acked type, acked seq
_NAK = ">BBB"  # refused type, refused seq, reason
_PONG = ">II"  # token, board ms
_HOST_HELLO = ">B"  # version
_SET_CONFIG = ">HHB"  # debounce ms, heartbeat ms, report flags
_PING = ">I"  # token
_DUMP_HEAD = ">IBB"  # board ms, width, height; then width*height codes, buttons u16, slots u8, slot codes


class WireError(ValueError):
    """A frame or payload that does not follow the protocol; the reader counts these, never raises them."""


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _crc_table()


def crc16_table(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE by table: what the Pico computes (its binascii has no crc_hqx)."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): "123456789" gives 0x29B1."""
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    return crc16_table(data, crc)


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result has no 0x00, so 0x00 can delimit frames."""
    data = bytes(data)
    out = bytearray()
    start = 0
    n = len(data)
    while True:
        end = data.find(b"\x00", start)
        if end < 0:
            end = n
        # Emit blocks of at most 254 data bytes.
        while end - start >= 254:
            out.append(255)
            out.extend(data[start : start + 254])
            start += 254
        out.append(end - start + 1)
        out.extend(data[start:end])
        if end >= n:
            break
        start = end + 1
    return bytes(out)


def cobs_decode(data):
    """Invert cobs_encode; raise WireError on a zero byte or a block that runs past the end."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise WireError("zero byte inside a COBS block")
        end = i + code
        if end > n:
            raise WireError("COBS block runs past the end of the frame")
        out.extend(data[i + 1 : end])
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(msg_type, seq, payload=b""):
    """One frame ready for the wire, delimiters included."""
    if len(payload) > MAX_PAYLOAD:
        raise WireError("payload too long")
    n = len(payload)
    body = bytearray(HEADER + n + 2)
    body[0] = msg_type & 0xFF
    body[1] = seq & 0xFF
    body[2] = n >> 8
    body[3] = n & 0xFF
    body[HEADER : HEADER + n] = payload
    crc = crc16(bytes(body[: HEADER + n]))
    body[-2] = crc >> 8
    body[-1] = crc & 0xFF
    return b"\x00" + cobs_encode(bytes(body)) + b"\x00"


def decode_frame(encoded):
    """Decode one frame without its delimiters into (type, seq, payload); raise WireError when corrupt."""
    if len(encoded) > MAX_ENCODED:
        raise WireError("frame too long")
    body = cobs_decode(encoded)
    if len(body) < HEADER + 2:
        raise WireError("frame too short")
    if crc16(body[:-2]) != (body[-2] << 8) | body[-1]:
        raise WireError("CRC mismatch")
    if (body[2] << 8) | body[3] != len(body) - HEADER - 2:
        raise WireError("length field does not match the frame")
    return body[0], body[1], body[HEADER:-2]


class FrameReader:
    """Turns a byte stream into frames; never raises on bad bytes, counts them and resynchronises.

    Counters (all cumulative): frames, crc_errors, cobs_errors, too_long, short, dropped_bytes.
    """

    def __init__(self):
        self._buf = bytearray()
        self._discarding = False
        self.frames = 0
        self.crc_errors = 0
        self.cobs_errors = 0
        self.too_long = 0
        self.short = 0
        self.dropped_bytes = 0

    def errors(self):
        """Total frames lost to corruption of any kind."""
        return self.crc_errors + self.cobs_errors + self.too_long + self.short

    def feed(self, data):
        """Add bytes; return the list of intact (type, seq, payload) frames they completed."""
        frames = []
        buf = self._buf
        buf.extend(data)
        start = 0
        while True:
            end = buf.find(b"\x00", start)
            if end < 0:
                break
            if self._discarding:
                self._discarding = False
                self.dropped_bytes += end - start
            elif end > start:
                self._one(bytes(buf[start:end]), frames)
            start = end + 1
        if start:
            buf[:start] = b""
        if len(buf) > MAX_ENCODED:
            # No delimiter in sight: drop what we have and skip to the next delimiter.
            if not self._discarding:
                self.too_long += 1
            self.dropped_bytes += len(buf)
            self._discarding = True
            buf[:] = b""
        return frames

    def _one(self, encoded, frames):
        if len(encoded) > MAX_ENCODED:
            self.too_long += 1
            self.dropped_bytes += len(encoded)
            return
        try:
            body = cobs_decode(encoded)
        except WireError:
            self.cobs_errors += 1
            self.dropped_bytes += len(encoded)
            return
        if len(body) < HEADER + 2 or (body[2] << 8) | body[3] != len(body) - HEADER - 2:
            self.short += 1  # too short for a frame, or not the length its header says
            self.dropped_bytes += len(encoded)
            return
        if crc16(body[:-2]) != (body[-2] << 8) | body[-1]:
            self.crc_errors += 1
            self.dropped_bytes += len(encoded)
            return
        self.frames += 1
        frames.append((body[0], body[1], body[HEADER:-2]))


# ---- message payloads: pack_* build a payload, unpack_* return a tuple of fields or raise WireError ----


def _unpack(fmt, payload):
    if len(payload) != struct.calcsize(fmt):
        raise WireError("wrong payload length")
    return struct.unpack(fmt, payload)


def pack_hello(width, height, caps, buttons, slots, debounce_ms, heartbeat_ms):
    return struct.pack(_HELLO, PROTOCOL_VERSION, width, height, caps, buttons, slots, debounce_ms, heartbeat_ms)


def unpack_hello(payload):
    """(version, width, height, caps, buttons, slots, debounce_ms, heartbeat_ms)"""
    return _unpack(_HELLO, payload)


def pack_square(index, code, board_ms):
    return struct.pack(_SQUARE, index, code, board_ms & 0xFFFFFFFF)


def unpack_square(payload):
    """(index, code, board_ms)"""
    return _unpack(_SQUARE, payload)


def pack_button(button, pressed, board_ms):
    return struct.pack(_BUTTON, button, 1 if pressed else 0, board_ms & 0xFFFFFFFF)


def unpack_button(payload):
    """(id, pressed 0/1, board_ms)"""
    fields = _unpack(_BUTTON, payload)
    if fields[1] > 1:
        raise WireError("button state is neither 0 nor 1")
    return fields


def tray_code_to_die_face(code):
    """A tray slot's code: 0 empty -> (0xFF, 0); else 1 + die * 6 + face -> (die, face)."""
    if code == 0:
        return NO_DIE, 0
    return (code - 1) // 6, (code - 1) % 6


def pack_tray(slot, die, face, board_ms):
    return struct.pack(_TRAY, slot, die, face, board_ms & 0xFFFFFFFF)


def unpack_tray(payload):
    """(slot, die or 0xFF for an empty slot, face, board_ms)"""
    fields = _unpack(_TRAY, payload)
    if fields[1] != NO_DIE and fields[2] > 5:
        raise WireError("die face out of range")
    return fields


def pack_heartbeat(uptime_ms, scans_per_s, crc_errors, framing_errors, bad_commands, tx_drops):
    return struct.pack(
        _HEARTBEAT,
        uptime_ms & 0xFFFFFFFF,
        min(scans_per_s, 0xFFFF),
        min(crc_errors, 0xFFFF),
        min(framing_errors, 0xFFFF),
        min(bad_commands, 0xFFFF),
        min(tx_drops, 0xFFFF),
    )


def unpack_heartbeat(payload):
    """(uptime_ms, scans_per_s, crc_errors, framing_errors, bad_commands, tx_drops)"""
    return _unpack(_HEARTBEAT, payload)


def pack_ack(acked_type, acked_seq):
    return struct.pack(_ACK, acked_type, acked_seq)


def unpack_ack(payload):
    """(acked_type, acked_seq)"""
    return _unpack(_ACK, payload)


def pack_nak(refused_type, refused_seq, reason):
    return struct.pack(_NAK, refused_type, refused_seq, reason)


def unpack_nak(payload):
    """(refused_type, refused_seq, reason)"""
    return _unpack(_NAK, payload)


def pack_pong(token, board_ms):
    return struct.pack(_PONG, token & 0xFFFFFFFF, board_ms & 0xFFFFFFFF)


def unpack_pong(payload):
    """(token, board_ms)"""
    return _unpack(_PONG, payload)


def pack_host_hello(version=PROTOCOL_VERSION):
    return struct.pack(_HOST_HELLO, version)


def unpack_host_hello(payload):
    """(version,)"""
    return _unpack(_HOST_HELLO, payload)


def pack_set_config(debounce_ms, heartbeat_ms, report_flags):
    return struct.pack(_SET_CONFIG, debounce_ms, heartbeat_ms, report_flags)


def unpack_set_config(payload):
    """(debounce_ms, heartbeat_ms, report_flags)"""
    return _unpack(_SET_CONFIG, payload)


def pack_ping(token):
    return struct.pack(_PING, token & 0xFFFFFFFF)


def unpack_ping(payload):
    """(token,)"""
    return _unpack(_PING, payload)


def pack_dump(board_ms, width, height, codes, buttons, slot_codes):
    """codes: width*height square codes, row-major from A1; slot_codes: one tray code per slot."""
    if len(codes) != width * height:
        raise WireError("dump has the wrong number of squares")
    head = struct.pack(_DUMP_HEAD, board_ms & 0xFFFFFFFF, width, height)
    return head + bytes(codes) + struct.pack(">HB", buttons & 0xFFFF, len(slot_codes)) + bytes(slot_codes)


def unpack_dump(payload):
    """(board_ms, width, height, codes bytes, buttons bitmask, slot codes bytes)"""
    if len(payload) < 6:
        raise WireError("dump too short")
    board_ms, width, height = struct.unpack(_DUMP_HEAD, payload[:6])
    n = width * height
    if len(payload) < 6 + n + 3:
        raise WireError("dump too short for its board size")
    codes = bytes(payload[6 : 6 + n])
    buttons, slots = struct.unpack(">HB", payload[6 + n : 9 + n])
    if len(payload) != 9 + n + slots:
        raise WireError("dump length does not match its tray slots")
    return board_ms, width, height, codes, buttons, bytes(payload[9 + n :])
