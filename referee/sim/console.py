"""Typing at the simulated table: `referee run --sim` reads commands from its terminal and acts on the
emulated sensor board, as hands on a real board would, and on the table, as the page's buttons would.

    place H8 Q      lay a tile (a letter, or ? for a blank)     lift H8        take it off
    word 8E QUIZ    lay a GCG move's new tiles                  press 0        player 0's clock button
    unplug          pull the board's USB cable                  replug         plug it back
    clear           every tile off the board (before the next game)
    roll            Scramble: a random roll of the dice in the cup into the tray (emptied first)
    roll clear      Scramble: take the dice out of the tray
    roll SLOT DIE FACE   one die into the tray (slot 1-7, die 1-12 as `referee dice show` numbers them,
                    face 1-6 in that order, or the face's letter)
    start, pause, resume, pass, accept, new      the page's buttons
    exchange 3      challenge [PLAYER [WORDS]]   blank H8 E     correct H8 E     racks 0 AEQ
    help            this list

What the table answers (a score, a question, a verdict) is printed by `referee.sim.narrator`; the commands
here print only what went wrong, in the table's language.
"""

from __future__ import annotations

import contextlib
import random
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any, TextIO

USAGE = {"place": "place H8 Q", "lift": "lift H8", "word": "word 8E QUIZ", "press": "press 0",
         "unplug": "unplug", "replug": "replug", "roll": "roll SLOT DIE FACE", "exchange": "exchange 3",
         "challenge": "challenge 1", "blank": "blank H8 E", "correct": "correct H8 E", "racks": "racks 0 AEQ",
         "clear": "clear", "start": "start", "pause": "pause", "resume": "resume", "pass": "pass",
         "accept": "accept", "new": "new"}
PRESS_S = 0.12  # how long a finger holds the button: longer than the board's 30 ms debounce
SIMPLE_ACTIONS = {"start": "start", "pause": "pause", "resume": "resume", "pass": "pass", "accept": "accept",
                  "new": "new_game"}


class Refused(ValueError):
    """A console command that cannot be carried out, in words for the player (already in the table's language)."""


def execute(emulator: Any, line: str, language: str = "en", table: Any = None,
            rng: random.Random | None = None) -> str:
    """Run one command against the emulator (and `table`, the `LiveTable`, for the page's actions); returns
    what to print ("" for nothing), in `language` (the table's: a German table's console answers in German;
    the commands themselves stay as typed)."""
    from game.squares import Position
    from referee.table.api import ControlError
    from referee.words import say

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
                return say("terminal", "press_number", language, arg=args[0], usage=USAGE["press"])
            button = int(args[0])
            emulator.press(button)
            threading.Timer(PRESS_S, emulator.release, args=(button,)).start()
            if table is not None:
                return _not_on_turn(table, button, language)
        elif cmd == "clear" and not args:  # a hand sweeping the board: every tile off (before the next game)
            for square in _occupied(emulator):
                emulator.lift(square)
        elif cmd == "unplug" and not args:
            emulator.unplug()
        elif cmd == "replug" and not args:
            emulator.replug()
        elif cmd == "roll" and args == ["clear"]:
            for slot in range(_slots(emulator)):
                emulator.clear_slot(slot)
        elif cmd == "roll" and len(args) == 3:
            _roll_one(emulator, table, args, language)
        elif cmd == "roll" and not args and table is not None:
            _roll_random(emulator, table, language, rng or random.Random())
        elif cmd == "help":
            return say("terminal", "help", language)
        elif table is not None and cmd in SIMPLE_ACTIONS and not args:
            _control(table, SIMPLE_ACTIONS[cmd], {})
        elif table is not None and cmd in ("exchange", "challenge", "blank", "correct", "racks"):
            params = _table_params(table, cmd, args)
            if params is None:
                return say("terminal", "usage", language, cmd=cmd, usage=USAGE[cmd])
            _control(table, cmd, params)
        elif cmd in USAGE:
            return say("terminal", "usage", language, cmd=cmd, usage=USAGE[cmd])
        else:
            return say("terminal", "unknown", language, line=line.strip())
    except Refused as exc:
        return f"{cmd}: {exc}"
    except ControlError as exc:
        said = exc.text(language)
        return said if said.startswith(f"{cmd}:") else say("terminal", "failed", language, cmd=cmd, error=said)
    except (ValueError, KeyError) as exc:
        return say("terminal", "failed", language, cmd=cmd, error=exc)
    return ""


def _not_on_turn(table: Any, button: int, language: str) -> str:
    """A clock button pressed in another player's turn does nothing at a table (as on a chess clock); the console
    says whose turn it is, so a player at the terminal is not left wondering."""
    from referee.table.state import TableState
    from referee.words import say

    with table.reading() as now:
        if now.state is not TableState.TURN or button == now.on_turn or not 0 <= button < len(now.players):
            return ""
        return say("terminal", "press_not_turn", language, button=button, name=now.players[button],
                   mover=now.players[now.on_turn], on_turn=now.on_turn)


def _control(table: Any, action: str, params: dict[str, Any]) -> None:
    """The page's action, its parameters checked as the page checks them."""
    from referee.web.validation import parse_control

    table.control(action, parse_control(action, params, table.snapshot()))


