"""`referee run`: the referee service.

    referee run --config /etc/referee/table.toml     a real table (what systemd starts)
    referee run --sim [--port 8080] [--state-dir D]  the simulated table: board emulator over a pty,
                  [--language de] [--players A,B]    synthetic camera, mock GPIO, clocks in the terminal,
                  [--challenge R] [--clock M]        the game told there and played by typing
                  [--minutes N] [--edition E]        (referee.sim.console, narrator, screen)

`--language de` alone is a German table in every way: German page and terminal, and the German edition's
tiles (102, Ä Ö Ü, German values), so an emulated board's Ä is read and scored as Ä. `--edition` sets the
tiles apart from the language (an English set at a German-speaking table).

The simulated table's terminal is where the game is typed and told, so its log goes to `referee.log` in the
state folder and only warnings reach the terminal (all of it with -v). A real table logs to stderr at INFO
(systemd's journal keeps it). On Ctrl-C the program says where the journal is and how to export the game.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import signal
import sys
from typing import Any

from referee.table.setup import CHALLENGE_RULES, CLOCK_MODES, EDITIONS

# The simulated table's options and the configuration keys they set (its errors name the option, not the key).
SIM_OPTIONS = {"--players": "game.players", "--challenge": "game.challenge", "--clock": "clocks.mode",
               "--minutes": "clocks.minutes_per_player", "--edition": "game.edition"}
LANGUAGE_EDITION = {"en": "english", "de": "german"}  # a table's language -> the tiles it plays with by default


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "run", help="run the referee service (a real table with --config, the simulated table with --sim)")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--config", metavar="FILE", help="the table's TOML configuration (docs/configuration.md)")
    g.add_argument("--sim", "--simulated", action="store_true", dest="sim",
                   help="run a simulated table: emulated sensor board, synthetic camera, mock GPIO")
    p.add_argument("--port", type=int, default=None, help="scoreboard port for --sim (default 8080)")
    p.add_argument("--state-dir", default=None, help="where --sim keeps its journal (default: a new temp folder)")
    p.add_argument("--no-camera", action="store_true", help="--sim without the synthetic camera")
    p.add_argument("--speech", action="store_true", help="--sim: say plays, challenges and the end aloud (espeak-ng)")
    p.add_argument("--game", choices=("standard", "scramble", "scramble-advanced"), default="standard",
                   help="--sim: the game (Scramble runs on a 9x9 mat with a dice tray, without the camera)")
    p.add_argument("--language", choices=("en", "de"), default="en",
                   help="--sim: the table's language (a German table: page, alerts and this terminal in German, "
                        "and the German edition's tiles unless --edition says otherwise)")
    sim = p.add_argument_group("the simulated table's game (--sim)")
    sim.add_argument("--players", default=None, metavar="NAMES",
                     help="--sim: 2 to 4 players, by name, comma-separated (default: Anna,Ben)")
    sim.add_argument("--challenge", choices=CHALLENGE_RULES, default=None,
                     help="--sim: the challenge rule (default double)")
    sim.add_argument("--clock", choices=CLOCK_MODES, default=None,
                     help="--sim: tournament game clocks, a turn timer, or none (default: tournament; Scramble: "
                          "none)")
    sim.add_argument("--minutes", type=float, default=None,
                     help="--sim: minutes on each player's clock (default 25)")
    sim.add_argument("--edition", choices=EDITIONS, default=None,
                     help="--sim: the tile set (default: the language's own, german for --language de)")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from game.errors import RefereeError
    from referee.config import load_config
    from referee.service import TableService

    if not args.sim:
        given = [flag for flag, value in (("--port", args.port), ("--state-dir", args.state_dir),
                                          ("--no-camera", args.no_camera or None),
                                          ("--speech", args.speech or None),
                                          ("--game", None if args.game == "standard" else args.game),
                                          ("--language", None if args.language == "en" else args.language),
                                          *((flag, getattr(args, flag[2:])) for flag in SIM_OPTIONS))
                 if value is not None and value is not False]
        if given:
            print(f"referee: {', '.join(given)} {'is' if len(given) == 1 else 'are'} for --sim; with --config the "
                  "file says it (web.port, table.state_dir, sensors.camera, game.kind, table.language, game.players, "
                  "game.challenge, clocks.mode, clocks.minutes_per_player, game.edition)",
                  file=sys.stderr)
            return 2
    before = list(logging.getLogger().handlers)
    screen: Any = None
    screen_log: logging.StreamHandler[Any] | None = None
    try:
        if args.sim:
            from referee.sim.parts import sim_parts

            config = _sim_config(args)
            to_stderr = _log_to_file(config.table.state_dir / "referee.log", args.verbose)
            if sys.stdin.isatty() and sys.stdout.isatty():
                from referee.sim.screen import Screen

                screen = Screen(sys.stdout, sys.stdin.fileno())
                screen_log = to_stderr
            parts = sim_parts(config, terminal=screen or (sys.stdout if sys.stdout.isatty() else None))
        else:  # a real table: built by referee.parts, without importing the simulator
            from referee.parts import real_parts

            logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                                format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
            config = load_config(args.config)
            parts = real_parts(config, terminal=sys.stdout if sys.stdout.isatty() else None)
        from referee import log_limits

        for handler in logging.getLogger().handlers:
            if handler not in before:  # the service's own handlers, not one a host program (a test) set up
                log_limits.install(handler)  # a flood must not fill the SD card the journal lives on
        if config.web.enabled:
            # Before the journal opens a game for a table whose page cannot be served.
            from referee.web.addresses import CannotServe, check_bind

            try:
                check_bind(config.web.host, config.web.port)
            except CannotServe as exc:
                where = str(exc).replace("web.port: ", "--port: ", 1) if args.sim else f"{config.source}: {exc}"
                print(f"referee: {where}", file=sys.stderr)
                return 2 if exc.config_error else 1
        service = TableService(parts)
    except RefereeError as exc:
        print(f"referee: {exc}", file=sys.stderr)
        return 2
    service.start()
    try:
        asyncio.run(_serve(service, screen=screen, screen_log=screen_log, sim=args.sim))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            where = "--port" if args.sim else f"{config.source}: web.port"
            print(f"referee: {where}: port {config.web.port} is already in use by another program (another "
                  f"referee?); stop it or choose another port", file=sys.stderr)
        else:
            print(f"referee: cannot serve the page: {exc}", file=sys.stderr)
        return 1
    finally:
        service.close()
        if screen is not None:
            screen.close()  # the terminal's own mode back before the last words
        _goodbye(service, config.table.language)
    return 0


def _sim_config(args: argparse.Namespace) -> Any:
    """The simulated table's configuration from the options; a wrong value is named by its option."""
    from referee.config import ConfigError
    from referee.sim.parts import sim_config

    standard = args.game == "standard"
    players = tuple(name.strip() for name in args.players.split(",")) if args.players is not None else ("Anna", "Ben")
    try:
        return sim_config(state_dir=args.state_dir, port=args.port or 8080, kind=args.game,
                          fusion="both" if standard and not args.no_camera else "sensors",
                          clock_mode=args.clock or ("tournament" if standard else "none"), speech=args.speech,
                          language=args.language, players=players, challenge=args.challenge or "double",
                          edition=sim_edition(args.language, args.edition), minutes=args.minutes)
    except ConfigError as exc:
        option = next((flag for flag, key in SIM_OPTIONS.items() if key == exc.key), None)
        if option is None:
            raise
        raise ConfigError("--sim", option, exc.reason) from None


