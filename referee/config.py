"""The table's configuration: one TOML file, read once at start, refused whole when any key is wrong.

A tournament director edits this file by hand on a Pi, often over SSH and in a hurry. A typo must
not become a silently ignored setting (a PIN that is not set, a clock that is not 25 minutes), so
unknown keys are refused, every value is checked, and each error names the file, the key and the
reason. `docs/configuration.md` documents every key; `systemd/referee.example.toml` is an annotated
example that this module's tests load.
"""

from __future__ import annotations

import re
import struct
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.errors import RefereeError
from referee.player_names import name_key, same_name_text
from referee.table.setup import (
    CHALLENGE_RULES,
    CLOCK_MODES,
    EDITIONS,
    END_RACK_RULES,
    GAME_KINDS,
    LANGUAGES,
    MAX_OVERTIME_ACTIONS,
)


class ConfigError(RefereeError, ValueError):
    """The configuration file is missing, unreadable, or has a wrong key or value."""

    def __init__(self, source: str, key: str, reason: str) -> None:
        self.source = source
        self.key = key
        self.reason = reason
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {reason}")


FUSION_MODES = ("sensors", "camera", "both")
DEVICE_BACKENDS = ("none", "mock", "real")


@dataclass(frozen=True)
class TableSection:
    name: str = "Table 1"
    language: str = "en"
    state_dir: Path = Path("/var/lib/referee")


@dataclass(frozen=True)
class GameSection:
    kind: str = "standard"
    edition: str = "english"
    players: tuple[str, ...] = ("Player 1", "Player 2")
    lexicon: str = ""
    challenge: str = "double"
    challenge_window_s: float = 15.0
    scramble_target: int = 200
    end_racks: str = ""  # "" = the rule set's own (NASPA: double; Hasbro manuals and German manual: each-way)
    challenge_bonus_per_word: bool = False  # five-/ten-point: the bonus per word wrongly challenged [WESPA A.i]
    dice: str = ""  # Scramble: a shipped dice set's name or a dice file's path; "" the edition's shipped set
    dice_set: Any = None  # game.scramble.dice.DiceSet read from `dice` at start (not a key of the file)


@dataclass(frozen=True)
class ClockSection:
    mode: str = "none"
    minutes_per_player: float = 25.0
    overtime_penalty_points: int = 10
    overtime_limit_minutes: float = 10.0
    on_max_overtime: str = "flag"  # "flag": the director is called [NASPA]; "lose": the game ends, lost on time
    increment_seconds: float = 0.0
    turn_seconds: float = 180.0


@dataclass(frozen=True)
class SensorSection:
    board: str = ""
    camera: str = ""
    calibration: Path | None = None
    fusion: str = "sensors"
    min_confidence: float = 0.5  # referee.fusion.MIN_CONFIDENCE: why 0.5
    settle_ms: int = 300
    dice_tray: tuple[int, int, int, int] | None = None  # Scramble: where the dice tray is in the camera's frame
    rack_area: tuple[int, int, int, int] | None = None  # where racks left at the end are laid for the camera


@dataclass(frozen=True)
class OutputSection:
    devices: str = "none"  # the LED timer, displays, buzzer and buttons of [hardware]: none, mock or real pins
    terminal_clock: bool = False
    speech: bool = False  # announce plays, challenges, time and the end aloud through espeak-ng
    speech_voice: str = ""  # an espeak-ng voice name; "" the table language's own ("en" or "de")
    speech_rate: int = 160  # words a minute


@dataclass(frozen=True)
class WebSection:
    enabled: bool = True
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str = ""
    director_pin: str = ""  # lets a new phone in while someone guesses `pin` (docs/security.md); "" none
    allowed_hosts: tuple[str, ...] = ()  # names the page answers to besides the Pi's own and IP addresses


@dataclass(frozen=True)
class Config:
    """A checked configuration. `source` names the file it came from, for messages."""

    source: str = "<defaults>"
    table: TableSection = field(default_factory=TableSection)
    game: GameSection = field(default_factory=GameSection)
    clocks: ClockSection = field(default_factory=ClockSection)
    sensors: SensorSection = field(default_factory=SensorSection)
    outputs: OutputSection = field(default_factory=OutputSection)
    web: WebSection = field(default_factory=WebSection)
    hardware: Any = None  # hardware.config.HardwareConfig from the [hardware] table (its schema is hardware's), or None
    tournament: Any = None  # tournament.settings.TableLinkSettings from [tournament], or None (no broker)


