"""Issue 28 item 1: the simulated table's terminal tells the game (scores, questions, verdicts, the end) in the
table's language, and takes the page's actions typed at it. In-process, on `SimulatedTable`; the terminal itself
is looked at in tmux in test_sim_terminal.py."""

from __future__ import annotations

from typing import Any

from referee.sim import SimulatedTable, default_setup
from referee.sim.console import execute
from referee.sim.narrator import Narrator
from referee.sim.screen import LineEditor, Screen

WORDS = ["HOUSE", "HOUSES", "QI", "AB"]


class Hands:
    """The emulator as the console sees it, laying tiles on the in-process table instead."""

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table

    def place(self, square: str, letter: str) -> None:
        self.table.place(square, letter)

    def lift(self, square: str) -> None:
        self.table.lift(square)

    def press(self, button: int) -> None:
        self.table.press(button)

    def release(self, button: int) -> None:
        return None

    def tray(self) -> dict[int, tuple[int, int]]:
        return {}


def _table(language: str = "en") -> tuple[SimulatedTable, list[str], Hands]:
    table = SimulatedTable(default_setup(language=language), words=WORDS)
    said: list[str] = []
    table.subscribe(Narrator(said.append, language))
    return table, said, Hands(table)


def _type(hands: Hands, line: str, language: str = "en") -> str:
    return execute(hands, line, language, hands.table)


def test_the_terminal_tells_scores_questions_verdicts_and_the_end() -> None:
    table, said, hands = _table()
    table.publish()
    assert said[-1].startswith("the game waits for its start: type start")
    assert _type(hands, "start") == ""
    assert said[-1] == "the game has started: Anna to move"
    table.play("8D HOUSE")  # H on D8, a double letter; the centre square doubles the word: (4*2 + 4) * 2
    assert "Anna: 8D HOUSE (HOUSE) +24, total 24" in said
    assert said[-1].startswith("  the play may be challenged for 15 s: type challenge")
    assert _type(hands, "challenge") == ""  # Ben's clock runs: Ben challenges, and loses his turn
    assert said[-2:] == ["Ben: loses the turn +0, total 0", "! Challenge: the play stands; HOUSE are good."]
    table.play("D7 A.B")  # AHB: not a word
    assert _type(hands, "challenge 1") == ""
    assert "Anna: play withdrawn -8, total 24" in said
    assert "! AHB not in the lexicon: take the tiles off D7, D9." in said
    assert said[-1] == "  type lift D7, lift D9"
    for square in ("D7", "D9"):
        assert _type(hands, f"lift {square}") == ""
    table.advance(1)
    assert _type(hands, "press 0") == "press 0: that is Anna's button, and it is Ben's turn (press 1)"
    hands.place("A1", "Q")  # Ben's turn now
    table.press(1)
    assert said[-1].startswith("! Not a legal play: A1")
    hands.lift("A1")
    table.place_word("I8 s")
    table.press(1)
    assert said[-2:] == ["! Which letter does the blank on I8 stand for?",
                         "  type blank I8 E (the letter the blank stands for)"]
    assert _type(hands, "blank S") == ""  # the one blank asked about: its square may be left out
    assert said[-2] == "Ben: 8D .....s (HOUSES) +8, total 8"
    assert _type(hands, "accept") == ""
    assert _type(hands, "exchange 3") == ""
    assert said[-2:] == ["Anna: exchange -3 +0, total 24", "Ben to move"]
    while table.snapshot()["state"] == "turn":
        assert _type(hands, "pass") == ""
    assert said[-1].startswith("  type racks 0 and the 7 tiles left on Anna's rack")
    assert _type(hands, "racks 0 abc") == "racks: Anna has 7 tiles left, not 3"
    assert _type(hands, "racks 0 ABCDEFG") == ""
    assert _type(hands, "racks HIJKLMN") == ""  # the one rack still asked for
    snap = table.snapshot()
    assert snap["state"] == "ended"
    scores = ", ".join(f"{p['name']} {p['score']}" for p in snap["players"])
    assert said[-1] == (f"game over: {scores}; Anna wins\n"
                        "  type clear (every tile off the board), then new for the next game")
    count = len(said)
    table.publish()
    table.advance(5)
    assert len(said) == count  # the clocks' snapshots every second say nothing new


