"""The real table's builder: from a configuration to the parts a `TableService` is built from.

`referee run --config` builds its table here, and nothing here imports the simulator: the simulated table
(referee/sim/parts.py) builds its emulated parts on top of this module, never the other way round.

- `ServiceParts`: what a service is built from (the configuration, the lexicon, the sensors, the devices);
- `table_setup`: the game-relevant part of the configuration, as the table journals it with each game;
- `configured_lexicon` / `load_lexicon`: the configured lexicon or the edition's own, its faults named by key;
- `real_parts`: a real table's parts, each slow step said to systemd;
- `open_voice`: the table's voice, when `[outputs] speech` is on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from game.errors import LexiconError, RefereeError
from game.lexicon import Lexicon
from referee import lexicon_store
from referee.config import Config, ConfigError
from referee.outputs import StatusLine
from referee.ports import Lexicon as LexiconPort
from referee.sensors import CameraPort
from referee.speech.voice import Voice
from referee.table.setup import TableSetup

if TYPE_CHECKING:  # the devices' module imports gpiozero, the link's pyserial: only when a table has them
    from firmware_bridge.link import ReopenablePort
    from hardware.factory import TableDevices

log = logging.getLogger(__name__)

CAMERA_RETRY_S = 30.0  # a camera missing or lost is looked for again this often


@dataclass
class ServiceParts:
    """What a service is built from; `referee run` fills it from the configuration (`real_parts`), tests and the
    simulated table fill it with emulators and fakes."""

    config: Config
    lexicon: LexiconPort
    board_url: str | None = None
    # The sensor board's port, made beforehand (`firmware_bridge.link.make_port(board_url)`): the simulated table
    # makes its emulated board so, to film it with its camera. None: the service opens `board_url` itself.
    board_port: ReopenablePort | None = None
    camera: CameraPort | None = None
    devices: TableDevices | None = None
    terminal: TextIO | StatusLine | None = None  # the clock line; the simulated table's Screen draws it itself
    web: bool = True
    camera_interval_s: float = 1.0
    monotonic: Callable[[], float] = time.monotonic
    # Opens the camera again (referee.sensors.CameraOpener): a camera missing at start, or lost, is retried
    # every `camera_retry_s` on `monotonic`'s clock, with the camera_lost alert up meanwhile.
    camera_opener: Callable[[], CameraPort] | None = None
    camera_retry_s: float = 30.0
    # Says plays, challenges, time and the end aloud ([outputs] speech); None: the table is silent.
    voice: Voice | None = None


def table_setup(c: Config) -> TableSetup:
    """The game-relevant part of configuration `c`: what the table journals with each game (referee/table/setup.py)."""
    return TableSetup(
        table=c.table.name,
        kind=c.game.kind,
        edition=c.game.edition,
        language=c.table.language,
        players=c.game.players,
        challenge=c.game.challenge,
        challenge_window_ms=round(c.game.challenge_window_s * 1000),
        clock_mode=c.clocks.mode,
        minutes_per_player=c.clocks.minutes_per_player,
        overtime_penalty_points=c.clocks.overtime_penalty_points,
        overtime_limit_minutes=c.clocks.overtime_limit_minutes,
        on_max_overtime=c.clocks.on_max_overtime,
        increment_seconds=c.clocks.increment_seconds,
        turn_seconds=60.0 if c.game.kind != "standard" else c.clocks.turn_seconds,
        scramble_target=c.game.scramble_target,
        lexicon=c.game.lexicon,
        end_racks=c.game.end_racks,
        challenge_bonus_per_word=c.game.challenge_bonus_per_word,
        dice=c.game.dice,
        dice_set=c.game.dice_set.to_json() if c.game.dice_set is not None else "",
    )


def configured_lexicon(config: Config) -> Lexicon | None:
    """The lexicon `game.lexicon` names (a word list's path, or a name installed with `referee lexicon install`:
    `lexicon_store.open_lexicon`), or without one the edition's own: ENABLE (shipped) for English, an installed
    German list for German. None when there is none (a German table without `referee lexicon install german`).
    A lexicon that cannot be used is a ConfigError naming the key."""
    spec = config.game.lexicon
    if spec:
        try:
            return lexicon_store.open_lexicon(spec)
        except LexiconError as exc:
            if exc.form != "too_few":
                raise ConfigError(config.source, "game.lexicon", str(exc)) from None
            raise ConfigError(config.source, "game.lexicon", f"{exc}; a short house list is installed on purpose "
                              f"with `referee lexicon install {Path(spec).expanduser()} --name NAME --min-words N`, "
                              "then named here as lexicon = \"NAME\"") from None
        except (OSError, RefereeError) as exc:
            raise ConfigError(config.source, "game.lexicon", str(exc)) from None
    try:  # English: ENABLE, shipped with the referee (lexicon_store.default_lexicon); German: an installed list
        return lexicon_store.default_lexicon(config.game.edition)
    except RefereeError as exc:
        raise ConfigError(config.source, "game.lexicon", str(exc)) from None


def load_lexicon(config: Config) -> Lexicon:
    """A real table's lexicon (`configured_lexicon`): a table that judges challenges must have one."""
    lexicon = configured_lexicon(config)
    if lexicon is None:
        raise ConfigError(config.source, "game.lexicon", f"a {config.game.edition} table needs a lexicon to judge "
                                                         "challenges: install one (`referee lexicon install german`, "
                                                         "or your own list) and name it here")
    return lexicon


