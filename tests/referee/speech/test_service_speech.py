"""The service speaks a whole recorded game through the emulated board, and a table file turns speech on."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from referee.config import ConfigError, parse_config
from referee.demo import DemoDriver, RecordJudge, load_record
from referee.parts import open_voice
from referee.service import TableService
from referee.sim.parts import sim_config, sim_parts

pytestmark = pytest.mark.pty


class RecordingVoice:
    def __init__(self) -> None:
        self.said: list[str] = []

    def speak(self, text: str) -> None:
        self.said.append(text)


def test_the_builtin_demo_is_announced_play_by_play(tmp_path: Path) -> None:
    cfg = sim_config(state_dir=tmp_path, web=False, fusion="sensors")
    parts = sim_parts(cfg)
    voice = RecordingVoice()
    parts.voice = voice
    judge = RecordJudge()
    parts.lexicon = judge
    service = TableService(parts)
    stop = threading.Event()
    service.start()

    def loop() -> None:
        while not stop.wait(0.02):
            service.step()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        result = DemoDriver(service, load_record(None), judge).run()
        assert result.mismatches == []
        assert service.announcer is not None and service.announcer.idle(10)
    finally:
        stop.set()
        thread.join(5)
        service.close()
    assert voice.said[0] == "QUIZ, eight E, forty-four. Anna, forty-four."
    assert "Ben passes." in voice.said
    assert voice.said[-1] == "SOX, thirteen I, twelve. Anna, seventy-seven."


def _base(tmp_path: Path) -> dict[str, Any]:
    return {"table": {"state_dir": str(tmp_path)}, "web": {"enabled": False},
            "sensors": {"board": "emulator://15x15?coded=1"}}


def test_speech_keys_are_checked_and_off_by_default(tmp_path: Path) -> None:
    base = _base(tmp_path)
    assert parse_config(base).outputs.speech is False
    on = parse_config({**base, "outputs": {"speech": True, "speech_rate": 200}})
    assert on.outputs.speech and on.outputs.speech_rate == 200
    with pytest.raises(ConfigError, match=r"outputs\.speech_rate"):
        parse_config({**base, "outputs": {"speech_rate": 20}})


def test_speech_on_without_espeak_is_refused_at_start_naming_the_key(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng to be found
    cfg = parse_config({**_base(tmp_path), "outputs": {"speech": True}}, source="table.toml")
    with pytest.raises(ConfigError, match=r"table.toml: outputs.speech: espeak-ng is not installed"):
        open_voice(cfg)
