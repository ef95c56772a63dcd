"""The sensor board: wire protocol, firmware, emulator and the host link.

Public API (what the referee service builds on; details in each module and docs/protocol.md):

Observations (`firmware_bridge.events`, frozen dataclasses, all re-exported here):
    SquareChanged(square="H8", occupied, letter: str | None, board_ms, resync=False)
        occupied False = empty; occupied True, letter None = a tile whose letter the board cannot read.
    ButtonEvent(button, pressed, board_ms)      DiceTray(slot, die | None, face | None, board_ms, resync)
    BoardDump(picture)   Heartbeat(uptime_ms, scans_per_s, ...)   Hello(...)   Pong   CommandRefused
    LinkLost(reason, at)   LinkRestored(hello, at)      at = host monotonic seconds; LinkLost once per outage
    BoardReading(width, height, squares {name: letter | None}, buttons, tray, board_ms, connected): the sensor
        board's raw reading (not the referee's fused board picture, which adds the camera and doubt)

The link (`firmware_bridge.link`):
    with BoardLink("/dev/ttyACM0" | "emulator://15x15?coded=1" | "loop://" | a pty path,
                   on_event=callback, debounce_ms=None, heartbeat_ms=None, queue_size=None) as link:
        link.get(timeout) -> Event | None; link.picture() -> BoardReading; link.ping(); link.request_board()
        link.stats -> dict of counters (bad frames, seq gaps, duplicates, resyncs, reconnects, refused boards,
        events dropped); link.emulator (emulator://); link.close() (idempotent; also on leaving `with`)
    The queue behind get() is bounded (oldest dropped) and kept by default only without on_event.
    Any pyserial URL opens; `emulator://` is this project's own pyserial URL handler
    (`firmware_bridge.urlhandler`, registered by the link), so `serial.serial_for_url` opens it too.
    A board whose HELLO is outside the ranges of `firmware_bridge.limits` is refused: LinkLost with the reason.
    It handshakes, keeps the picture, declares LinkLost after 2.5 silent heartbeat periods, reopens the port
    by itself and resynchronises with a BOARD_DUMP (changes made meanwhile arrive as SquareChanged(resync=True)).
    Bad bytes never raise: they are counted in `stats` and logged.
    `LinkCore` (firmware_bridge.core) is the same logic without I/O or threads: feed bytes and a time, get events.

The emulator (`firmware_bridge.emulator`): the firmware's own code on a simulated switch matrix with bounce
(`firmware_bridge.matrix`).
    board = EmulatedBoard(width=15, height=15, coded=False, buttons=4, slots=0, seed=0)
    board.place("H8", "E", upside_down=False); board.lift("H8"); board.place_word("H8", "across", "WORD");
    board.press(0); board.release(0); board.roll(slot, die, face); board.clear_slot(slot);
    board.unplug(); board.replug(); board.mute(); board.unmute(); board.advance(ms)   (simulated time)
    InProcessLink(board) -> .advance(ms) -> list[Event]: board + LinkCore wired without a port (simulated table).
    PtyEmulator(board).start() (`firmware_bridge.pty_emulator`) -> .path: a stable symlink to a pseudo-terminal,
    as /dev/ttyACM0 would be; the same scripting methods, thread-safe; unplug()/replug() remove and recreate
    the device; .wait_settled(timeout) waits on the emulator's own steps until nothing bounces.

The firmware on a real MicroPython (`firmware_bridge.micropython_board`, x86-64 with the test extra):
    MicroPythonBoard(width=15, ..., uart=None).start() -> .path: the firmware's own main.py on the MicroPython
    unix port with a simulated Pico `machine` and a Pico's heap, behind a pty; the same scripting methods
    as PtyEmulator, the same world (bounce) as EmulatedBoard. URL: `emulator://15x15?micropython=1`.

A scripted fake board (`firmware_bridge.mock.ScriptedPort`, like python-chess's MockTransport):
    port.expect(wire.HOST_HELLO, reply=[(wire.HELLO, ...)]); BoardLink(url, opener=lambda u: port);
    port.send(wire.SQUARE_CHANGED, ...); port.assert_done()

Shared with the Pico (`firmware_bridge.firmware`, MicroPython-compatible): `wire` (frames, messages),
`scanner.Firmware` (scan, debounce, report), `hal_pico.PicoHal` (shift registers, USB CDC).
"""

from __future__ import annotations

import importlib
from typing import Any

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

# Imported on first use, so that `import firmware_bridge` stays light (no threads, ttys or json loading).
_LAZY = {
    "BoardLink": "firmware_bridge.link",
    "LinkCore": "firmware_bridge.core",
    "EmulatedBoard": "firmware_bridge.emulator",
    "InProcessLink": "firmware_bridge.emulator",
    "PtyEmulator": "firmware_bridge.pty_emulator",
    "ScriptedPort": "firmware_bridge.mock",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'firmware_bridge' has no attribute {name!r}")


__all__ = [
    "BoardDump",
    "BoardLink",
    "BoardReading",
    "ButtonEvent",
    "CommandRefused",
    "DiceTray",
    "EmulatedBoard",
    "Event",
    "Heartbeat",
    "Hello",
    "InProcessLink",
    "LinkCore",
    "LinkLost",
    "LinkRestored",
    "Pong",
    "PtyEmulator",
    "ScriptedPort",
    "SquareChanged",
]
