"""The simulated table of `referee run --sim` and `referee demo`: the real service on emulated hardware.

- the sensor board: the firmware's own code in `firmware_bridge`'s emulator, behind a pseudo-terminal,
  opened by the service exactly as it opens `/dev/ttyACM0` (a coded-tile board: it reads letters);
- the camera: `MirrorCamera`, rendering the emulated board with `vision.synth` (perspective, light, blur)
  and read by the real `vision.BoardReader`; its letters are fused with the board's;
- the buttons, LED ring and buzzer: the real drivers of `hardware/` on gpiozero's MockFactory;
- the clocks drawn in the terminal.
"""

from __future__ import annotations

import logging
import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from game.errors import RefereeError
from referee.config import Config, ConfigError, parse_config
from referee.outputs import StatusLine
from referee.pin_policy import DEMO_PIN
from referee.service import ServiceParts
from referee.speech.voice import Voice
from referee.table.rules import EveryWord

log = logging.getLogger(__name__)

CAMERA_RETRY_S = 30.0  # a camera missing or lost is looked for again this often

# The simulated table's PIN: it serves on 127.0.0.1 only, so a published PIN guards nothing real. A real
# table's configuration refuses it (referee.pin_policy.DEMO_PIN), and it is the only PIN ever printed.
SIM_PIN = DEMO_PIN
_STAND_IN = "7305918264"


def sim_config(*, state_dir: str | Path | None = None, port: int = 8080, pin: str = SIM_PIN,
               players: tuple[str, ...] = ("Anna", "Ben"), kind: str = "standard", clock_mode: str = "tournament",
               fusion: str = "both", challenge_window_s: float = 15.0, web: bool = True,
               settle_ms: int = 0, challenge: str = "double", edition: str = "english",
               speech: bool = False, language: str = "en", end_racks: str = "",
               minutes: float | None = None) -> Config:
    """A configuration for the simulated table (documented values, checked like a file)."""
    state = Path(state_dir) if state_dir else Path(tempfile.mkdtemp(prefix="referee-sim-"))
    n = len(players)
    data: dict[str, Any] = {
        "table": {"name": "Simulated table", "state_dir": str(state), "language": language},
        "game": {"kind": kind, "players": list(players), "challenge_window_s": challenge_window_s,
                 "challenge": challenge, "edition": edition, **({"end_racks": end_racks} if end_racks else {})},
        "clocks": {"mode": clock_mode, **({"minutes_per_player": minutes} if minutes is not None else {})},
        "sensors": {"board": f"emulator://{'9x9' if kind != 'standard' else '15x15'}?coded=1&buttons={n}"
                             + ("&slots=7" if kind != "standard" else ""),
                    "camera": "synthetic:mirror" if fusion != "sensors" else "", "fusion": fusion,
                    "settle_ms": settle_ms},
        "outputs": {"devices": "mock", "terminal_clock": True, "speech": speech},
        "hardware": {"players": n, "ring": {"leds": 24}, "buzzer": {"pin": 13},
                     "buttons": {"clock": [5, 6, 19, 20][:n], "challenge": 26, "pause": 16, "confirm": 21}},
        # The demo's own PIN is refused in a file (it is published); the simulated table serves on 127.0.0.1
        # only, so it is checked as a strong stand-in and set afterwards.
        "web": {"enabled": web, "host": "127.0.0.1", "port": port, "pin": _STAND_IN if pin == SIM_PIN else pin},
    }
    config = parse_config(data, source="<simulated table>")
    return replace(config, web=replace(config.web, pin=pin)) if pin == SIM_PIN else config


def load_lexicon(config: Config, *, simulated: bool = False) -> Any:
    """The table's lexicon: a path to a word list, or a name installed with `referee lexicon install`.
    Without one named: ENABLE (shipped) for English, an installed German list for German; a simulated German
    table without one accepts every word (said loudly, and the page says challenges cannot be judged)."""
    from game.errors import LexiconError
    from game.lexicon import Lexicon
    from referee import lexicon_store

    spec = config.game.lexicon
    if spec:
        path = Path(spec).expanduser()
        if not path.is_file() and ("/" in spec or spec.startswith("~")):
            raise ConfigError(config.source, "game.lexicon", f"{path}: no such word list file (give the path "
                              "of a word list, or the name of one installed with `referee lexicon install`)")
        try:
            if path.is_file():
                # Checked as `referee lexicon install` checks a list: a five-word file is a wrong file, and every
                # challenge judged on it would be wrong. A club's short house list is installed with --min-words.
                lexicon = Lexicon.from_word_list(path.read_bytes(), name=str(path), min_words=lexicon_store.MIN_WORDS,
                                                 max_rejected_share=lexicon_store.MAX_REJECTED_SHARE)[0]
                lexicon.name = path.stem
                return lexicon
            return lexicon_store.load_installed(spec)
        except LexiconError as exc:
            if exc.form != "too_few":
                raise ConfigError(config.source, "game.lexicon", str(exc)) from None
            raise ConfigError(config.source, "game.lexicon", f"{exc}; a short house list is installed on purpose "
                              f"with `referee lexicon install {path} --name NAME --min-words N`, then named here "
                              "as lexicon = \"NAME\"") from None
        except (OSError, RefereeError) as exc:
            raise ConfigError(config.source, "game.lexicon", str(exc)) from None
    try:  # English: ENABLE, shipped with the referee (lexicon_store.default_lexicon); German: an installed list
        found = lexicon_store.default_lexicon(config.game.edition)
    except RefereeError as exc:
        raise ConfigError(config.source, "game.lexicon", str(exc)) from None
    if found is not None:
        return found
    if not simulated:
        raise ConfigError(config.source, "game.lexicon", f"a {config.game.edition} table needs a lexicon to judge "
                                                         "challenges: install one (`referee lexicon install german`, "
                                                         "or your own list) and name it here")
    log.warning("no %s lexicon installed: the simulated table accepts every word (challenges always fail; "
                "`referee lexicon install german`)", config.game.edition)
    return EveryWord()


class _Holder:
    """Lets the mirror camera film the board link the service opens later."""

    def __init__(self) -> None:
        self.service: Any = None

    def tiles(self) -> dict[str, str]:
        svc = self.service
        if svc is None or svc.link is None:
            return {}
        return {sq: (letter or "?") for sq, letter in svc.link.picture().squares.items()}


def sim_parts(config: Config, *, terminal: TextIO | StatusLine | None = None,
              camera_size: int = 1000) -> tuple[ServiceParts, Any]:
    """Service parts for the simulated table, and a holder to hand the service to (for the camera)."""
    from hardware.factory import build_devices

    holder = _Holder()
    camera = None
    if config.sensors.camera:
        from referee.sensors import open_mirror_camera

        camera = open_mirror_camera(holder.tiles, config.game.edition, camera_size)
    devices = build_devices(config.hardware, "mock") if config.hardware is not None else None
    parts = ServiceParts(config=config, lexicon=load_lexicon(config, simulated=True), board_url=config.sensors.board,
                         camera=camera, devices=devices, terminal=terminal, web=config.web.enabled,
                         camera_interval_s=2.0, voice=open_voice(config))
    return parts, holder


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


def default_port() -> int:
    return int(os.environ.get("REFEREE_PORT", "8080"))
