"""The voice: espeak-ng, a Debian package that runs on every Pi (audio jack, HDMI or a USB speaker).

espeak-ng is run as a program, one sentence a call, rather than bound as a library: a crash or a hang of
the synthesiser then cannot take the table with it, and a hung call is killed after `timeout_s`.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Protocol

from game.errors import RefereeError

# espeak-ng's voice for each table language; "en" is espeak-ng's British English.
DEFAULT_VOICES = {"en": "en", "de": "de"}


class SpeechError(RefereeError, ValueError):
    """The voice cannot speak: espeak-ng is missing, refuses the voice, or fails. `sound`: when it ran but no
    sound device took the sound, what the sound system said (for the page, in the table's own words)."""

    def __init__(self, message: str, sound: str = "") -> None:
        super().__init__(message)
        self.sound = sound


class Voice(Protocol):
    """What the announcer needs of a voice: say one sentence, blocking until it is said."""

    def speak(self, text: str) -> None: ...


def sound_problem(stderr: str) -> str:
    """What espeak-ng's error output says went wrong with the sound ("" when nothing did). espeak-ng exits 0
    when ALSA (or PulseAudio) cannot open a device, and only says so here; its last line is the reason
    ("Unknown PCM default", "cannot find card '0'"), the ALSA lines before it say where."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    failing = [line for line in lines if "error" in line.lower() or line.startswith("ALSA lib")]
    if not failing:
        return ""
    alsa = next((line.split(") ", 1)[-1] for line in reversed(failing) if line.startswith("ALSA lib")), "")
    last = failing[-1]
    return f"{alsa} ({last})" if alsa and alsa != last else last


class EspeakVoice:
    """Speaks through espeak-ng to the default sound device, or renders to WAV files (`render`)."""

    def __init__(self, language: str = "en", voice: str = "", rate_wpm: int = 160,
                 program: str = "espeak-ng", timeout_s: float = 30.0) -> None:
        if language not in DEFAULT_VOICES:
            raise SpeechError(f"{language!r}: the table speaks 'en' or 'de'")
        if not 80 <= rate_wpm <= 450:
            raise SpeechError(f"speech rate {rate_wpm} words a minute: give 80 to 450")
        found = shutil.which(program)
        if found is None:
            raise SpeechError(f"{program} is not installed: install it with 'sudo apt install espeak-ng', "
                              "or set [outputs] speech = false")
        self.program = found
        self.voice = voice or DEFAULT_VOICES[language]
        self.rate_wpm = rate_wpm
        self.timeout_s = timeout_s
        self._check_voice()

    def _check_voice(self) -> None:
        """Refuse an unknown voice at start, not at the first play: espeak-ng only warns and stays silent."""
        done = self._run(["-q", "x"])
        if done.returncode != 0 or done.stderr.strip():
            raise SpeechError(f"espeak-ng cannot speak with voice {self.voice!r}: "
                              f"{done.stderr.decode(errors='replace').strip() or 'exit ' + str(done.returncode)}")

    def _run(self, extra: list[str], text: str | None = None) -> subprocess.CompletedProcess[bytes]:
        args = [self.program, "-v", self.voice, "-s", str(self.rate_wpm), *extra]
        if text is not None:
            args += ["--", text]
        try:
            return subprocess.run(args, capture_output=True, timeout=self.timeout_s, check=False)
        except subprocess.TimeoutExpired as exc:
            raise SpeechError(f"espeak-ng did not finish within {self.timeout_s:g} s") from exc

    def speak(self, text: str) -> None:
        done = self._run([], text)
        if done.returncode != 0:
            raise SpeechError(f"espeak-ng failed (exit {done.returncode}): "
                              f"{done.stderr.decode(errors='replace').strip()}")
        problem = sound_problem(done.stderr.decode(errors="replace"))
        if problem:  # espeak-ng exits 0 when it cannot open the sound device: nothing was heard
            raise SpeechError(f"espeak-ng could not play the sound (no sound device?): {problem}", sound=problem)

    def render(self, text: str, path: Path) -> Path:
        """Say `text` into a WAV file instead of the speaker (tests, and checking a voice without a speaker)."""
        done = self._run(["-w", str(path)], text)
        if done.returncode != 0 or not path.is_file():
            raise SpeechError(f"espeak-ng could not write {path}: {done.stderr.decode(errors='replace').strip()}")
        return path

    def stream(self, text: str) -> subprocess.Popen[bytes]:
        """Start saying `text` as a WAV stream on the process's stdout (used to time the first sound)."""
        args = [self.program, "-v", self.voice, "-s", str(self.rate_wpm), "--stdout", "--", text]
        return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
