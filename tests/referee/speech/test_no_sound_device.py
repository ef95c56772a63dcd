"""Issue 28 item 8: a table without a sound device. espeak-ng then exits 0 and only says on stderr that ALSA
found no device, so the table was silent about being silent. Now the failure is logged once and shown on the
page (`speech_failed`), and the alert goes when the voice speaks again (docs/speech.md).

The fake espeak-ng below prints what the real one printed on this project's build machine, which has no sound
card (`espeak-ng "test"`, exit status 0); with a file `sound` beside it, it speaks without a word."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from referee.service import ServiceParts, TableService
from referee.sim.parts import sim_config
from referee.speech import EspeakVoice, SpeechError
from referee.speech.voice import sound_problem
from referee.table.rules import EveryWord

ALSA_WITHOUT_A_CARD = """\
ALSA lib confmisc.c:855:(parse_card) cannot find card '0'
ALSA lib conf.c:5180:(_snd_config_evaluate) function snd_func_card_inum returned error: No such file or directory
ALSA lib confmisc.c:422:(snd_func_concat) error evaluating strings
ALSA lib conf.c:5180:(_snd_config_evaluate) function snd_func_concat returned error: No such file or directory
ALSA lib confmisc.c:1334:(snd_func_refer) error evaluating name
ALSA lib conf.c:5180:(_snd_config_evaluate) function snd_func_refer returned error: No such file or directory
ALSA lib conf.c:5703:(snd_config_expand) Evaluate error: No such file or directory
ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default
error: No such file or directory
"""


def _fake_espeak(folder: Path) -> Path:
    (folder / "alsa.txt").write_text(ALSA_WITHOUT_A_CARD, encoding="utf-8")
    program = folder / "espeak-ng"
    program.write_text(f"""#!/bin/sh
for a in "$@"; do [ "$a" = "-q" ] && exit 0; done
[ -e {folder / 'sound'} ] && exit 0
cat {folder / 'alsa.txt'} >&2
exit 0
""", encoding="utf-8")
    program.chmod(0o755)
    return program


def test_the_reason_is_read_from_espeaks_error_output() -> None:
    assert sound_problem(ALSA_WITHOUT_A_CARD) == "Unknown PCM default (error: No such file or directory)"
    assert sound_problem("") == ""


def test_a_voice_without_a_sound_device_fails_instead_of_staying_silent(tmp_path: Path) -> None:
    voice = EspeakVoice("en", program=str(_fake_espeak(tmp_path)))  # the start-up check (-q) passes: no sound
    with pytest.raises(SpeechError, match=r"could not play the sound \(no sound device\?\): Unknown PCM default"):
        voice.speak("QUIZ, eight E, forty-four.")
    (tmp_path / "sound").touch()
    voice.speak("QUIZ, eight E, forty-four.")


def _alert(service: TableService) -> dict[str, Any] | None:
    return next((a for a in service.table.snapshot()["alerts"] if a["code"] == "speech_failed"), None)


@pytest.mark.parametrize(("language", "words"), [
    ("en", "The table cannot speak: no sound device takes its voice (Unknown PCM default"),
    ("de", "Der Tisch kann nicht sprechen: kein Audiogerät nimmt die Ansage an (Unknown PCM default")])
def test_no_sound_device_is_logged_once_and_shown_on_the_page(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                              language: str, words: str) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    voice = EspeakVoice(language, program=str(_fake_espeak(bin_dir)))
    cfg = sim_config(state_dir=tmp_path / "state", web=False, fusion="sensors", clock_mode="none",
                     language=language, edition="german" if language == "de" else "english")
    service = TableService(ServiceParts(config=cfg, lexicon=EveryWord(), web=False, voice=voice))
    announcer = service.announcer
    assert announcer is not None
    try:
        with caplog.at_level(logging.INFO, logger="referee.speech.announcer"):
            service.table.control("start", {})
            service.table.press_clock(0)  # "Anna passes."
            assert announcer.idle()
            alert = _alert(service)
            assert alert is not None and alert["level"] == "warning" and alert["text"].startswith(words)
            assert "Unknown PCM default" in alert["text"]
            service.table.press_clock(1)  # "Ben passes.": not said either, and not logged again
            assert announcer.idle()
            assert announcer.failures == 2
            logged = [r for r in caplog.records if "could not speak" in r.getMessage()]
            assert len(logged) == 1 and logged[0].levelno == logging.ERROR
            (bin_dir / "sound").touch()  # a speaker plugged in
            service.table.press_clock(0)
            assert announcer.idle()
            assert _alert(service) is None and announcer.said == 1
    finally:
        service.close()


class BrokenVoice:
    def speak(self, text: str) -> None:
        raise SpeechError("espeak-ng failed (exit 139): Segmentation fault")


def test_a_voice_failing_otherwise_shows_its_reason(tmp_path: Path) -> None:
    cfg = sim_config(state_dir=tmp_path, web=False, fusion="sensors", clock_mode="none")
    service = TableService(ServiceParts(config=cfg, lexicon=EveryWord(), web=False, voice=BrokenVoice()))
    try:
        service.table.control("start", {})
        service.table.press_clock(0)
        assert service.announcer is not None and service.announcer.idle()
        alert = _alert(service)
        assert alert is not None
        assert alert["text"].startswith("The table cannot speak: espeak-ng failed (exit 139): Segmentation fault.")
    finally:
        service.close()
