"""`referee board emulate` and `referee board monitor URL`: the sensor board from the terminal.

`emulate` runs the board firmware on a simulated matrix behind a pseudo-terminal and prints the path to
open (as one would open /dev/ttyACM0); it then reads commands from stdin (`help` lists them).
`monitor` opens any board by URL and prints its events and the board as they come.
The firmware_bridge modules (and so pyserial) are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, TextIO

COMMANDS = """commands (squares like H8; letters only on a coded board):
  place SQUARE [LETTER] [upside-down]   put a tile down (turned 180 degrees)    lift SQUARE   take it away
  word SQUARE across|down LETTERS                     place a word's tiles (occupied squares are kept)
  press N / release N        a button                 roll SLOT DIE FACE / clear SLOT   the dice tray
  unplug / replug            pull and reconnect USB   mute / unmute        the board hangs / recovers
  show                       the board as it lies     help                 quit"""


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("board", help="the sensor board: emulate one, or monitor one")
    board_sub = p.add_subparsers(dest="board_command", metavar="ACTION")

    emu = board_sub.add_parser("emulate", help="run the board firmware on a simulated board behind a pty")
    emu.add_argument("--size", default="15x15", help="board size WIDTHxHEIGHT (default 15x15; Scramble: 9x9)")
    emu.add_argument("--coded", action="store_true", help="coded tiles: squares report letters, not only presence")
    emu.add_argument("--buttons", type=_hello_field("buttons"), default=4, help="buttons on the board (default 4)")
    emu.add_argument("--slots", type=_hello_field("slots"), default=0, help="dice tray slots (default 0: no tray)")
    emu.add_argument("--seed", type=int, default=0, help="seed of the simulated contact bounce")
    emu.add_argument("--link-dir", type=_folder, default=None,
                     help="existing folder for the stable device symlink (default: a temp dir)")
    emu.add_argument("--debounce-ms", type=_hello_field("debounce_ms"), default=30,
                     help="the firmware's debounce time at boot (1 to 1000)")
    emu.add_argument("--heartbeat-ms", type=_hello_field("heartbeat_ms"), default=1000,
                     help="the firmware's heartbeat period at boot (20 to 60000)")
    emu.add_argument("--micropython", action="store_true",
                     help="run the firmware's own main.py on MicroPython (unix port) with a simulated Pico")
    emu.set_defaults(handler=handle_emulate)

    mon = board_sub.add_parser("monitor", help="show a board's live events and picture")
    mon.add_argument("url", help="/dev/ttyACM0, a pty path, emulator://15x15?coded=1, loop://")
    mon.add_argument("--count", type=int, default=0, help="stop after N events (not counting heartbeats, hellos)")
    mon.add_argument("--timeout", type=float, default=0.0, help="stop after this many seconds (default: never)")
    mon.add_argument("--connect-timeout", type=float, default=10.0,
                     help="give up, exit 1, when the board has not answered within this many seconds (default 10)")
    mon.add_argument("--heartbeats", action="store_true", help="print heartbeats too")
    mon.add_argument("--no-grid", action="store_true", help="do not redraw the board after changes")
    mon.add_argument("--debounce-ms", type=int, default=None, help="set the board's debounce time")
    mon.add_argument("--heartbeat-ms", type=int, default=None, help="set the board's heartbeat period")
    mon.set_defaults(handler=handle_monitor)
    p.set_defaults(handler=lambda args: _usage(p))


def _hello_field(name: str) -> Any:
    """An argparse type: a whole number in the range the protocol allows for this HELLO field, else a clear
    argparse error (not a traceback from deep in the emulator)."""
    from firmware_bridge.limits import HELLO_FIELDS

    limits = HELLO_FIELDS[name]

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value not in limits:
            raise argparse.ArgumentTypeError(f"{value} is outside {limits}{': ' + limits.why if limits.why else ''}")
        return value

    return parse


def _folder(text: str) -> str:
    """An argparse type: a folder that exists (named as given, so the user sees the path they typed)."""
    import os

    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text}: no such folder (make it first)")
    return text


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"referee board emulate: --size {text!r}: write WIDTHxHEIGHT, like 15x15") from None
    return width, height


def execute(emulator: Any, line: str, out: TextIO) -> bool:
    """Carry out one command line on a PtyEmulator; False once asked to quit. Mistakes are printed, not raised."""
    from firmware_bridge.errors import BoardLinkError

    words = line.split()
    if not words or words[0].startswith("#"):
        return True
    cmd, rest = words[0].lower(), words[1:]
    try:
        if cmd in ("quit", "exit"):
            return False
        if cmd == "help":
            print(COMMANDS, file=out)
        elif cmd == "place" and len(rest) in (1, 2, 3) and (len(rest) < 3 or rest[2].lower() == "upside-down"):
            emulator.place(rest[0], rest[1] if len(rest) >= 2 else None, upside_down=len(rest) == 3)
        elif cmd == "lift" and len(rest) == 1:
            emulator.lift(rest[0])
        elif cmd == "word" and len(rest) == 3:
            placed = emulator.place_word(rest[0], rest[1], rest[2])
            print(f"placed on {' '.join(placed) or 'nothing new'}", file=out)
        elif cmd in ("press", "release") and len(rest) == 1:
            getattr(emulator, cmd)(int(rest[0]))
        elif cmd == "roll" and len(rest) == 3:
            emulator.roll(int(rest[0]), int(rest[1]), int(rest[2]))
        elif cmd == "clear" and len(rest) == 1:
            emulator.clear_slot(int(rest[0]))
        elif cmd in ("unplug", "replug", "mute", "unmute") and not rest:
            getattr(emulator, cmd)()
            if cmd == "replug":
                print(f"device: {emulator.path}", file=out)
        elif cmd == "show" and not rest:
            print(_physical(emulator), file=out)
        else:
            print(f"error: {line.strip()!r} is not a command; type help", file=out)
    except (BoardLinkError, ValueError) as exc:
        print(f"error: {exc}", file=out)
    out.flush()
    return True


def _physical(emulator: Any) -> str:
    """What lies on the emulated board, drawn like the monitor draws the link's picture."""
    from firmware_bridge.events import BoardReading

    board = emulator.board
    with emulator.lock:
        occupied = board.occupied()
    squares = {name: (board.tile_codes.letter(code) if board.coded else None) for name, code in occupied.items()}
    return BoardReading(board.width, board.height, squares).render()


