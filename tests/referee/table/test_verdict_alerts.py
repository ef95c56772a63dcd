"""A verdict on a play ("QUIZ is good.") stands while the next player thinks and goes once that turn ends:
it never stays under a later play, an exchange, or the end of the game."""

from __future__ import annotations

from referee.sim.table import SimulatedTable, default_setup


def _table() -> SimulatedTable:
    t = SimulatedTable(default_setup(challenge="double"), words=["QUIZ", "AX", "AU", "XI"])
    t.control("start", {})
    return t


def _codes(snap: dict) -> list[str]:
    return [a["code"] for a in snap["alerts"]]


def test_a_verdict_goes_when_the_next_play_is_made() -> None:
    t = _table()
    t.play("8E QUIZ")
    snap = t.control("challenge", {"player": 1})
    assert "challenge_good" in _codes(snap)  # Ben lost his turn: Anna plays on, the verdict still shown
    t.advance(30)
    assert "challenge_good" in _codes(t.snapshot())
    snap = t.play("7F AX")
    t.advance(15)
    assert snap["moves"][-1]["notation"] == "7F AX"
    assert "challenge_good" not in _codes(t.snapshot())


def test_a_verdict_goes_with_an_exchange_too() -> None:
    t = _table()
    t.play("8E QUIZ")
    t.control("challenge", {"player": 1})
    snap = t.control("exchange", {"count": 2})
    assert "challenge_good" not in _codes(snap)


def test_the_snapshot_names_the_start_square_of_its_layout() -> None:
    assert SimulatedTable(default_setup()).snapshot()["start"] == "H8"
    scramble = SimulatedTable(default_setup(kind="scramble")).snapshot()
    assert scramble["start"] == "E5" and len(scramble["premiums"]) == 9
