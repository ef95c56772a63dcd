"""The board firmware's core: scan, debounce, report, answer commands, send heartbeats.

Runs unchanged on the Pico (MicroPython) and, under CPython, inside the emulator: everything it touches
in the world goes through a small HAL object, so the emulator hands it a simulated switch matrix and a
pseudo-terminal, and the Pico hands it shift registers and USB. MicroPython rules apply here as in
`wire`: no typing, no dataclasses, bytes/bytearray only, no allocation in the idle scan path.

The HAL has five methods:
    ticks_ms() -> int                 a millisecond counter that may wrap (MicroPython's time.ticks_ms)
    ticks_diff(a, b) -> int           a - b, wrap-aware (MicroPython's time.ticks_diff)
    scan(buf)                         fill buf: one code per square (row-major from A1), then one byte
                                      per button (0/1), then one code per tray slot (0 or 1 + die*6 + face)
    read() -> bytes or None           whatever the host sent since the last call, never blocking
    write(data) -> bool               queue a frame to the host; False if it had to be dropped

Every input (square, button, tray slot) goes through one debouncer: a new reading counts only after it
has held for `debounce_ms` of consecutive scans. The event carries the board time at which the reading
first appeared in that unbroken run, i.e. when the contacts stopped bouncing.
"""

try:
    from firmware_bridge.firmware import wire
except ImportError:  # on the Pico the modules sit flat in the file system
    import wire

DEFAULT_DEBOUNCE_MS = 30
DEFAULT_HEARTBEAT_MS = 1000
MIN_DEBOUNCE_MS = 1
MAX_DEBOUNCE_MS = 1000
MIN_HEARTBEAT_MS = 20
MAX_HEARTBEAT_MS = 60000


