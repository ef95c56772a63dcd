"""What the table says, from the snapshots a real (simulated) table publishes, in English and German."""

from __future__ import annotations

from typing import Any

import pytest

from referee.sim.table import SimulatedTable, default_setup
from referee.speech.phrases import announcements, spoken_position

WORDS = ["QUIZ", "ZA", "ZAS", "QI", "AS", "IS", "ZO", "OE", "ZOA"]


class Heard:
    """A listener that keeps what the announcer would say, as the service's SpeechListener does."""

    def __init__(self) -> None:
        self.before: Any = None
        self.lines: list[str] = []

    def __call__(self, snap: Any) -> None:
        self.lines += announcements(self.before, snap)
        self.before = snap

    def take(self) -> list[str]:
        lines, self.lines = self.lines, []
        return lines


def _table(language: str = "en", **changes: object) -> tuple[SimulatedTable, Heard]:
    t = SimulatedTable(default_setup(language=language, **changes), words=WORDS)
    heard = Heard()
    t.subscribe(heard)
    t.control("start", {})
    return t, heard


def test_a_play_is_read_out_with_its_square_score_and_the_players_total() -> None:
    t, heard = _table()
    t.play("8E QUIZ")
    assert heard.take() == ["QUIZ, eight E, forty-four. Anna, forty-four."]
    t.advance(15)
    t.play("H8 .A")
    assert heard.take() == ["ZA, H eight, eleven. Ben, eleven."]


def test_a_german_table_speaks_german() -> None:
    t, heard = _table("de")
    t.play("8E QUIZ")
    t.control("challenge", {"player": 1})
    t.press()
    assert heard.take() == ["QUIZ, acht E, vierundvierzig. Anna, vierundvierzig.",
                            "QUIZ ist gültig. Ben setzt einen Zug aus.", "Anna passt."]


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["The director takes ten points from Ben. Ben, minus ten.",
            "The director gives Anna five points. Anna, forty-nine."]),
    ("de", ["Die Turnierleitung zieht Ben zehn Punkte ab. Ben, minus zehn.",
            "Die Turnierleitung gibt Anna fünf Punkte. Anna, neunundvierzig."]),
])
def test_a_directors_adjustment_is_announced_in_the_tables_language(language: str, said: list[str]) -> None:
    t, heard = _table(language)
    t.play("8E QUIZ")
    heard.take()
    t.director("correct_score", {"player": 1, "points": -10, "reason": "phone"}, by="td", command_id="a1")
    t.director("correct_score", {"player": 0, "points": 5, "reason": "ruling"}, by="td", command_id="a2")
    assert heard.take() == said


def test_challenges_and_their_outcome_are_announced() -> None:
    t, heard = _table()
    t.play("8E QUIZ")
    heard.take()
    t.control("challenge", {"player": 1})
    assert heard.take() == ["QUIZ is good. Ben loses the turn."]
    t, heard = _table(challenge="five-point")
    t.play("8E QUIZ")
    t.control("challenge", {"player": 1})
    assert heard.take()[-1] == "QUIZ is good. Anna gets five points."


def test_a_phony_challenged_off_is_announced_once_with_the_take_back() -> None:
    t, heard = _table()
    t.place_word("8G ZQ")
    t.press()
    heard.take()
    t.control("challenge", {"player": 1})
    assert heard.take() == ["ZQ is challenged off. Anna scores nothing.", "Take the tiles off the board."]
    t.lift("G8")
    t.lift("H8")
    assert heard.take() == []


def test_time_warnings_overtime_and_the_end_with_the_winner() -> None:
    t, heard = _table()
    t.play("8E QUIZ")
    t.advance(15)
    heard.take()
    t.advance(20 * 60)
    assert heard.take() == ["Ben, five minutes left."]
    t.advance(4 * 60 + 30)
    assert heard.take() == ["Ben, one minute left."]
    t.advance(61)
    assert heard.take() == ["Ben, your time is up. Overtime."]
    for _ in range(6):
        t.press()
    heard.take()
    t.control("racks", {"player": 0, "tiles": "AEEIOUS"})
    t.control("racks", {"player": 1, "tiles": "BCDFGHJ"})
    lines = heard.take()
    assert lines[-1] == "Game over. Anna wins, thirty-seven to minus thirty-six."
    assert "Ben loses ten points on time." in lines


def test_a_restarted_table_does_not_recite_the_game() -> None:
    t, _ = _table()
    t.play("8E QUIZ")
    t.advance(15)
    late = Heard()
    t.subscribe(late)
    t.advance(1)
    assert late.take() == []
    t.press()
    assert late.take() == ["Ben passes."]


@pytest.mark.parametrize(("square", "across", "lang", "said"), [
    ("D8", True, "en", "eight D"), ("D8", False, "en", "D eight"), ("F12", True, "de", "zwölf F"),
])
def test_the_start_square_is_read_as_written(square: str, across: bool, lang: str, said: str) -> None:
    assert spoken_position(square, across, lang) == said


def test_a_move_is_read_from_its_fields_not_its_notation() -> None:
    """The snapshot's moves say where a play went and how many tiles it laid (an exchange: how many it returned):
    the announcer reads those, so its words cannot drift from a notation it would have to parse back."""
    t, heard = _table()
    t.play("H7 QI")
    t.advance(15)
    t.control("exchange", {"count": 1})
    moves = t.snapshot()["moves"]
    assert [(m.get("square"), m.get("across"), m.get("tiles")) for m in moves] == [("H7", False, 2), (None, None, 1)]
    assert heard.take() == ["QI, H seven, twenty-two. Anna, twenty-two.", "Ben exchanges one tile."]