# --- value checkers: each returns the converted value or raises ValueError with the reason ---------------

Check = Callable[[Any], Any]


def _choice(*allowed: str) -> Check:
    def check(v: Any) -> str:
        if not isinstance(v, str) or v not in allowed:
            raise ValueError(f"must be one of {', '.join(repr(a) for a in allowed)}, not {v!r}")
        return v
    return check


def _string(*, nonempty: bool = False, max_len: int = 200) -> Check:
    def check(v: Any) -> str:
        if not isinstance(v, str):
            raise ValueError(f"must be a string in quotes, not {v!r}")
        if nonempty and not v.strip():
            raise ValueError("must not be empty")
        if len(v) > max_len:
            raise ValueError(f"must be at most {max_len} characters long")
        return v
    return check


def _unprintable(text: str) -> str | None:
    """The first character of `text` that is not printable (a line break, a tab, a control character),
    written so a reader sees it (`'\\n'`), or None when every character prints."""
    return next((repr(ch) for ch in text if not ch.isprintable()), None)


def _one_line_name(*, max_len: int) -> Check:
    """A name shown on the page and written into game records: one line of printable text. A line
    break in a name would start a line of its own in an exported record (a fake move or pragma)."""
    def check(v: Any) -> str:
        if not isinstance(v, str) or not v.strip():
            raise ValueError(f"must be a non-empty name in quotes, not {v!r}")
        bad = _unprintable(v)
        if bad is not None:
            raise ValueError(f"must be one line of printable text; {v!r} holds {bad}")
        if len(v) > max_len:
            raise ValueError(f"must be at most {max_len} characters long")
        return v.strip()
    return check


def _number(lo: float, hi: float, *, integer: bool = False) -> Check:
    def check(v: Any) -> float | int:
        if isinstance(v, bool) or not isinstance(v, int | float) or (integer and not isinstance(v, int)):
            kind = "a whole number" if integer else "a number"
            raise ValueError(f"must be {kind}, not {v!r}")
        if not lo <= v <= hi:
            raise ValueError(f"must be between {lo:g} and {hi:g}, not {v!r}")
        return int(v) if integer else float(v)
    return check


def _boolean(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"must be true or false, not {v!r}")
    return v


def _path(v: Any) -> Path:
    if not isinstance(v, str) or not v:
        raise ValueError(f"must be a path in quotes, not {v!r}")
    return Path(v).expanduser()  # "~/referee" is the home folder's, not a folder named "~"


def _rectangle(v: Any) -> tuple[int, int, int, int]:
    if (not isinstance(v, list) or len(v) != 4 or any(isinstance(x, bool) or not isinstance(x, int) for x in v)
            or v[0] < 0 or v[1] < 0 or v[2] < 16 or v[3] < 16):
        raise ValueError("must be [x, y, width, height] in pixels of the camera's frame, e.g. [40, 900, 600, 160]")
    return (v[0], v[1], v[2], v[3])


def _players(v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or not 2 <= len(v) <= 4:
        raise ValueError("must be a list of 2 to 4 player names, e.g. [\"Anna\", \"Ben\"]")
    names: list[str] = []
    for i, name in enumerate(v):
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"player {i + 1} must be a non-empty name in quotes, not {name!r}")
        bad = _unprintable(name)
        if bad is not None:
            raise ValueError(f"player {i + 1}'s name must be one line of printable text; {name!r} holds {bad}")
        if len(name) > 40:
            raise ValueError(f"player {i + 1}'s name is longer than 40 characters")
        same = [j for j, other in enumerate(names) if name_key(other) == name_key(name)]
        if same:
            raise ValueError(same_name_text(same[0], i, names[same[0]], name))
        names.append(name.strip())
    return tuple(names)


def _board_url(v: Any) -> str:
    """A device path, or a URL pyserial opens (`emulator://WxH?...`, `socket://...`, `loop://`), checked here by
    the link itself: a wrong option must not wait for the start. A device path is not required to exist: a
    board unplugged at boot is waited for."""
    if not isinstance(v, str):
        raise ValueError(f"must be a string in quotes, not {v!r}")
    if not v or v.startswith("/"):
        return v
    from firmware_bridge.link import check_url

    try:
        known = "://" in v and check_url(v)  # raises a ValueError naming what is wrong with a known kind of URL
    except (struct.error, OverflowError, TypeError) as exc:  # a value the board's wire format cannot carry
        raise ValueError(f"{v!r}: a value is out of range for the sensor board ({exc}); e.g. buttons is "
                         "0 to 255") from None
    if known:
        return v
    raise ValueError(f"{v!r} is neither a device path (\"/dev/ttyACM0\", better /dev/serial/by-id/...), nor "
                     "the built-in emulator (\"emulator://15x15?coded=1&buttons=2\"), nor a pyserial URL "
                     "(\"socket://HOST:PORT\")")