def test_a_german_tables_terminal_tells_the_game_in_german() -> None:
    table, said, hands = _table("de")
    assert _type(hands, "start", "de") == ""
    table.play("8D HOUSE")
    assert "Anna: 8D HOUSE (HOUSE) +24, Stand 24" in said
    assert said[-1].startswith("  der Zug kann 15 s lang angezweifelt werden")
    assert _type(hands, "pass", "de").startswith("pass: ")  # in the challenge window nobody passes
    assert _type(hands, "accept", "de") == ""
    assert _type(hands, "pass", "de") == ""
    assert said[-2:] == ["Ben: passt +0, Stand 0", "Anna ist am Zug"]
    assert _type(hands, "blank H8 E", "de").startswith("blank: ")


def test_a_command_refused_by_the_table_says_why_and_changes_nothing() -> None:
    table, _said, hands = _table()
    assert _type(hands, "pass").startswith("pass: ")  # before the start
    assert _type(hands, "exchange x") == "exchange: count: give the number of tiles as a whole number from 1 to 7"
    assert _type(hands, "challenge 1 2 3") == "challenge: type challenge 1"
    assert table.snapshot()["state"] == "waiting" and table.snapshot()["moves"] == []


def test_the_line_editor_keeps_what_is_typed_and_steps_through_the_history() -> None:
    editor = LineEditor()
    assert editor.feed("word 8D HOUZ\x7fSE\r") == ["word 8D HOUSE"]
    assert editor.feed("press 0\n") == ["press 0"]
    assert editor.feed("pa") == [] and editor.buffer == "pa"
    editor.feed("\x1b[A")  # up: the last command
    assert editor.buffer == "press 0"
    editor.feed("\x1b[A")
    assert editor.buffer == "word 8D HOUSE"
    editor.feed("\x1b[B\x1b[B")  # down twice: back to what was being typed
    assert editor.buffer == "pa"
    editor.feed("ss\x17")  # Ctrl-W: the word typed
    assert editor.buffer == ""
    editor.feed("lift H8\x15")  # Ctrl-U: the whole line
    assert editor.buffer == "" and editor.feed("\x1b[D\x04\r") == [""]  # an arrow left and Ctrl-D do nothing


class Terminal:
    """What a terminal shows of the bytes written: each line as the last `\\r` left it (enough for these
    escapes: \\r, \\r\\n and ESC [ K, erase to the end of the line)."""

    def __init__(self) -> None:
        self.data = ""

    def write(self, text: str) -> int:
        self.data += text
        return len(text)

    def flush(self) -> None:
        return None

    def lines(self) -> list[str]:
        return [row.split("\r")[-1].replace("\x1b[K", "") for row in self.data.split("\r\n")]


def test_the_clock_line_and_the_table_s_news_never_overwrite_what_is_typed() -> None:
    term = Terminal()
    screen: Any = Screen(term, width=lambda: 100).open()
    screen.feed("word 8D HO")
    screen.show_status("Anna 24:59 *  |  Ben 25:00")
    assert term.lines()[-1] == "Anna 24:59 *  |  Ben 25:00  > word 8D HO"
    screen.say("Ben: pass +0, total 0")
    screen.show_status("Anna 24:58 *  |  Ben 25:00")
    assert term.lines()[-2:] == ["Ben: pass +0, total 0", "Anna 24:58 *  |  Ben 25:00  > word 8D HO"]
    assert screen.feed("USE\r") == ["word 8D HOUSE"]
    assert term.lines()[-2:] == ["> word 8D HOUSE", "Anna 24:58 *  |  Ben 25:00  > "]
    narrow: Any = Screen(Terminal(), width=lambda: 30).open()
    narrow.show_status("Anna 24:58 *  |  Ben 25:00")
    narrow.feed("word 8D HOUSE")
    assert narrow.bottom_line() == "> word 8D HOUSE"  # the clocks give way, never the typing
    screen.close()
    assert term.data.endswith("\r\x1b[K")


def test_a_warning_logged_meanwhile_goes_above_the_typing() -> None:
    from referee.sim.screen import Above

    term = Terminal()
    screen: Any = Screen(term, width=lambda: 100).open()
    screen.feed("press")
    log_stream = Above(screen)
    log_stream.write("WARNING the camera is not available")
    assert term.lines()[-1] == "> press"  # half a line: nothing said yet
    log_stream.write(" (no frames)\n")
    assert term.lines()[-2:] == ["WARNING the camera is not available (no frames)", "> press"]