def handle_emulate(args: argparse.Namespace) -> int:
    from firmware_bridge.emulator import EmulatedBoard
    from firmware_bridge.errors import BoardLinkError
    from firmware_bridge.pty_emulator import PtyEmulator

    width, height = _size(args.size)
    try:
        board = EmulatedBoard(
            width=width,
            height=height,
            coded=args.coded,
            buttons=args.buttons,
            slots=args.slots,
            seed=args.seed,
            debounce_ms=args.debounce_ms,
            heartbeat_ms=args.heartbeat_ms,
        )
    except BoardLinkError as exc:
        print(f"referee board emulate: {exc}", file=sys.stderr)
        return 2
    emulator: Any
    try:
        if args.micropython:
            from firmware_bridge.micropython_board import MicroPythonBoard

            emulator = MicroPythonBoard(width=width, height=height, coded=args.coded, buttons=args.buttons,
                                        slots=args.slots, seed=args.seed, debounce_ms=args.debounce_ms,
                                        heartbeat_ms=args.heartbeat_ms, link_dir=args.link_dir)
        else:
            emulator = PtyEmulator(board, link_dir=args.link_dir)
        emulator.start()
    except BoardLinkError as exc:  # the folder went away since the arguments were read, or no MicroPython
        print(f"referee board emulate: {exc}", file=sys.stderr)
        return 2
    try:
        kind = "coded tiles" if args.coded else "presence only"
        if args.micropython:
            kind += ", the firmware on MicroPython"
        print(f"device: {emulator.path}")
        print(f"(a {width}x{height} board, {kind}, {args.buttons} buttons, {args.slots} tray slots; type help)")
        print(f"(watch it from another terminal: referee board monitor {emulator.path})")
        sys.stdout.flush()
        for line in sys.stdin:
            if not execute(emulator, line, sys.stdout):
                break
        else:
            # stdin closed (run in the background): keep the board plugged in until interrupted.
            while True:
                time.sleep(3600)
    finally:
        emulator.stop()
    return 0


def handle_monitor(args: argparse.Namespace) -> int:
    from firmware_bridge.errors import BoardLinkError
    from firmware_bridge.events import BoardDump, Heartbeat, Hello, LinkLost, SquareChanged
    from firmware_bridge.link import BoardLink

    if "://" not in args.url and not os.path.exists(args.url):
        # A device path that does not exist will not appear by retrying: say so at once, in one line. (A
        # device that exists but does not answer, or a URL, is waited for up to --connect-timeout.)
        print(f"referee board monitor: {args.url}: no such device (a board on USB is usually /dev/ttyACM0)",
              file=sys.stderr)
        return 2
    try:
        link = BoardLink(args.url, debounce_ms=args.debounce_ms, heartbeat_ms=args.heartbeat_ms)
    except BoardLinkError as exc:
        print(f"referee board monitor: {exc}", file=sys.stderr)
        return 2
    link.start()
    counted = 0
    start = time.monotonic()
    reached = False  # the board has answered (a Hello); until then the wait is bounded by --connect-timeout
    why = "no answer"
    try:
        print(f"monitoring {args.url} (Ctrl-C to stop)")
        sys.stdout.flush()
        while True:
            elapsed = time.monotonic() - start
            left = args.timeout - elapsed if args.timeout else 1.0
            if not reached:
                left = min(left, args.connect_timeout - elapsed)
            if left <= 0:
                break
            event = link.get(timeout=min(left, 1.0))
            if event is None:
                continue
            if isinstance(event, LinkLost) and not reached:  # not the board's doing: not counted
                why = event.reason
                print(event)
                sys.stdout.flush()
                continue
            if isinstance(event, Heartbeat):
                if args.heartbeats:
                    print(f"heartbeat: up {event.uptime_ms} ms, {event.scans_per_s} scans/s")
                continue
            if isinstance(event, Hello):  # informative, and sent twice at a handshake: not counted
                reached = True
                kind = "coded tiles" if event.coded else "presence only"
                print(f"board: {event.width}x{event.height}, {kind}, protocol v{event.version}")
                continue
            counted += 1
            if isinstance(event, BoardDump):
                print(f"board dump @{event.picture.board_ms}ms")
                if not args.no_grid:
                    print(event.picture.render())
            else:
                print(event)
                if isinstance(event, SquareChanged) and not args.no_grid and link.events.empty():
                    print(link.picture().render())
            sys.stdout.flush()
            if args.count and counted >= args.count:
                break
    finally:
        link.stop()
        stats = {k: v for k, v in link.stats.items() if v}
        print("link counters: " + (", ".join(f"{k}={v}" for k, v in sorted(stats.items())) or "none"))
    if not reached:
        waited = min(args.connect_timeout, args.timeout) if args.timeout else args.connect_timeout
        print(f"referee board monitor: the board at {args.url} could not be reached within {waited:g} s ({why})",
              file=sys.stderr)
        return 1
    return 0