def _table_pin(v: Any) -> str:
    """A PIN strong enough for an open club network (referee.pin_policy says what is refused and why)."""
    from referee.pin_policy import weak_pin_reason

    if not isinstance(v, str):
        raise ValueError("must be 6 to 12 digits in quotes, e.g. \"583016\" (but not that one)")
    reason = weak_pin_reason(v)
    if reason is not None:
        raise ValueError(reason)
    return v


_HOST_NAME = re.compile(r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?")


def _host_names(v: Any) -> tuple[str, ...]:
    """Names the page answers to besides the Pi's own (DNS rebinding: any other `Host` is answered 421)."""
    if not isinstance(v, list) or len(v) > 32:
        raise ValueError("must be a list of up to 32 host names, e.g. [\"table3.club.example\"]")
    names: list[str] = []
    for name in v:
        if not isinstance(name, str) or not _HOST_NAME.fullmatch(name.strip().lower()):
            raise ValueError(f"{name!r} is not a host name (letters, digits, '-' and '.'; an IP address needs "
                             "no entry: every address of the Pi is answered)")
        names.append(name.strip().lower())
    return tuple(names)


def _director_pin(v: Any) -> str:
    """The director's code: a table PIN of at least 10 digits, since no budget of wrong tries locks it."""
    pin = _table_pin(v)
    if len(pin) < 10:
        raise ValueError(f"is {len(pin)} digits: the director's code needs at least 10 (it is never locked by "
                         "guessing, so only its length keeps it safe)")
    return pin


_SCHEMA: dict[str, tuple[type, dict[str, Check]]] = {
    "table": (TableSection, {
        "name": _one_line_name(max_len=60),
        "language": _choice(*LANGUAGES),
        "state_dir": _path,
    }),
    "game": (GameSection, {
        "kind": _choice(*GAME_KINDS),
        "edition": _choice(*EDITIONS),
        "players": _players,
        "lexicon": _string(),
        "challenge": _choice(*CHALLENGE_RULES),
        "challenge_window_s": _number(0, 600),
        "scramble_target": _number(50, 2000, integer=True),
        "end_racks": _choice(*END_RACK_RULES),
        "challenge_bonus_per_word": _boolean,
        "dice": _string(nonempty=True, max_len=1000),
    }),
    "clocks": (ClockSection, {
        "mode": _choice(*CLOCK_MODES),
        "minutes_per_player": _number(1, 600),
        "overtime_penalty_points": _number(0, 100, integer=True),
        "overtime_limit_minutes": _number(0, 600),
        "on_max_overtime": _choice(*MAX_OVERTIME_ACTIONS),
        "increment_seconds": _number(0, 600),
        "turn_seconds": _number(10, 3600),
    }),
    "sensors": (SensorSection, {
        "board": _board_url,
        "camera": _string(),
        "calibration": _path,
        "fusion": _choice(*FUSION_MODES),
        "min_confidence": _number(0.0, 1.0),
        "settle_ms": _number(0, 10_000, integer=True),
        "dice_tray": _rectangle,
        "rack_area": _rectangle,
    }),
    "outputs": (OutputSection, {
        "devices": _choice(*DEVICE_BACKENDS),
        "terminal_clock": _boolean,
        "speech": _boolean,
        "speech_voice": _string(),
        "speech_rate": _number(80, 450, integer=True),
    }),
    "web": (WebSection, {
        "enabled": _boolean,
        "host": _string(nonempty=True),
        "port": _number(1, 65535, integer=True),
        "pin": _table_pin,
        "director_pin": _director_pin,
        "allowed_hosts": _host_names,
    }),
}


def parse_config(data: Mapping[str, Any], source: str = "<config>") -> Config:
    """Check a parsed TOML document and build the `Config`; raise `ConfigError` at the first wrong key."""
    sections: dict[str, Any] = {}
    for name, value in data.items():
        if name == "hardware":
            sections["hardware"] = _hardware(value, source)
            continue
        if name == "tournament":
            sections["tournament"] = _tournament(value, source)
            continue
        if name not in _SCHEMA:
            known = ", ".join([*_SCHEMA, "hardware", "tournament"])
            raise ConfigError(source, f"[{name}]", f"unknown section; the sections are {known}")
        if not isinstance(value, dict):
            raise ConfigError(source, name, "must be a section ([" + name + "]), not a single value")
        cls, checks = _SCHEMA[name]
        kwargs: dict[str, Any] = {}
        for key, raw in value.items():
            if key not in checks:
                raise ConfigError(source, f"{name}.{key}", f"unknown key; [{name}] takes {', '.join(checks)}")
            try:
                kwargs[key] = checks[key](raw)
            except ValueError as exc:
                raise ConfigError(source, f"{name}.{key}", str(exc)) from None
        sections[name] = cls(**kwargs)
    config = Config(source=source, **sections)
    _check_whole(config)
    if config.game.dice:
        config = replace(config, game=replace(config.game, dice_set=_dice_set(config)))
    return config


_EDITION_LANGUAGE = {"english": "en", "german": "de"}


def _dice_set(c: Config) -> Any:
    """The dice of `game.dice`: a shipped set by name, else a dice file (`referee dice teach` writes one), read
    and checked now, so a wrong file stops the referee at start, not at the first roll."""
    from game.errors import RefereeError
    from game.scramble.dice import DiceSet, dice_set_names, load_dice_set

    value = c.game.dice
    if c.game.kind == "standard":
        raise ConfigError(c.source, "game.dice", "dice are for Scramble (game.kind = \"scramble\" or "
                                                 "\"scramble-advanced\"); leave it out for the standard game")
    try:
        if value in dice_set_names():
            dice = load_dice_set(value)
        else:
            path = Path(value).expanduser()
            try:
                raw = path.read_bytes()
            except OSError as exc:
                raise ConfigError(c.source, "game.dice", f"cannot read the dice file {str(path)!r} "
                                                         f"({exc.strerror or exc}); give a dice set file (written "
                                                         f"by `referee dice teach`) or a shipped set: "
                                                         f"{', '.join(dice_set_names())}") from None
            dice = DiceSet.from_json(raw, str(path))
    except RefereeError as exc:
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(c.source, "game.dice", str(exc)) from None
    wanted = _EDITION_LANGUAGE.get(c.game.edition, "")
    if dice.language != wanted:
        raise ConfigError(c.source, "game.dice", f"the dice set {dice.name!r} is for language {dice.language!r}, but "
                                                 f"game.edition = {c.game.edition!r} plays in {wanted!r}")
    return dice


def _hardware(value: Any, source: str) -> Any:
    """The [hardware] table, checked by the hardware package's own parser (docs/hardware-timer.md)."""
    from hardware.config import HardwareConfigError, parse_hardware_config

    if not isinstance(value, dict):
        raise ConfigError(source, "hardware", "must be a section ([hardware]), not a single value")
    try:
        return parse_hardware_config(value)
    except HardwareConfigError as exc:
        text = str(exc)
        key = text.split(":", 1)[0] if ":" in text else ""
        reason = text.split(":", 1)[1].strip() if ":" in text else text
        raise ConfigError(source, f"hardware.{key}" if key else "hardware", reason) from None


def _tournament(value: Any, source: str) -> Any:
    """The [tournament] table: the broker, event and table number (docs/tournament-network.md), checked by
    the tournament package; the credentials file is read now, so a wrong one stops the table at start."""
    from tournament.settings import SettingsError, parse_table_section

    if not isinstance(value, dict):
        raise ConfigError(source, "tournament", "must be a section ([tournament]), not a single value")
    try:
        return parse_table_section(value)
    except SettingsError as exc:
        raise ConfigError(source, f"tournament.{exc.key}", exc.reason) from None


def _check_whole(c: Config) -> None:
    """Rules that tie keys together."""
    src = c.source
    if c.web.enabled and not c.web.pin:
        raise ConfigError(src, "web.pin", "the scoreboard's control needs a table PIN and there is no default; "
                                          "set one (6 to 12 digits) or set web.enabled = false")
    if c.web.director_pin and c.web.director_pin == c.web.pin:
        raise ConfigError(src, "web.director_pin", "must differ from web.pin: it is what lets a new phone in "
                                                   "while someone guesses the table PIN")
    if c.web.director_pin and not c.web.pin:
        raise ConfigError(src, "web.director_pin", "needs a table PIN (web.pin) beside it")
    if c.game.kind != "standard" and c.clocks.mode == "tournament":
        raise ConfigError(src, "clocks.mode", "Scramble uses its 60-second turn timer, not tournament clocks; "
                                              "use \"turn\" or \"none\"")
    if c.game.end_racks and c.game.kind != "standard":
        raise ConfigError(src, "game.end_racks", "Scramble has no racks left at the end (the first to "
                                                 "scramble_target wins); leave it out")
    if c.game.challenge_bonus_per_word and c.game.challenge not in ("five-point", "ten-point"):
        raise ConfigError(src, "game.challenge_bonus_per_word",
                          "only the \"five-point\" and \"ten-point\" challenge rules give a bonus, "
                          f"not {c.game.challenge!r}")
    if c.clocks.on_max_overtime == "lose" and c.clocks.mode != "tournament":
        raise ConfigError(src, "clocks.on_max_overtime", "losing on time needs the tournament clocks "
                                                         "(clocks.mode = \"tournament\")")
    if c.sensors.fusion in ("sensors", "both") and not c.sensors.board:
        raise ConfigError(src, "sensors.board", f"fusion = {c.sensors.fusion!r} needs the board's URL "
                                                "(e.g. \"/dev/ttyACM0\")")
    if c.sensors.board.startswith("emulator://"):
        _check_emulated_board(c)
    if c.sensors.fusion in ("camera", "both") and not c.sensors.camera:
        raise ConfigError(src, "sensors.camera", f"fusion = {c.sensors.fusion!r} needs a camera source "
                                                 "(e.g. \"picamera2:\" or \"v4l2:0\")")
    for key in ("dice_tray", "rack_area"):
        if getattr(c.sensors, key) is not None and not c.sensors.camera:
            raise ConfigError(src, f"sensors.{key}", "reading it needs a camera (sensors.camera)")
    if c.outputs.devices != "none" and c.hardware is None:
        raise ConfigError(src, "outputs.devices", f"devices = {c.outputs.devices!r} needs a [hardware] section "
                                                  "saying which LEDs, displays and buttons are on which pins")
    if c.hardware is not None and c.hardware.players != len(c.game.players):
        raise ConfigError(src, "hardware.players", f"is {c.hardware.players} but [game] names "
                                                   f"{len(c.game.players)} players")


def _check_emulated_board(c: Config) -> None:
    """An emulated board is known before it starts: one that cannot play the game (a Scramble game on 15x15, a
    standard one on the 9x9 mat) is refused now, as a real board's HELLO is by the service."""
    from firmware_bridge.emulator_url import board_from_url
    from referee.board_fit import board_misfit

    board = board_from_url(c.sensors.board)  # built, not started (its options were checked by _board_url)
    misfit = board_misfit(c.game.kind, board.width, board.height, board.slots)
    if misfit is not None:
        raise ConfigError(c.source, "sensors.board", f"{c.sensors.board!r}: {misfit} (game.kind = {c.game.kind!r})")


def load_config(path: str | Path) -> Config:
    """Read and check the TOML file at `path`."""
    from referee.input_files import MAX_CONFIG_BYTES, InputFileError, read_regular_file

    p = Path(path)
    try:
        raw = read_regular_file(p, max_bytes=MAX_CONFIG_BYTES, what="configuration file")
    except InputFileError as exc:  # /dev/zero, a FIFO, a folder, a file of megabytes
        raise ConfigError(str(p), "", str(exc).removeprefix(f"{p}: ")) from None
    except OSError as exc:
        raise ConfigError(str(p), "", f"cannot read the configuration file ({exc.strerror or exc})") from None
    try:
        # "utf-8-sig": Windows Notepad saves UTF-8 with a byte-order mark, which TOML does not allow
        text = raw.decode("utf-8-sig")
        if text.startswith("\ufeff"):
            raise ConfigError(str(p), "", "starts with a second byte-order mark; remove the byte-order mark (save "
                                          "the file as UTF-8 without BOM)")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        raise ConfigError(str(p), "", "is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(p), "", f"is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(str(p), "", "is nested too deeply to be a table's configuration (arrays or tables "
                                      "inside one another hundreds of levels deep)") from None
    return parse_config(data, source=str(p))