def sim_edition(language: str, edition: str | None) -> str:
    """The simulated table's tiles: `--edition` when given, else the language's own edition. A German table
    on English tiles read the emulated board's Ä as A and challenged ÄRGER off as ARGER (issue 25)."""
    if edition:
        return edition
    return LANGUAGE_EDITION.get(language, "english")


def _log_to_file(path: Any, verbose: bool) -> logging.StreamHandler[Any]:
    """The simulated table's log: everything (INFO, or DEBUG with -v) to `path`; warnings to stderr, so the
    web server's lines never land between the board commands typed in the terminal."""
    from pathlib import Path

    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    to_file = logging.FileHandler(path, encoding="utf-8")
    to_file.setFormatter(fmt)
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setFormatter(fmt)
    to_stderr.setLevel(logging.DEBUG if verbose else logging.WARNING)
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.addHandler(to_file)
    root.addHandler(to_stderr)
    return to_stderr


def _goodbye(service: Any, language: str) -> None:
    """After Ctrl-C (or a stop): where the game is kept and the one command that exports it."""
    from referee.cli import command_name
    from referee.words import say

    game_id = getattr(service.table, "game_id", None)
    if game_id is None:
        return
    state_dir = service.config.table.state_dir
    command = f"{command_name()} games export {game_id} --gcg --state-dir {state_dir}"
    print(f"\nreferee: {say('terminal', 'journal', language, path=state_dir / 'games.sqlite3')}", flush=True)
    print(f"referee: {say('terminal', 'export', language, command=command)}", flush=True)