def real_parts(config: Config, terminal: TextIO | None = None) -> ServiceParts:
    """Service parts for a real table, from its configuration (the lexicon first: the cheapest to get wrong).
    Each slow step tells systemd what it is doing and extends the start-up time limit (a Pi building the
    letter classifier or finding the board in the first frame can take a while)."""
    from referee.sd_notify import notify

    notify("STATUS=loading the lexicon\nEXTEND_TIMEOUT_USEC=60000000")
    lexicon = load_lexicon(config)
    camera = opener = None
    if config.sensors.camera:
        from referee.sensors import CameraOpener

        notify("STATUS=opening the camera and finding the board\nEXTEND_TIMEOUT_USEC=120000000")
        calib = str(config.sensors.calibration) if config.sensors.calibration else None
        try:  # a wrong URL, calibration file or edition: refused now, waiting would not mend it
            opener = CameraOpener(config.sensors.camera, calib, config.game.edition, config.sensors.dice_tray,
                                  config.sensors.rack_area)
        except RefereeError as exc:
            raise ConfigError(config.source, "sensors.camera", str(exc)) from exc
        try:
            camera = opener()
        except RefereeError as exc:  # unplugged, busy, the board not in view: the table can wait for it
            if not (config.sensors.board and config.sensors.fusion in ("sensors", "both")):
                raise ConfigError(config.source, "sensors.camera", f"{exc}; and without a camera this table cannot "
                                  "see the board (no sensors.board to play on meanwhile)") from exc
            log.warning("the camera is not available (%s): the table starts on the sensor board alone, shows "
                        "camera_lost and tries the camera again every %.0f s", exc, CAMERA_RETRY_S)
    devices = None
    if config.outputs.devices != "none" and config.hardware is not None:
        from hardware.factory import build_devices

        notify("STATUS=opening the LEDs, displays and buttons\nEXTEND_TIMEOUT_USEC=30000000")
        try:
            devices = build_devices(config.hardware, "real" if config.outputs.devices == "real" else "mock")
        except RefereeError as exc:
            raise ConfigError(config.source, "outputs.devices", str(exc)) from exc
    return ServiceParts(config=config, lexicon=lexicon, board_url=config.sensors.board or None,
                        camera=camera, devices=devices, terminal=terminal if config.outputs.terminal_clock else None,
                        web=config.web.enabled, camera_opener=opener, camera_retry_s=CAMERA_RETRY_S,
                        voice=open_voice(config))


def open_voice(config: Config) -> Voice | None:
    """The table's voice when `[outputs] speech` is on; a missing espeak-ng or a wrong voice refused at start."""
    if not config.outputs.speech:
        return None
    from referee.speech import EspeakVoice, SpeechError

    try:
        return EspeakVoice(config.table.language, config.outputs.speech_voice, config.outputs.speech_rate)
    except SpeechError as exc:
        raise ConfigError(config.source, "outputs.speech", str(exc)) from exc
