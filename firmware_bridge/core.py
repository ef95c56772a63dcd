"""The host side of the protocol without I/O: bytes and times in, typed events and bytes to send out.

Keeping it free of ports and threads lets the same logic run behind a serial port (`link.BoardLink`),
in-process against the emulator (`emulator.InProcessLink`), and under tests with a hand-turned clock.

States: DOWN -> (connection_made) HANDSHAKE: HOST_HELLO sent -> HELLO: SET_CONFIG if asked, GET_BOARD ->
SYNCING -> BOARD_DUMP -> UP. Lost frames (a sequence gap or a corrupt frame) while UP send a GET_BOARD
and the dump is compared with the picture, so no change is ever lost, only timed at the dump.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import MappingProxyType

from firmware_bridge.codes import TileCodes, default_tile_codes
from firmware_bridge.errors import LinkConfigError
from firmware_bridge.events import (
    BoardDump,
    BoardReading,
    ButtonEvent,
    CommandRefused,
    DiceTray,
    Event,
    Heartbeat,
    Hello,
    LinkLost,
    LinkRestored,
    Pong,
    SquareChanged,
)
from firmware_bridge.firmware import wire
from firmware_bridge.limits import HELLO_FIELDS, hello_problem
from firmware_bridge.squares import square_names

log = logging.getLogger("firmware_bridge.link")

DOWN = "down"
HANDSHAKE = "handshake"
SYNCING = "syncing"
UP = "up"

DEFAULT_HEARTBEAT_MS = 1000
SILENCE_PERIODS = 2.5  # declared lost after this many silent periods; with polling, within 3
HELLO_RETRY_S = 0.5
SYNC_LIMIT_S = 10.0  # a board that talks but never completes the handshake and its dump is lost after this


class LinkCore:
    """One board seen from the host. Call `connection_made`, then `data_received` and `tick` as bytes and
    time arrive; send whatever `take_outgoing` returns. Every method returns the events it produced."""

    def __init__(
        self,
        tile_codes: TileCodes | None = None,
        debounce_ms: int | None = None,
        heartbeat_ms: int | None = None,
        log_every: int = 100,
        accept: Callable[[Hello], str | None] | None = None,
    ) -> None:
        """`accept`, when given, is asked about every well-formed HELLO: a reason in words refuses that board
        like one outside the protocol's ranges (said once as LinkLost, tried again later), None serves it. The
        referee uses it for a board that cannot play the game (a 9x9 mat at a standard game)."""
        if debounce_ms is not None and debounce_ms not in HELLO_FIELDS["debounce_ms"]:
            raise LinkConfigError(f"debounce time {debounce_ms} ms: the board accepts {HELLO_FIELDS['debounce_ms']}")
        if heartbeat_ms is not None and heartbeat_ms not in HELLO_FIELDS["heartbeat_ms"]:
            raise LinkConfigError(
                f"heartbeat period {heartbeat_ms} ms: the board accepts {HELLO_FIELDS['heartbeat_ms']}"
            )
        self.tile_codes = tile_codes or default_tile_codes()
        self.want_debounce_ms = debounce_ms
        self.want_heartbeat_ms = heartbeat_ms
        self.accept = accept
        self.state = DOWN
        self.hello: Hello | None = None  # as the board runs after our SET_CONFIG
        self._board_hello: Hello | None = None  # as the board said it runs
        self.reader = wire.FrameReader()
        self._out = bytearray()
        self._seq = 0
        self._rx_seq: int | None = None
        self._last_rx = 0.0
        self._last_hello_sent = 0.0
        self._board_requested_at = 0.0
        self._resync_pending = False
        self._ever_synced = False
        self._was_lost = False
        self._sync_started = 0.0
        self.refused: str | None = None  # why the board was refused (its HELLO or dump), until the next handshake
        self._codes: bytearray = bytearray()
        self._names: tuple[str, ...] = ()
        self._buttons = 0
        self._slots: bytearray = bytearray()
        self._board_ms = 0
        self._log_every = log_every
        self.stats: dict[str, int] = {
            "frames": 0,
            "bad_frames": 0,
            "dropped_bytes": 0,
            "bad_payloads": 0,
            "unknown_types": 0,
            "unknown_codes": 0,
            "seq_gaps": 0,
            "lost_frames": 0,
            "duplicates": 0,
            "resyncs": 0,
            "refused": 0,
            "boards_refused": 0,
            "links_lost": 0,
            "links_restored": 0,
        }

    # ---- timing ----

    @property
    def last_rx(self) -> float:
        """When the last intact frame arrived (the caller's clock)."""
        return self._last_rx

    @property
    def heartbeat_s(self) -> float:
        """The board's heartbeat period in seconds: as configured once known, else what we asked for, else 1 s."""
        ms = self.hello.heartbeat_ms if self.hello else (self.want_heartbeat_ms or DEFAULT_HEARTBEAT_MS)
        return ms / 1000.0

    @property
    def silence_limit_s(self) -> float:
        """How long without an intact frame before the board counts as lost."""
        return SILENCE_PERIODS * self.heartbeat_s

    # ---- outgoing ----

    def command(self, msg_type: int, payload: bytes = b"") -> None:
        """Queue one host command (see `take_outgoing`)."""
        self._out += wire.encode_frame(msg_type, self._seq, payload)
        self._seq = (self._seq + 1) & 0xFF

    def take_outgoing(self) -> bytes:
        """The framed commands queued since the last call, for the caller to write to the port."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def ping(self, token: int) -> None:
        """Ask for a PONG carrying `token`: the line is FIFO, so its answer is a barrier."""
        self.command(wire.PING, wire.pack_ping(token))

    def request_board(self, now: float | None = None) -> None:
        """Ask for a BOARD_DUMP; `now` records when, so a lost answer is asked for again."""
        if now is not None:
            self._board_requested_at = now
        self.command(wire.GET_BOARD)

    # ---- connection ----

    def connection_made(self, now: float) -> list[Event]:
        """A port was opened: forget half-frames and sequence, start the handshake."""
        self.reader = wire.FrameReader()  # never glue old half-frames to a new connection
        self._rx_seq = None
        self._resync_pending = False
        self.refused = None
        self.state = HANDSHAKE
        self._last_rx = now
        self._sync_started = now
        self._send_hello(now)
        return []

    def connection_lost(self, reason: str, now: float) -> list[Event]:
        """The port failed or closed: LinkLost (once per outage)."""
        if self.state == DOWN:
            return []
        return self._lose(reason, now)

    def _lose(self, reason: str, now: float) -> list[Event]:
        """Down, and say so once: LinkLost until the next LinkRestored, however often reconnecting fails.
        A board that was never reached is reported too (the referee shows "no board" instead of nothing)."""
        self.state = DOWN
        self._out.clear()
        if self._was_lost:
            return []
        self._was_lost = True
        self.stats["links_lost"] += 1
        log.warning("board link %s: %s", "lost" if self._ever_synced else "not established", reason)
        return [LinkLost(reason, now)]

    def _refuse(self, reason: str, now: float) -> list[Event]:
        """A board outside the protocol's ranges, or contradicting itself: down, with the reason said once (as
        LinkLost) and kept in `refused`, so the link waits longer before it tries the board again."""
        self.refused = reason
        self.stats["boards_refused"] += 1
        return self._lose(f"board refused: {reason}", now)

    def open_failed(self, reason: str, now: float) -> list[Event]:
        """The port could not be opened (no such device, busy, no permission)."""
        return self._lose(f"cannot open the port: {reason}", now)

    def _send_hello(self, now: float) -> None:
        self._last_hello_sent = now
        self.command(wire.HOST_HELLO, wire.pack_host_hello())

    def tick(self, now: float) -> list[Event]:
        """Check the clock: a silent board is declared lost; a handshake without answer is retried."""
        if self.state == DOWN:
            return []
        silent = now - self._last_rx
        if silent > self.silence_limit_s:
            beat_ms = self.heartbeat_s * 1000
            return self._lose(f"board silent for {silent * 1000:.0f} ms (heartbeat every {beat_ms:.0f} ms)", now)
        if self.state != UP and now - self._sync_started > SYNC_LIMIT_S:
            what = "HELLO" if self.state == HANDSHAKE else "BOARD_DUMP"
            return self._lose(f"no {what} from the board within {SYNC_LIMIT_S:.0f} s, though it sends frames", now)
        if self.state == HANDSHAKE and now - self._last_hello_sent >= HELLO_RETRY_S:
            self._send_hello(now)
        elif self._resync_pending and now - self._board_requested_at >= max(HELLO_RETRY_S, self.heartbeat_s):
            self.request_board(now)  # the dump (or our request) was lost: ask again
        return []

    # ---- incoming ----

    def data_received(self, data: bytes, now: float) -> list[Event]:
        """Feed bytes from the port; never raises, whatever they are."""
        reader = self.reader
        before_bad = reader.errors()
        before_dropped = reader.dropped_bytes
        frames = reader.feed(data)
        bad = reader.errors() - before_bad
        self.stats["dropped_bytes"] += reader.dropped_bytes - before_dropped
        events: list[Event] = []
        if bad:
            self._count("bad_frames", bad, "corrupt frame(s) from the board")
            self._need_resync(now)
        for msg_type, seq, payload in frames:
            if self.state == DOWN:
                break  # refused mid-chunk: the rest is the refused board's
            self.stats["frames"] += 1
            self._last_rx = now
            if not self._check_seq(msg_type, seq, now):
                continue
            try:
                self._dispatch(msg_type, payload, now, events)
            except wire.WireError as exc:
                self._count("bad_payloads", 1, f"{wire.NAMES.get(msg_type, hex(msg_type))}: {exc}")
                self._need_resync(now)
            except (ValueError, IndexError, KeyError) as exc:  # a frame that passed CRC but makes no sense
                self._count("bad_payloads", 1, f"{wire.NAMES.get(msg_type, hex(msg_type))}: {exc!r}")
                self._need_resync(now)
        return events

    def _count(self, key: str, n: int, what: str) -> None:
        before = self.stats[key]
        self.stats[key] += n
        if before == 0 or before // self._log_every != self.stats[key] // self._log_every:
            log.warning("%s (%s so far: %d)", what, key, self.stats[key])

    def _check_seq(self, msg_type: int, seq: int, now: float) -> bool:
        """Track the board's sequence numbers: False for a repeated frame (same number as the one before, which
        a line or a USB stack may deliver twice), to be dropped; a gap asks for the board again. A HELLO
        restarts the count (a rebooted board starts at 0). A loss of exactly 255 frames cannot be told from a
        repeat; the next heartbeat's number shows it as a gap."""
        expected = self._rx_seq
        if msg_type != wire.HELLO and expected is not None and seq == expected:
            self.stats["duplicates"] += 1
            return False
        self._rx_seq = seq
        if msg_type == wire.HELLO or expected is None:
            return True
        gap = (seq - expected - 1) & 0xFF
        if gap:
            self.stats["seq_gaps"] += 1
            self.stats["lost_frames"] += gap
            log.warning("lost %d frame(s) from the board (seq %d after %d)", gap, seq, expected)
            self._need_resync(now)
        return True

    def _need_resync(self, now: float) -> None:
        if self.state == UP and not self._resync_pending:
            self._resync_pending = True
            self.stats["resyncs"] += 1
            self.request_board(now)

    def _dispatch(self, msg_type: int, payload: bytes, now: float, events: list[Event]) -> None:
        if msg_type == wire.HEARTBEAT:
            events.append(Heartbeat(*wire.unpack_heartbeat(payload)))
        elif msg_type == wire.SQUARE_CHANGED:
            index, code, board_ms = wire.unpack_square(payload)
            if self.state == UP and index < len(self._codes):
                self._codes[index] = code
                self._board_ms = board_ms
                events.append(self._square_event(index, code, board_ms, resync=False))
            elif self.state == UP:
                raise wire.WireError(f"square index {index} is off a {len(self._codes)}-square board")
        elif msg_type == wire.BUTTON:
            button, pressed, board_ms = wire.unpack_button(payload)
            if self.state == UP:
                self._buttons = self._buttons | (1 << button) if pressed else self._buttons & ~(1 << button)
                events.append(ButtonEvent(button, bool(pressed), board_ms))
        elif msg_type == wire.DICE_TRAY:
            slot, die, face, board_ms = wire.unpack_tray(payload)
            if self.state == UP and slot < len(self._slots):
                self._slots[slot] = 0 if die == wire.NO_DIE else 1 + die * 6 + face
                events.append(self._tray_event(slot, self._slots[slot], board_ms))
        elif msg_type == wire.HELLO:
            self._on_hello(wire.unpack_hello(payload), now, events)
        elif msg_type == wire.BOARD_DUMP:
            self._on_dump(wire.unpack_dump(payload), now, events)
        elif msg_type == wire.PONG:
            events.append(Pong(*wire.unpack_pong(payload)))
        elif msg_type == wire.ACK:
            wire.unpack_ack(payload)
        elif msg_type == wire.NAK:
            refused, seq, reason = wire.unpack_nak(payload)
            self.stats["refused"] += 1
            why = wire.NAK_REASONS.get(reason, f"reason {reason}")
            log.warning("board refused %s (seq %d): %s", wire.NAMES.get(refused, hex(refused)), seq, why)
            events.append(CommandRefused(wire.NAMES.get(refused, hex(refused)), seq, why))
            if refused == wire.SET_CONFIG and self._board_hello is not None:
                self.hello = self._board_hello  # the board kept its own timing: watch it by that
        else:
            self._count("unknown_types", 1, f"unknown message type 0x{msg_type:02x}")

    def _on_hello(self, fields: tuple[int, ...], now: float, events: list[Event]) -> None:
        version, width, height, caps, buttons, slots, debounce_ms, heartbeat_ms = fields
        problem = hello_problem(
            version=version,
            width=width,
            height=height,
            buttons=buttons,
            slots=slots,
            debounce_ms=debounce_ms,
            heartbeat_ms=heartbeat_ms,
        )
        if problem is not None:
            events.extend(self._refuse(f"its HELLO says {problem}", now))
            return
        hello = Hello(version, width, height, bool(caps & wire.CAP_CODED), buttons, slots, debounce_ms, heartbeat_ms)
        unfit = self.accept(hello) if self.accept is not None else None
        if unfit is not None:
            events.extend(self._refuse(unfit, now))
            return
        self.hello = hello
        self._board_hello = hello
        events.append(hello)
        debounce = self.want_debounce_ms if self.want_debounce_ms is not None else debounce_ms
        beat = self.want_heartbeat_ms if self.want_heartbeat_ms is not None else heartbeat_ms
        if (debounce, beat) != (debounce_ms, heartbeat_ms):  # a board boots with its defaults: set ours again
            self.command(wire.SET_CONFIG, wire.pack_set_config(debounce, beat, wire.REPORT_ALL))
            self.hello = Hello(version, width, height, hello.coded, buttons, slots, debounce, beat)
        # A HELLO while up means the board rebooted: whatever it saw meanwhile comes with the dump.
        # A second HELLO while a dump is already on its way (boot HELLO, then the answer to ours) asks nothing.
        if self.state == SYNCING and self._resync_pending:
            return
        if self.state == UP:
            self._sync_started = now
        self.state = SYNCING
        self._resync_pending = True
        self.request_board(now)

    def _on_dump(self, fields: tuple[object, ...], now: float, events: list[Event]) -> None:
        board_ms, width, height, codes, buttons, slot_codes = fields
        assert isinstance(board_ms, int) and isinstance(width, int) and isinstance(height, int)
        assert isinstance(codes, bytes) and isinstance(buttons, int) and isinstance(slot_codes, bytes)
        if self.hello is None or (width, height) != (self.hello.width, self.hello.height):
            said = f"{self.hello.width}x{self.hello.height}" if self.hello else "no HELLO"
            if self.state == SYNCING:  # every dump it sends will be the same: waiting would wait for ever
                why = f"it sends the dump of a {width}x{height} board after a HELLO of {said}"
                events.extend(self._refuse(why, now))
                return
            raise wire.WireError(f"dump of a {width}x{height} board does not match the board's HELLO ({said})")
        first = not self._ever_synced or len(self._codes) != len(codes)
        if first:
            self._names = square_names(width, height)
            old_codes = bytearray(codes)
            old_buttons = buttons
            old_slots = bytearray(slot_codes)
        else:
            old_codes, old_buttons, old_slots = self._codes, self._buttons, self._slots
        self._codes = bytearray(codes)
        self._buttons = buttons
        self._slots = bytearray(slot_codes)
        self._board_ms = board_ms
        restored = self.state == SYNCING and self._was_lost
        self.state = UP
        self._resync_pending = False
        self._ever_synced = True
        if restored:
            self._was_lost = False
            self.stats["links_restored"] += 1
            assert self.hello is not None
            log.warning("board link restored")
            events.append(LinkRestored(self.hello, now))
        for i, (old, new) in enumerate(zip(old_codes, codes, strict=True)):
            if old != new:
                events.append(self._square_event(i, new, board_ms, resync=True))
        for b in range(16):
            if (old_buttons ^ buttons) & (1 << b):
                events.append(ButtonEvent(b, bool(buttons & (1 << b)), board_ms))
        for s, (old, new) in enumerate(zip(old_slots, slot_codes, strict=False)):
            if old != new:
                events.append(self._tray_event(s, new, board_ms, resync=True))
        events.append(BoardDump(self.picture()))

    def _square_event(self, index: int, code: int, board_ms: int, resync: bool) -> SquareChanged:
        return SquareChanged(self._names[index], code != wire.EMPTY, self._letter(code), board_ms, resync)

    def _letter(self, code: int) -> str | None:
        if code == wire.EMPTY or self.hello is None or not self.hello.coded:
            return None
        letter = self.tile_codes.letter(code)
        if letter is None:
            self._count("unknown_codes", 1, f"tile code {code} belongs to no tile")
        return letter

    @staticmethod
    def _tray_event(slot: int, code: int, board_ms: int, resync: bool = False) -> DiceTray:
        die, face = wire.tray_code_to_die_face(code)
        if die == wire.NO_DIE:
            return DiceTray(slot, None, None, board_ms, resync)
        return DiceTray(slot, die, face, board_ms, resync)

    def picture(self) -> BoardReading:
        """The board as the link believes it is now."""
        width = self.hello.width if self.hello else 0
        height = self.hello.height if self.hello else 0
        squares = {self._names[i]: self._letter_quiet(c) for i, c in enumerate(self._codes) if c != wire.EMPTY}
        tray = {}
        for s, code in enumerate(self._slots):
            die, face = wire.tray_code_to_die_face(code)
            if die != wire.NO_DIE:
                tray[s] = (die, face)
        return BoardReading(
            width,
            height,
            MappingProxyType(squares),
            frozenset(b for b in range(16) if self._buttons & (1 << b)),
            MappingProxyType(tray),
            self._board_ms,
            self.state == UP,
        )

    def _letter_quiet(self, code: int) -> str | None:
        if self.hello is None or not self.hello.coded:
            return None
        return self.tile_codes.letter(code)


EventSink = Callable[[Event], None]
