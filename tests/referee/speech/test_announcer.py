"""The announcer never holds the table up: it queues, drops what comes too late, and survives a bad voice."""

from __future__ import annotations

import threading

import pytest

from referee.sim.clock import ManualClock
from referee.sim.table import SimulatedTable, default_setup
from referee.speech.announcer import Announcer, SpeechListener


class BlockingVoice:
    """Says nothing until released: a voice slower than the game."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        self.said: list[str] = []

    def speak(self, text: str) -> None:
        self.started.set()
        assert self.release.wait(10)
        self.said.append(text)


class FailingVoice:
    def __init__(self) -> None:
        self.calls = 0

    def speak(self, text: str) -> None:
        self.calls += 1
        raise OSError("no sound device")


def test_say_returns_at_once_while_the_voice_is_busy_and_a_full_queue_drops_the_oldest() -> None:
    voice = BlockingVoice()
    with Announcer(voice, queue_size=2) as announcer:
        announcer.say("first")
        assert voice.started.wait(5)  # the worker is inside speak(), blocked
        for text in ("second", "third", "fourth"):
            announcer.say(text)  # returns although nothing can be said now
        assert announcer.dropped == 1  # "second" went when "fourth" came
        voice.release.set()
        assert announcer.idle()
    assert voice.said == ["first", "third", "fourth"]


def test_a_sentence_that_waited_too_long_is_dropped_unsaid() -> None:
    voice, clock = BlockingVoice(), ManualClock(0.0)
    with Announcer(voice, max_delay_s=10.0, clock=clock) as announcer:
        announcer.say("QUIZ, eight E, forty-four.")
        assert voice.started.wait(5)
        announcer.say("stale score")
        clock.now = 30.0  # the voice took 30 s over the first sentence
        announcer.say("fresh score")
        voice.release.set()
        assert announcer.idle()
        assert announcer.dropped == 1
    assert voice.said == ["QUIZ, eight E, forty-four.", "fresh score"]


def test_a_failing_voice_is_counted_and_never_raises_into_the_table(caplog: pytest.LogCaptureFixture) -> None:
    voice = FailingVoice()
    table = SimulatedTable(default_setup(), words=["QUIZ"])
    with Announcer(voice) as announcer:
        table.subscribe(SpeechListener(announcer))
        table.control("start", {})
        table.play("8E QUIZ")
        table.advance(15)
        table.press()
        assert announcer.idle()
        assert announcer.failures == voice.calls == 2
    assert table.snapshot()["players"][1]["on_turn"] is False  # the game went on: Ben passed, Anna to play
    assert sum("could not speak" in r.getMessage() for r in caplog.records) == 1


def test_close_is_idempotent_and_a_closed_announcer_ignores_new_sentences() -> None:
    voice = BlockingVoice()
    voice.release.set()
    announcer = Announcer(voice)
    announcer.close()
    announcer.close()
    announcer.say("after the end")
    assert announcer.idle(0.5)
    assert voice.said == []
