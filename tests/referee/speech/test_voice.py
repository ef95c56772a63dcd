"""espeak-ng renders what the table says: real WAV files, checked for length and sound, no sound card needed."""

from __future__ import annotations

import shutil
import wave
from pathlib import Path

import numpy as np
import pytest

from referee.speech.voice import EspeakVoice, SpeechError

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (make test installs it as root)")


def _duration_and_rms(path: Path) -> tuple[float, float]:
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2
        frames = w.readframes(w.getnframes())
        samples = np.frombuffer(frames, dtype="<i2").astype(np.float64) / 32768.0
        return w.getnframes() / w.getframerate(), float(np.sqrt(np.mean(samples**2)))


@needs_espeak
@pytest.mark.parametrize(("language", "text"), [
    ("en", "WINDY, eight D, thirty-two. Anna, one hundred and four."),
    ("de", "WINDIG, acht D, zweiunddreißig. Anna, hundertvier."),
])
def test_a_sentence_renders_to_a_wav_that_is_long_enough_and_not_silent(tmp_path: Path, language: str,
                                                                         text: str) -> None:
    voice = EspeakVoice(language)
    duration, rms = _duration_and_rms(voice.render(text, tmp_path / "said.wav"))
    assert 1.5 < duration < 10.0
    assert rms > 0.01
    short, _ = _duration_and_rms(voice.render("Zeit!" if language == "de" else "Time!", tmp_path / "t.wav"))
    assert short < duration / 3


@needs_espeak
def test_a_faster_voice_says_the_same_sentence_in_less_time(tmp_path: Path) -> None:
    text = "QUIZ, eight E, forty-four. Anna, forty-four."
    slow, _ = _duration_and_rms(EspeakVoice("en", rate_wpm=120).render(text, tmp_path / "slow.wav"))
    fast, _ = _duration_and_rms(EspeakVoice("en", rate_wpm=240).render(text, tmp_path / "fast.wav"))
    assert fast < slow * 0.75


def test_a_missing_espeak_says_how_to_install_it() -> None:
    with pytest.raises(SpeechError, match="apt install espeak-ng"):
        EspeakVoice("en", program="espeak-ng-that-is-not-there")


@needs_espeak
def test_an_unknown_voice_or_rate_is_refused_at_start() -> None:
    with pytest.raises(SpeechError, match="'xx-nonsense'"):
        EspeakVoice("en", voice="xx-nonsense")
    with pytest.raises(SpeechError, match="80 to 450"):
        EspeakVoice("en", rate_wpm=20)
    with pytest.raises(SpeechError, match="'fr'"):
        EspeakVoice("fr")
