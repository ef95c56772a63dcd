"""The simulated table of `referee run --sim` and `referee demo`: the real service on emulated hardware.

Built on the real table's builder (referee/parts.py), never the other way round:

- the sensor board: the firmware's own code in `firmware_bridge`'s emulator, behind a pseudo-terminal,
  opened by the service exactly as it opens `/dev/ttyACM0` (a coded-tile board: it reads letters);
- the camera: `MirrorCamera` (referee/sim/camera.py), filming that emulated board with `vision.synth`
  (perspective, light, blur) and read by the real `vision.BoardReader`; its letters are fused with the board's;
- the buttons, LED ring and buzzer: the real drivers of `hardware/` on gpiozero's MockFactory;
- the clocks drawn in the terminal;
- the lexicon: the configured one, or the edition's; a German table with none installed accepts every word.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from game.game import WordList
from referee.config import Config, parse_config
from referee.outputs import StatusLine
from referee.parts import ServiceParts, configured_lexicon, open_voice
from referee.pin_policy import DEMO_PIN
from referee.table.rules import EveryWord

log = logging.getLogger(__name__)

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


def sim_lexicon(config: Config) -> WordList:
    """The simulated table's lexicon: the configured one or the edition's own (referee.parts.configured_lexicon);
    a simulated German table without one accepts every word (said loudly, and the page says challenges cannot be
    judged)."""
    lexicon = configured_lexicon(config)
    if lexicon is not None:
        return lexicon
    log.warning("no %s lexicon installed: the simulated table accepts every word (challenges always fail; "
                "`referee lexicon install german`)", config.game.edition)
    return EveryWord()


def sim_parts(config: Config, *, terminal: TextIO | StatusLine | None = None,
              camera_size: int = 1000) -> ServiceParts:
    """Service parts for the simulated table: its emulated board made here, so that its camera films it."""
    from firmware_bridge.link import make_port
    from hardware.factory import build_devices

    port = make_port(config.sensors.board) if config.sensors.board else None
    camera = None
    if config.sensors.camera:
        from referee.sim.camera import open_mirror_camera

        camera = open_mirror_camera(getattr(port, "emulator", None), config.game.edition, camera_size)
    devices = build_devices(config.hardware, "mock") if config.hardware is not None else None
    return ServiceParts(config=config, lexicon=sim_lexicon(config), board_url=config.sensors.board or None,
                        board_port=port, camera=camera, devices=devices, terminal=terminal, web=config.web.enabled,
                        camera_interval_s=2.0, voice=open_voice(config))
