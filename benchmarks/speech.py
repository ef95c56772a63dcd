"""The table speaks: how long from a play scored to the first sound, and what announcing costs the table.

Run from the project root: `.venv/bin/python benchmarks/speech.py` (about 20 s). Prints one
`figure: value unit` line per figure; exits 0 with a 'skipped' line when espeak-ng is not installed.

1. Text to first sound: for each language, the sentences a real game produces (the built-in demo record
   replayed on the in-process simulated table, announced by the real `SpeechListener`) are handed to
   espeak-ng one at a time, as the announcer's worker does; the time runs from the call to the first
   audible sample (|amplitude| > 1% of full scale) in espeak-ng's WAV stream. On a Pi the sound device
   adds its own buffer (typically 20-50 ms with ALSA defaults) on top of this.
2. The table's cost: the time the listener spends on the table's thread per snapshot (working out the
   sentences and queueing them), over every snapshot of the game. This is all the table ever waits for.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.sim.table import SimulatedTable, default_setup  # noqa: E402
from referee.speech.announcer import Announcer, SpeechListener  # noqa: E402
from referee.speech.voice import EspeakVoice  # noqa: E402

WORDS = ["QUIZ", "ZA", "ZAS", "QI", "AS", "IS", "ZO", "OE", "ZOA", "ZAP", "ZAPS"]
LOUD = int(0.01 * 32768)


class Collect:
    """A voice that keeps the sentences (the timing of the real voice is measured separately)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def speak(self, text: str) -> None:
        self.said.append(text)


class TimedListener(SpeechListener):
    def __init__(self, announcer: Announcer) -> None:
        super().__init__(announcer)
        self.costs: list[float] = []

    def __call__(self, snapshot: Any) -> None:
        t0 = time.perf_counter()
        super().__call__(snapshot)
        self.costs.append(time.perf_counter() - t0)


def game_sentences(language: str) -> tuple[list[str], list[float]]:
    """Play a short game on the simulated table and return what it said and the listener's cost per snapshot."""
    voice = Collect()
    table = SimulatedTable(default_setup(language=language, challenge="five-point"), words=WORDS)
    with Announcer(voice, queue_size=64) as announcer:
        listener = TimedListener(announcer)
        table.subscribe(listener)
        table.control("start", {})
        table.play("8E QUIZ")
        table.control("challenge", {"player": 1})
        table.advance(15)
        table.play("H8 .A")
        table.advance(15)
        table.press()
        table.advance(20 * 60)
        table.advance(5 * 60 + 40)
        for _ in range(5):
            table.press()
        table.control("racks", {"player": 0, "tiles": "AEEIOUS"})
        table.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
        announcer.idle(10)
    return voice.said, listener.costs


def first_sound_ms(voice: EspeakVoice, text: str) -> float:
    t0 = time.perf_counter()
    proc = voice.stream(text)
    assert proc.stdout is not None
    header = proc.stdout.read(44)
    if len(header) < 44:
        raise RuntimeError("espeak-ng wrote no WAV header")
    found = None
    while found is None:
        chunk = proc.stdout.read(512)
        if not chunk:
            break
        for i in range(0, len(chunk) - 1, 2):
            if abs(int.from_bytes(chunk[i:i + 2], "little", signed=True)) > LOUD:
                found = time.perf_counter()
                break
    proc.stdout.close()
    proc.kill()
    proc.wait()
    if found is None:
        raise RuntimeError(f"espeak-ng said nothing audible for {text!r}")
    return (found - t0) * 1000


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def main() -> int:
    if shutil.which("espeak-ng") is None:
        print("skipped: espeak-ng is not installed (apt install espeak-ng)")
        return 0
    for language in ("en", "de"):
        sentences, costs = game_sentences(language)
        voice = EspeakVoice(language)
        times = [first_sound_ms(voice, s) for _ in range(3) for s in sentences]
        print(f"speech_sentences_per_game_{language}: {len(sentences)} sentences")
        print(f"speech_first_sound_{language}_p50: {statistics.median(times):.1f} ms")
        print(f"speech_first_sound_{language}_p95: {pct(times, 0.95):.1f} ms")
        print(f"speech_table_cost_{language}_median: {statistics.median(costs) * 1e6:.0f} us")
        print(f"speech_table_cost_{language}_max: {max(costs) * 1e6:.0f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
