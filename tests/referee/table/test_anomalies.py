"""What is wrong on the board, found afresh from the picture and the links (referee/table/anomalies.py)."""

from __future__ import annotations

from referee.table.anomalies import Anomaly, anomalies
from referee.table.picture import Cell

BOARD_UP = {"board": True, "camera": True}


def found(**facts: object) -> list[Anomaly]:
    given: dict[str, object] = {"links": BOARD_UP, "committed": {}, "observed": {}, "pending": (), "by_hand": (),
                                "expected": (), "outside_turn": False, **facts}
    return anomalies(**given)  # type: ignore[arg-type]


def test_a_right_board_has_nothing_wrong() -> None:
    assert found(committed={"H8": "Q", "I8": "i"}, observed={"H8": Cell("Q"), "I8": Cell(None, blank=True)}) == []


def test_a_lost_board_says_only_that_it_is_lost() -> None:
    """With no picture to trust, the squares are not judged: every committed tile would read as lifted."""
    assert found(links={"board": False, "camera": False}, committed={"H8": "Q"}) == [
        Anomaly("board_lost", "error"), Anomaly("camera_lost", "error")]


def test_a_lifted_tile_and_a_lifted_tile_of_the_play_being_read_are_moved() -> None:
    assert found(committed={"H8": "Q", "H9": "I"}, observed={"H9": Cell("I")}, pending=["J8"]) == [
        Anomaly("tile_moved", "error", ("H8", "J8"))]


def test_another_sure_letter_on_a_committed_square_is_changed_but_a_blank_or_a_given_letter_is_not() -> None:
    committed = {"H8": "Q", "H9": "i", "H10": "T", "H11": "E"}
    observed = {"H8": Cell("O"), "H9": Cell("X"), "H10": Cell("R"), "H11": Cell("F", doubt="a hand over it")}
    assert found(committed=committed, observed=observed, by_hand=["H10"]) == [
        Anomaly("tile_changed", "error", ("H8",))]


def test_tiles_put_down_outside_a_turn_warn_unless_they_are_expected() -> None:
    observed = {"A1": Cell("A"), "B2": Cell("B"), "C3": Cell("C")}
    assert found(observed=observed, expected=["B2"], pending=["C3"], outside_turn=True) == [
        Anomaly("tiles_added", "warning", ("A1",))]
    assert found(observed=observed, outside_turn=False) == []