def _table_params(table: Any, cmd: str, args: list[str]) -> dict[str, Any] | None:
    """The parameters of a page action typed at the console; None when the words do not fit it."""
    pending = table.snapshot().get("pending") or {}
    if cmd == "exchange":
        return {"count": args[0]} if len(args) == 1 else None
    if cmd == "challenge":
        if len(args) > 2:
            return None
        if not args:  # the challenge button: the player whose clock runs now challenges
            with table.reading() as now:
                return {"player": now.on_turn}
        return {"player": args[0], **({"words": args[1]} if len(args) == 2 else {})}
    if cmd in ("blank", "correct"):
        if len(args) == 2:
            return {"square": args[0], "letter": args[1]}
        asked = pending.get("blanks" if cmd == "blank" else "letters") or []
        return {"square": asked[0], "letter": args[0]} if len(args) == 1 and len(asked) == 1 else None
    if cmd == "racks":
        if args and args[0].isdigit():
            return {"player": args[0], "tiles": "".join(args[1:])}
        asked = pending.get("racks") or []
        return {"player": asked[0], "tiles": "".join(args)} if asked else None
    return None


# --- Scramble's dice tray --------------------------------------------------------------------------


def _number(text: str, what: str, last: int, language: str) -> int:
    from referee.words import say

    if not text.isdigit() or not 1 <= int(text) <= last:
        raise Refused(say("terminal", "roll_range", language, what=what, value=text, last=last))
    return int(text) - 1


def _in_cup(table: Any) -> tuple[set[int], int, tuple[Any, ...]]:
    """The dice (0-based) in the cup, how many the mover rolls now, and the set's dice."""
    with table.reading() as now:
        return set(now.cup), now.dice_to_draw, now.dice


def _roll_one(emulator: Any, table: Any, args: list[str], language: str) -> None:
    """`roll SLOT DIE FACE`: one die into a tray slot, numbered as `referee dice show` prints them."""
    from referee.words import say

    slot = _number(args[0], say("terminal", "roll_slot", language), _slots(emulator), language)
    dice: tuple[Any, ...] = ()
    if table is not None:
        cup, _, dice = _in_cup(table)
    die = _number(args[1], say("terminal", "roll_die", language), len(dice) or 12, language)
    if table is not None and dice and die not in cup:
        raise Refused(say("terminal", "roll_not_in_cup", language, die=die + 1, cup=_numbers(cup)))
    face_text = args[2]
    if face_text.isdigit():
        face = _number(face_text, say("terminal", "roll_face", language), 6, language)
    elif dice:
        letters = [f.letter for f in dice[die].faces]
        wanted = face_text.upper()
        if wanted not in letters:
            raise Refused(say("terminal", "roll_no_face", language, die=die + 1, letter=wanted,
                              faces=" ".join(letters)))
        face = letters.index(wanted)
    else:
        raise Refused(say("terminal", "roll_range", language, what=say("terminal", "roll_face", language),
                          value=face_text, last=6))
    tray = getattr(emulator, "tray", None)
    held = tray() if tray is not None else {}
    other = next((s for s, (d, _) in held.items() if d == die and s != slot), None)
    if other is not None:
        raise Refused(say("terminal", "roll_twice", language, die=die + 1, slot=other + 1))
    emulator.roll(slot, die, face)


def _roll_random(emulator: Any, table: Any, language: str, rng: random.Random) -> None:
    """`roll`: the tray emptied, then as many dice as the mover rolls, drawn from the cup, each on a random face."""
    from referee.words import say

    cup, count, dice = _in_cup(table)
    if not dice:
        raise Refused(say("terminal", "roll_not_scramble", language))
    if count == 0:
        raise Refused(say("terminal", "roll_not_now", language))
    for slot in range(_slots(emulator)):
        emulator.clear_slot(slot)
    for slot, die in enumerate(rng.sample(sorted(cup), count)):
        emulator.roll(slot, die, rng.randrange(len(dice[die].faces)))


def _occupied(emulator: Any) -> list[str]:
    """The squares holding a tile on the emulated board now."""
    board = getattr(emulator, "board", None)
    if board is None:
        return []
    with getattr(emulator, "lock", contextlib.nullcontext()):
        return sorted(board.occupied())


def _slots(emulator: Any) -> int:
    """The tray's slots (7 on the simulated table's board)."""
    return int(getattr(getattr(emulator, "board", None), "slots", 7) or 7)


def _numbers(dice: Iterable[int]) -> str:
    return " ".join(str(d + 1) for d in sorted(dice)) or "-"


def start_console(emulator: Any, stream: TextIO | Iterable[str] = sys.stdin,
                  out: TextIO | Callable[[str], None] = sys.stdout, language: str = "en",
                  table: Any = None) -> threading.Thread:
    """Read commands from `stream` (a text stream, or `Screen.lines()`) on a thread of its own; what a command
    says goes to `out` (a stream, or a function such as `Screen.say`)."""
    def tell(reply: str) -> None:
        if callable(out):
            out(reply)
        else:
            print(reply, file=out, flush=True)

    def loop() -> None:
        for line in stream:
            try:
                reply = execute(emulator, line, language, table)
            except Exception as exc:  # a command must never end the console: the players keep typing
                reply = f"{line.strip()}: {exc}"
            if reply:
                tell(reply)

    t = threading.Thread(target=loop, name="sim-console", daemon=True)
    t.start()
    return t
