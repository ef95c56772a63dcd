"""`referee dice`: show, roll and teach the SCRABBLE Scramble letter dice.

The faces of the real dice are not in the manual, so the shipped sets are provisional. `teach`
asks for the six faces of each of the twelve dice while someone holds the real dice, and writes a
dice set file in the format of `game/data/dice/` (`game.scramble.dice.DiceSet.from_json` reads it;
`show --file` and `roll --file` use it).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any, TextIO


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("dice", help="show, roll or teach the Scramble letter dice")
    dice_sub = p.add_subparsers(dest="dice_command", metavar="ACTION", required=True)

    show = dice_sub.add_parser("show", help="print a dice set, one die a line")
    _source_args(show)
    show.set_defaults(handler=handle_show)

    roll = dice_sub.add_parser("roll", help="roll seven dice from a full cup (simulation)")
    _source_args(roll)
    roll.add_argument("--seed", type=int, default=None, help="seed the roll so it repeats")
    roll.set_defaults(handler=handle_roll)

    teach = dice_sub.add_parser(
        "teach", help="type in the faces of your real dice and write a dice set file", description=TEACH_HELP
    )
    teach.add_argument("output", type=Path, help="the dice set file to write (JSON)")
    teach.add_argument("--name", default="mine", help="the set's name (default: mine)")
    teach.add_argument("--language", choices=["en", "de"], default="en", help="the lexicon language (default: en)")
    teach.add_argument("--force", action="store_true", help="overwrite an existing file")
    teach.set_defaults(handler=handle_teach)


TEACH_HELP = (
    "For each of the 12 dice, type its six faces on one line, separated by spaces: a letter and the value "
    "printed under it (Q10), or the letter alone to take the standard tile value of the language (Q). "
    "Write ? for a blank face."
)
TILE_SETS = {"en": "english", "de": "german"}


def _source_args(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--set", dest="set_name", default="english", help="a shipped dice set (english, german)")
    group.add_argument("--file", type=Path, default=None, help="a dice set file, e.g. one written by `dice teach`")


def _load(args: argparse.Namespace) -> Any:
    from game.scramble.dice import DiceSet, load_dice_set

    if args.file is not None:
        return DiceSet.from_json(args.file.read_bytes(), str(args.file))
    return load_dice_set(args.set_name)


def _fail(message: str) -> int:
    print(f"referee dice: {message}", file=sys.stderr)
    return 2


def handle_show(args: argparse.Namespace) -> int:
    from game.errors import RefereeError

    try:
        dice = _load(args)
    except (RefereeError, OSError) as exc:
        return _fail(str(exc))
    flag = " (provisional)" if dice.provisional else ""
    print(f"dice set {dice.name}, language {dice.language}{flag}")
    if dice.note:
        print(dice.note)
    for number, die in enumerate(dice.dice, start=1):
        print(f"die {number:>2}: {die}")
    counts = dice.letters()
    print("faces: " + " ".join(f"{letter}x{n}" for letter, n in sorted(counts.items())))
    return 0


def handle_roll(args: argparse.Namespace) -> int:
    from game.errors import RefereeError
    from game.scramble.cup import Dice

    try:
        dice = _load(args)
    except (RefereeError, OSError) as exc:
        return _fail(str(exc))
    rolled = Dice().roll(dice, random.Random(args.seed))
    print(" ".join(str(shown.face) for shown in rolled.hand))
    return 0


def handle_teach(args: argparse.Namespace) -> int:
    if args.output.exists() and not args.force:
        return _fail(f"{args.output} exists; add --force to overwrite it")
    try:
        text = teach(sys.stdin, sys.stdout, args.name, args.language)
    except EOFError:
        return _fail("input ended before all 12 dice were taught; nothing written")
    except ValueError as exc:
        return _fail(str(exc))
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


def teach(stdin: TextIO, stdout: TextIO, name: str, language: str) -> str:
    """Ask for twelve dice, re-asking a die until its line reads; return the file text.

    A die whose line is wrong (five faces, an unknown letter, a letter whose value differs from the
    same letter on an earlier die) is asked again with the reason, so one typo costs one line.
    """
    from game.errors import NotationError, RefereeError
    from game.scramble.dice import DICE_PER_SET, DiceSet, Die, Face
    from game.tiles import BLANK, load_tile_set

    tiles = load_tile_set(TILE_SETS[language])
    print(TEACH_HELP, file=stdout)
    dice: list[Die] = []
    values: dict[str, int] = {}
    while len(dice) < DICE_PER_SET:
        print(f"die {len(dice) + 1}: ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            raise EOFError
        try:
            faces = []
            for part in line.replace(",", " ").split():
                if len(part) == 1:
                    letter = part.upper()
                    if letter != BLANK and letter not in tiles.values:
                        raise NotationError(f"{letter} is not a letter of the {tiles.name} tiles")
                    faces.append(Face(letter, tiles.values.get(letter, 0)))
                else:
                    faces.append(Face.from_str(part))
            die = Die(tuple(faces))
            for face in die.faces:
                before = values.get(face.letter, face.value)
                if before != face.value:
                    raise NotationError(f"{face.letter} was worth {before} on an earlier die, not {face.value}")
        except RefereeError as exc:
            print(f"  not taken: {exc}; type this die again", file=stdout)
            continue
        values.update((f.letter, f.value) for f in die.faces)
        dice.append(die)
    note = "Taught with `referee dice teach` from the real dice."
    return DiceSet(name, language, tuple(dice), provisional=False, note=note).to_json()
