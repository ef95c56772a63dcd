"""`LiveTable.reading()`: the one way to read a running table from outside referee/table/."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest

from game.squares import Square
from game.tiles import Tile
from referee.sim.table import SimulatedTable, default_setup
from referee.table.state import TableState

ROOT = Path(__file__).resolve().parents[3]


def test_a_reading_answers_the_services_questions() -> None:
    t = SimulatedTable(default_setup(), words=["QUIZ"])
    with t.reading() as now:
        assert now.state is TableState.WAITING
        assert now.players == default_setup().players and not now.scramble
        assert now.dice_to_draw == 0 and now.dice == () and now.hand == ""
    t.control("start", {})
    snap = t.play("8E QUIZ")
    with t.reading() as now:
        assert now.state is TableState.CHALLENGE
        assert now.on_turn == 1  # the next player's clock runs during the window
        assert now.rack_size(0) == snap["players"][0]["rack_count"]
        board = now.board()
    assert sorted(str(sq) for sq, _ in board.tiles()) == snap["last_play"]
    board.place([(Square.from_str("A1"), Tile.from_str("Z"))])  # the copy is the caller's, not the game's
    assert t.snapshot()["board"][0] == "..............."


def test_a_reading_kept_past_its_block_refuses() -> None:
    t = SimulatedTable(default_setup(), words=["QUIZ"])
    with t.reading() as now:
        assert now.state is TableState.WAITING
    with pytest.raises(RuntimeError, match=r"inside its `with table.reading\(\)` block"):
        _ = now.state


def test_the_table_waits_for_a_reading_to_end() -> None:
    t = SimulatedTable(default_setup(), words=["QUIZ"])
    started = threading.Event()
    done = threading.Event()

    def start() -> None:
        started.set()
        t.control("start", {})
        done.set()

    with t.reading() as now:
        worker = threading.Thread(target=start)
        worker.start()
        assert started.wait(5)
        assert not done.wait(0.2)  # blocked on the table's lock while the reading lasts
        assert now.state is TableState.WAITING
    assert done.wait(5)
    worker.join(5)
    with t.reading() as now:
        assert now.state is TableState.TURN


def _reaches_in(path: Path) -> list[str]:
    """`x._lock` of a table, `.machine` of a table: what only referee/table/ may touch."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("_lock", "machine"):
            owner = ast.unparse(node.value)
            if "table" in owner:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {owner}.{node.attr}")
    return found


def test_nothing_outside_the_table_package_takes_its_lock_or_walks_its_machine() -> None:
    offences = [hit for path in sorted((ROOT / "referee").rglob("*.py"))
                if path.relative_to(ROOT / "referee").parts[0] != "table"
                for hit in _reaches_in(path)]
    assert offences == [], "read a live table through `with table.reading() as r:` instead:\n" + "\n".join(offences)


def test_the_lexicon_pins_a_blank_when_it_leaves_one_letter() -> None:
    """QUIZ with the Z a blank: only QUIZ of the lexicon fits QUI?, so the blank is a Z; with QUIT also in the
    lexicon it may be a Z or a T, and the table must ask."""
    for words, expected in ((["QUIZ"], ("Z",)), (["QUIZ", "QUIT"], ("T", "Z")), (["QUA"], ())):
        t = SimulatedTable(default_setup(), words=words)
        t.control("start", {})
        for sq, ch in (("E8", "Q"), ("F8", "U"), ("G8", "I"), ("H8", "?")):
            t.place(sq, ch)
        t.press()
        with t.reading() as now:
            assert now.state is TableState.BLANK
            assert now.blank_letters() == {"H8": expected}, words


def test_a_blank_is_pinned_by_its_cross_word_too() -> None:
    """ZA lies across row 8; a blank on H9 (under the A) and an O on I9 make ?O across and A? down: AT, AS
    and AX fit the down word, only TO the across one, so the blank is a T."""
    t = SimulatedTable(default_setup(), words=["ZA", "AT", "AS", "TO", "AX"])
    t.control("start", {})
    t.play("8G ZA")
    t.advance(20)  # the challenge window closes
    t.place("H9", "?")
    t.place("I9", "O")
    t.press()
    with t.reading() as now:
        # H9 makes A? down (AT, AS, AX) and ?O across (TO only): T
        assert now.blank_letters() == {"H9": ("T",)}


def test_no_blank_letters_while_another_letter_is_in_doubt() -> None:
    t = SimulatedTable(default_setup(), words=["QUIZ"])
    t.control("start", {})
    for sq, ch in (("E8", "Q"), ("F8", "U"), ("H8", "?")):
        t.place(sq, ch)
    t.place_doubtful("G8")
    t.press()
    with t.reading() as now:
        assert now.state is TableState.BLANK and now.blank_letters() == {}