async def _serve(service: Any, *, screen: Any = None, screen_log: logging.StreamHandler[Any] | None = None,
                 sim: bool = False) -> None:
    from referee.table.state import TableState

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    from referee.words import say

    lang = service.config.table.language

    def started() -> None:
        snap = service.table.snapshot()
        players = ", ".join(f"{p['name']} {p['score']}" for p in snap["players"])
        where = say("terminal", "page", lang, url=service.web_url) if service.web_url else ""
        print("referee: " + say("terminal", "status", lang, game=service.table.game_id, state=snap["state"],
                                players=players, where=where), flush=True)
        if service.web_url:
            others = f" (or {', '.join(service.web_urls[1:])})" if len(service.web_urls) > 1 else ""
            print(f"referee: {say('terminal', 'listens', lang, where=service.web_listen)}", flush=True)
            print(f"referee: {say('terminal', 'watch', lang, url=service.web_url)}{others}", flush=True)
        if service.link is not None and service.link.emulator is not None:  # --sim, or emulator:// in a file
            from referee.pin_policy import DEMO_PIN

            # Only the demo's published PIN is ever printed: stdout of a real table goes to journald, which
            # anyone in the systemd-journal group (and every backup of /var/log) reads.
            public = service.config.web.pin == DEMO_PIN
            waiting = snap["state"] == TableState.WAITING  # not a game resumed from the journal
            start = say("terminal", "start_pin", lang, pin=DEMO_PIN) if public else say("terminal", "start", lang)
            start = start if waiting else ""
            print(f"referee: {say('terminal', 'emulator', lang, path=service.link.emulator.path)}{start}", flush=True)
            if service.relaid:
                print(f"referee: {say('terminal', 'relaid', lang, count=service.relaid)}", flush=True)
            log_file = service.config.table.state_dir / "referee.log"
            if any(getattr(h, "baseFilename", None) == str(log_file.resolve())
                   for h in logging.getLogger().handlers):
                print(f"referee: {say('terminal', 'log_file', lang, path=log_file)}", flush=True)
            _start_console(service, lang, screen, screen_log, sim)

    await service.run(stop, started)


def _start_console(service: Any, lang: str, screen: Any, screen_log: logging.StreamHandler[Any] | None,
                   sim: bool) -> None:
    """The terminal of a table on an emulated board: the table's news printed as it happens, and commands read
    from the terminal (a Screen when a person types at a terminal; lines from a pipe for a simulated table)."""
    typing = sys.stdin.isatty()
    if not typing and not sim:
        return  # a real service's stdin (systemd's /dev/null): nobody types there
    from referee.sim.console import start_console
    from referee.sim.narrator import Narrator
    from referee.words import say

    emulator, table = service.link.emulator, service.table
    if screen is not None:
        from referee.sim.screen import Above

        print(f"referee: {say('terminal', 'type_here', lang)}", flush=True)
        screen.open()
        if screen_log is not None:
            screen_log.setStream(Above(screen))  # a warning goes above the typing
        _narrate(table, Narrator(screen.say, lang))
        start_console(emulator, screen.lines(), screen.say, lang, table)
        return
    if typing:
        print(f"referee: {say('terminal', 'type_here', lang)}", flush=True)
    # A terminal for the output alone (the commands come from a file) still has the clock line: a line said
    # wipes it first (it is drawn again at its next tick), so the two never run together.
    wipe = "\r\x1b[K" if sys.stdout.isatty() else ""

    def tell(said: str) -> None:
        print(wipe + said.replace("\n", "\n" + wipe), flush=True)

    _narrate(table, Narrator(tell, lang))
    start_console(emulator, sys.stdin, tell, lang, table)


def _narrate(table: Any, narrator: Any) -> None:
    """The narrator follows the table from now: the table as it stands first (before a command typed, or piped
    in, changes it), then every snapshot it publishes."""
    table.subscribe(narrator)
    narrator(table.snapshot())
