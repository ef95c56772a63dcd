"""`referee demo [GCG]`: play a recorded game through the simulated table, end to end.

The record's moves are laid on the emulated sensor board and committed with its clock buttons;
the referee reads them (board over a pty, synthetic camera), scores them with the engine and shows
them on the scoreboard page. Without a file it plays a short built-in game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from typing import Any


def _wait_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 1 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} s: give 1 to 3600 seconds")
    return value


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("demo", help="play a recorded game (GCG) through the simulated table")
    p.add_argument("gcg", nargs="?", help="a GCG record (default: a short built-in game)")
    p.add_argument("--port", type=int, default=None,
                   help="scoreboard port (default 8080, or a free one when 8080 is taken)")
    p.add_argument("--pause", type=float, default=1.0, help="seconds between moves, to watch (default 1)")
    p.add_argument("--wait", type=_wait_seconds, default=20.0, metavar="SECONDS",
                   help="how long the robots wait for the table to take each step (default 20; an emulated "
                        "machine such as `make pi-check` under qemu needs far longer)")
    p.add_argument("--no-camera", action="store_true", help="read letters from the coded sensor board only")
    p.add_argument("--tiles", choices=("english", "german"), default=None,
                   help="the tile set (default: the record's #tile-distribution, else english)")
    stay = p.add_mutually_exclusive_group()
    stay.add_argument("--stay", action="store_true", default=None,
                      help="keep serving the page after the game until Ctrl-C (the default in a terminal)")
    stay.add_argument("--exit", action="store_false", dest="stay", help="stop as soon as the game is played")
    p.add_argument("--state-dir", default=None, help="where the journal goes (default: a new temp folder)")
    p.add_argument("--speech", action="store_true", help="say each play, challenge and the end aloud (espeak-ng)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from game.errors import RefereeError
    from referee.demo import DemoDriver, RecordJudge, load_record
    from referee.service import TableService
    from referee.sim.parts import sim_config, sim_parts
    from referee.words import say

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        record = load_record(args.gcg)
        names = tuple((p.name or p.nick)[:40] for p in record.players)
        variant = (record.variant or "").lower()  # scramble, scramble-advanced, scramble-german, ...
        kind = ("scramble-advanced" if variant.startswith("scramble-advanced")
                else "scramble" if variant.startswith("scramble") else "standard")
        tiles = args.tiles or record_edition(record)
        config = sim_config(state_dir=args.state_dir, port=args.port or _port_to_use(8080), players=names,
                            edition=tiles, fusion="sensors" if args.no_camera or kind != "standard" else "both",
                            challenge=challenge_rule(record), kind=kind,
                            clock_mode="tournament" if kind == "standard" else "none", speech=args.speech,
                            language="de" if tiles == "german" else "en",
                            end_racks=end_rack_rule(record) if kind == "standard" else "")
        lang = config.table.language
        camera = say("terminal", "demo_camera" if config.sensors.camera else "demo_no_camera", lang)
        print(f"referee demo: {say('terminal', 'demo_starting', lang, camera=camera)}", flush=True)
        parts = sim_parts(config)
        judge = RecordJudge()
        parts.lexicon = judge
        service = TableService(parts)
    except RefereeError as exc:
        print(f"referee demo: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the record cannot be read: its name and the reason in words, no errno
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"referee demo: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    service.start()
    try:
        return asyncio.run(_main(service, DemoDriver(service, record, judge, pause_s=args.pause, out=sys.stdout,
                                                     language=lang, timeout_s=args.wait), args))
    except OSError as exc:
        print(f"referee demo: cannot serve the page: {exc}", file=sys.stderr)
        return 1
    finally:
        service.close()


def _port_to_use(preferred: int) -> int:
    """`preferred` if nothing listens there, else a free port (so `make run` works beside another server)."""
    import socket

    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", preferred))
            return preferred
        except OSError:
            pass
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def record_edition(record: Any) -> str:
    """The edition a record was played with: its #tile-distribution or #variant when it names German,
    else German when its letters (Ä, Ö, Ü) are German tiles and not English ones, else English."""
    from game.gcg_check import record_letters
    from game.tiles import load_tile_set

    variant = (record.variant or "").lower()
    if "german" in record.pragmas.get("tile-distribution", "").lower() or variant.endswith("-german"):
        return "german"
    from referee.demo import DemoError

    letters = record_letters(record) - {"?"}
    english, german = load_tile_set("english"), load_tile_set("german")
    if all(english.has_letter(ch) for ch in letters):
        return "english"
    if all(german.has_letter(ch) for ch in letters):
        return "german"
    strange = "".join(sorted(ch for ch in letters if not german.has_letter(ch) and not english.has_letter(ch)))
    raise DemoError(f"the record's letters {strange} are neither English nor German tiles, the two editions a "
                    "table plays (`referee gcg check` replays it with the tile set it needs)")


def end_rack_rule(record: Any) -> str:
    """The end-rack rule a record was played under, read as `referee gcg check` reads it (the same function):
    "each-way" when the record both takes racks off and gives them to the player out, else "double"."""
    from game.gcg_check import rules_for_record
    from game.rules import naspa

    rules, _ = rules_for_record(record, naspa())
    return rules.end_racks.value if rules is not None else ""


def challenge_rule(record: Any) -> str:
    """The challenge rule a record was played under, from its challenge bonuses (none: double)."""
    from game.gcg import MoveKind

    bonuses = [m.score for m in record.moves if m.kind is MoveKind.CHALLENGE_BONUS]
    if not bonuses:
        return "double"
    # the value most bonuses have, as `referee gcg check` reads it: +10 among +5s is the 5-point rule owed for
    # two words [WESPA], which the table cannot be told (it owes 5 per challenge)
    common = max(bonuses, key=lambda b: (bonuses.count(b), -bonuses.index(b)))
    return "ten-point" if common == 10 else "five-point"


async def _main(service: Any, driver: Any, args: argparse.Namespace) -> int:
    from referee.table.state import TableState
    from referee.words import say

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def stop_all() -> None:
        stop.set()
        driver.stop.set()  # the robot players stop at their next wait, not at the record's end

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop_all)
    ready = asyncio.Event()
    runner = asyncio.create_task(service.run(stop, ready.set))
    await ready.wait()
    lang = service.config.table.language
    watch = say("terminal", "demo_watch", lang, url=service.web_url or "(no page)", pin=service.config.web.pin)
    print(f"referee demo: {watch}", flush=True)
    code = 0
    try:
        result = await loop.run_in_executor(None, driver.run)
        scores = ", ".join(f"{n} {s}" for n, s in result.final)
        how = say("terminal", "demo_ended" if result.state is TableState.ENDED else "demo_stops_early", lang)
        if result.stopped:
            s = "" if result.moves == 1 else "s"
            print(f"referee demo: {say('terminal', 'demo_stopped', lang, moves=result.moves, s=s, scores=scores)}")
            return 130
        print(f"referee demo: {say('terminal', 'demo_played', lang, moves=result.moves, how=how, scores=scores)}")
        if result.mismatches:
            n = len(result.mismatches)
            print(f"referee demo: {say('terminal', 'demo_differ_one' if n == 1 else 'demo_differ', lang, n=n)}")
            for m in result.mismatches:
                print(f"  {m}")
            code = 1
        else:
            print(f"referee demo: {say('terminal', 'demo_agree', lang, n=result.compared)}")
        stay = args.stay if args.stay is not None else sys.stdin.isatty() and sys.stdout.isatty()
        if stay and service.web_url:
            print(f"referee demo: {say('terminal', 'demo_serving', lang, url=service.web_url)}", flush=True)
            await stop.wait()
    except Exception as exc:
        print(f"referee demo: {exc}", file=sys.stderr)
        code = 1
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await runner
    return code