class Firmware:
    """One board: its geometry, its debounced picture, and the link to the host."""

    def __init__(
        self,
        hal,
        width=15,
        height=15,
        coded=False,
        buttons=0,
        slots=0,
        debounce_ms=DEFAULT_DEBOUNCE_MS,
        heartbeat_ms=DEFAULT_HEARTBEAT_MS,
    ):
        self.hal = hal
        self.width = width
        self.height = height
        self.squares = width * height
        self.buttons = buttons
        self.slots = slots
        self.caps = (wire.CAP_CODED if coded else 0) | (wire.CAP_BUTTONS if buttons else 0)
        if slots:
            self.caps |= wire.CAP_TRAY
        n = self.squares + buttons + slots
        self.raw = bytearray(n)
        self.stable = bytearray(n)
        self.cand = bytearray(n)
        self.since = [0] * n
        self.pending = 0
        self.pending_list = []  # indexes whose reading differs from the picture, in index order
        self.debounce_ms = debounce_ms
        self.heartbeat_ms = heartbeat_ms
        self.report = wire.REPORT_ALL
        self.reader = wire.FrameReader()
        self.seq = 0
        self.bad_commands = 0
        self.tx_drops = 0
        self.scans = 0
        self._scans_at_beat = 0
        self._last_ticks = hal.ticks_ms()
        self.uptime = 0  # ms since boot, unwrapped: board time on the wire
        self._next_beat = heartbeat_ms
        self._last_beat = 0
        self._scans_per_s = 0
        self._dump_deadline = -1  # >= 0: a GET_BOARD waits for bouncing inputs to settle, until then
        self.hal.scan(self.raw)  # the board as it is at power-up is the starting picture, not a change
        self.stable[:] = self.raw
        self.cand[:] = self.raw
        self.send(wire.HELLO, self.hello_payload())

    # ---- output ----

    def send(self, msg_type, payload):
        """Frame and write one message; a dropped frame still uses its sequence number so the host sees a gap."""
        frame = wire.encode_frame(msg_type, self.seq, payload)
        self.seq = (self.seq + 1) & 0xFF
        if not self.hal.write(frame):
            self.tx_drops += 1

    def hello_payload(self):
        return wire.pack_hello(
            self.width, self.height, self.caps, self.buttons, self.slots, self.debounce_ms, self.heartbeat_ms
        )

    def dump_payload(self):
        stable = self.stable
        n = self.squares
        mask = 0
        for b in range(self.buttons):
            if stable[n + b]:
                mask |= 1 << b
        first_slot = n + self.buttons
        return wire.pack_dump(
            self.uptime, self.width, self.height, stable[:n], mask, stable[first_slot : first_slot + self.slots]
        )

    # ---- the loop ----

    def step(self):
        """One pass: advance the clock, scan and debounce, answer the host, maybe send a heartbeat."""
        hal = self.hal
        ticks = hal.ticks_ms()
        self.uptime += hal.ticks_diff(ticks, self._last_ticks)
        self._last_ticks = ticks
        now = self.uptime
        self.scan(now)
        data = hal.read()
        if data:
            for msg_type, seq, payload in self.reader.feed(data):
                self.handle(msg_type, seq, payload)
        if self._dump_deadline >= 0 and (not self.pending or now >= self._dump_deadline):
            self._dump_deadline = -1
            self.send(wire.BOARD_DUMP, self.dump_payload())
        if now >= self._next_beat:
            self.heartbeat(now)

    def scan(self, now):
        """Read every input once and debounce it; report what has held long enough.

        Three paths, cheapest first: nothing differs from the picture (one C-level compare); nothing moved
        since the last scan but some inputs wait out their debounce time (visit only those; after every
        full pass `cand` equals `raw`, so one more compare tells); something moved (visit every input).
        """
        raw = self.raw
        stable = self.stable
        self.hal.scan(raw)
        self.scans += 1
        if not self.pending and raw == stable:
            return  # the idle path: one C-level compare, no allocation
        cand = self.cand
        since = self.since
        debounce = self.debounce_ms
        if raw == cand:
            accepted = False
            for i in self.pending_list:
                if now - since[i] >= debounce:
                    stable[i] = cand[i]
                    self.changed(i, cand[i], since[i])
                    accepted = True
            if accepted:
                self.pending_list = [i for i in self.pending_list if stable[i] != cand[i]]
                self.pending = len(self.pending_list)
            return
        pending_list = []
        for i in range(len(raw)):
            r = raw[i]
            if r == stable[i]:
                cand[i] = r  # a bounce that came back: no change after all
                continue
            if r != cand[i]:
                cand[i] = r
                since[i] = now
                pending_list.append(i)
            elif now - since[i] >= debounce:
                stable[i] = r
                self.changed(i, r, since[i])
            else:
                pending_list.append(i)
        self.pending_list = pending_list
        self.pending = len(pending_list)

    def changed(self, i, code, at):
        n = self.squares
        if i < n:
            if self.report & wire.REPORT_SQUARES:
                self.send(wire.SQUARE_CHANGED, wire.pack_square(i, code, at))
        elif i < n + self.buttons:
            if self.report & wire.REPORT_BUTTONS:
                self.send(wire.BUTTON, wire.pack_button(i - n, code, at))
        elif self.report & wire.REPORT_TRAY:
            die, face = wire.tray_code_to_die_face(code)
            self.send(wire.DICE_TRAY, wire.pack_tray(i - n - self.buttons, die, face, at))

    def heartbeat(self, now):
        elapsed = now - self._last_beat
        if elapsed > 0:
            self._scans_per_s = (self.scans - self._scans_at_beat) * 1000 // elapsed
        self._scans_at_beat = self.scans
        self._last_beat = now
        self._next_beat = now + self.heartbeat_ms
        r = self.reader
        self.send(
            wire.HEARTBEAT,
            wire.pack_heartbeat(
                now,
                self._scans_per_s,
                r.crc_errors,
                r.cobs_errors + r.too_long + r.short,
                self.bad_commands,
                self.tx_drops,
            ),
        )

    # ---- commands from the host ----

    def handle(self, msg_type, seq, payload):
        try:
            if msg_type == wire.HOST_HELLO:
                (version,) = wire.unpack_host_hello(payload)
                if version != wire.PROTOCOL_VERSION:
                    self.refuse(msg_type, seq, wire.NAK_VERSION)
                    return
                self.send(wire.HELLO, self.hello_payload())
            elif msg_type == wire.GET_BOARD:
                if payload:
                    self.refuse(msg_type, seq, wire.NAK_BAD_LENGTH)
                    return
                if self.pending:
                    # Something is bouncing (a tile going down, or the first scans after power-up caught a
                    # contact mid-bounce): answer once it has settled, so a dump never shows a transient.
                    # Someone fiddling with tiles cannot hold the answer back beyond 3 debounce times.
                    if self._dump_deadline < 0:
                        self._dump_deadline = self.uptime + 3 * self.debounce_ms
                    return
                self.send(wire.BOARD_DUMP, self.dump_payload())
            elif msg_type == wire.SET_CONFIG:
                debounce, beat, flags = wire.unpack_set_config(payload)
                if not (MIN_DEBOUNCE_MS <= debounce <= MAX_DEBOUNCE_MS) or not (
                    MIN_HEARTBEAT_MS <= beat <= MAX_HEARTBEAT_MS
                ):
                    self.refuse(msg_type, seq, wire.NAK_BAD_VALUE)
                    return
                if flags & ~wire.REPORT_ALL:
                    self.refuse(msg_type, seq, wire.NAK_BAD_VALUE)
                    return
                self.debounce_ms = debounce
                self.heartbeat_ms = beat
                self.report = flags
                self._next_beat = self.uptime + beat
                self.send(wire.ACK, wire.pack_ack(msg_type, seq))
            elif msg_type == wire.PING:
                (token,) = wire.unpack_ping(payload)
                self.send(wire.PONG, wire.pack_pong(token, self.uptime))
            else:
                self.refuse(msg_type, seq, wire.NAK_UNKNOWN_TYPE)
        except wire.WireError:
            self.refuse(msg_type, seq, wire.NAK_BAD_LENGTH)

    def refuse(self, msg_type, seq, reason):
        self.bad_commands += 1
        self.send(wire.NAK, wire.pack_nak(msg_type, seq, reason))

    def run(self, idle=None):
        """Forever on the Pico: step, then let the HAL pace the scan (idle)."""
        step = self.step
        while True:
            step()
            if idle is not None:
                idle()
