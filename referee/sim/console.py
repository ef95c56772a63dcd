"""Typing at the simulated table: `referee run --sim` reads commands from its terminal and acts on the
emulated sensor board, as hands on a real board would.

    place H8 Q      lay a tile (a letter, or ? for a blank)     lift H8        take it off
    word 8E QUIZ    lay a GCG move's new tiles                  press 0        player 0's clock button
    unplug          pull the board's USB cable                  replug         plug it back
    roll SLOT DIE FACE   a die into the dice tray (Scramble)    help           this list
"""

from __future__ import annotations

import sys
import threading
from typing import Any, TextIO

HELP = __doc__.split("\n\n", 1)[1] if __doc__ else ""
USAGE = {"place": "place H8 Q", "lift": "lift H8", "word": "word 8E QUIZ", "press": "press 0",
         "unplug": "unplug", "replug": "replug", "roll": "roll SLOT DIE FACE"}
PRESS_S = 0.12  # how long a finger holds the button: longer than the board's 30 ms debounce


def execute(emulator: Any, line: str, language: str = "en") -> str:
    """Run one command against the emulator; returns what to print ("" for nothing), in `language` (the
    table's: a German table's console answers in German; the commands themselves stay as typed)."""
    from game.squares import Position
    from referee.terminal_text import say

    parts = line.split()
    if not parts:
        return ""
    cmd, args = parts[0].lower(), parts[1:]
    try:
        if cmd == "place" and len(args) == 2:
            emulator.place(args[0].upper(), args[1].upper() if args[1] != "?" else "?")
        elif cmd == "lift" and len(args) == 1:
            emulator.lift(args[0].upper())
        elif cmd == "word" and len(args) == 2:
            pos = Position.from_str(args[0])
            placed: list[str] = []
            try:
                for i, ch in enumerate(args[1]):
                    if ch != ".":
                        square = str(pos.start.step(pos.direction, i))
                        emulator.place(square, "?" if ch.islower() else ch.upper())
                        placed.append(square)
            except (ValueError, KeyError):
                for square in placed:  # all of the word or none of it: a typo leaves no stray tiles
                    emulator.lift(square)
                raise
        elif cmd == "press" and len(args) == 1:
            if not args[0].isdigit():
                return say("press_number", language, arg=args[0], usage=USAGE["press"])
            button = int(args[0])
            emulator.press(button)
            threading.Timer(PRESS_S, emulator.release, args=(button,)).start()
        elif cmd == "unplug" and not args:
            emulator.unplug()
        elif cmd == "replug" and not args:
            emulator.replug()
        elif cmd == "roll" and len(args) == 3:
            if not all(a.isdigit() for a in args):
                return say("roll_numbers", language, usage=USAGE["roll"])
            emulator.roll(int(args[0]), int(args[1]), int(args[2]))
        elif cmd == "help":
            return say("help", language)
        elif cmd in USAGE:
            return say("usage", language, cmd=cmd, usage=USAGE[cmd])
        else:
            return say("unknown", language, line=line.strip())
    except (ValueError, KeyError) as exc:
        return say("failed", language, cmd=cmd, error=exc)
    return ""


def start_console(emulator: Any, stream: TextIO = sys.stdin, out: TextIO = sys.stdout,
                  language: str = "en") -> threading.Thread:
    def loop() -> None:
        for line in stream:
            reply = execute(emulator, line, language)
            if reply:
                print(reply, file=out, flush=True)

    t = threading.Thread(target=loop, name="sim-console", daemon=True)
    t.start()
    return t
