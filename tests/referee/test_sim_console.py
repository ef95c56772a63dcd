from __future__ import annotations

import io
from typing import Any

from referee.sim.console import execute, start_console


class FakeEmulator:
    """Records what the console asks of the board emulator (the real one is tested in test_service.py)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args: self.calls.append((name, *args))

    def tray(self) -> dict[int, tuple[int, int]]:
        return {}


def test_commands_reach_the_emulator() -> None:
    emu = FakeEmulator()
    assert execute(emu, "place h8 q") == ""
    assert execute(emu, "word 8E QUiZ") == ""
    assert execute(emu, "lift H8") == "" and execute(emu, "unplug") == "" and execute(emu, "roll 1 4 3") == ""
    assert emu.calls == [("place", "H8", "Q"), ("place", "E8", "Q"), ("place", "F8", "U"), ("place", "G8", "?"),
                         ("place", "H8", "Z"), ("lift", "H8"), ("unplug",), ("roll", 0, 3, 2)]


def test_unknown_and_malformed_commands_say_so() -> None:
    emu = FakeEmulator()
    assert "unknown command" in execute(emu, "fly away")
    assert "press" in execute(emu, "press x")
    assert "word" in execute(emu, "word 8 AB")
    assert "place H8" in execute(emu, "help")
    assert emu.calls == []


def test_console_reads_lines_until_the_end() -> None:
    emu = FakeEmulator()
    out = io.StringIO()
    start_console(emu, io.StringIO("lift A1\nbogus\n"), out).join(5)
    assert emu.calls == [("lift", "A1")] and "unknown command" in out.getvalue()


class OffBoardEmulator(FakeEmulator):
    """A 15x15 board that refuses squares past column O, as the real emulator does."""

    def place(self, square: str, letter: str) -> None:
        if square[0] > "O":
            raise ValueError(f"{square} is off the board")
        self.calls.append(("place", square, letter))

    def lift(self, square: str) -> None:
        self.calls.append(("lift", square))


def test_a_word_running_off_the_board_leaves_no_tiles() -> None:
    emu = OffBoardEmulator()
    reply = execute(emu, "word 8M QUIZZES")
    assert "P8 is off the board" in reply
    placed = [c[1] for c in emu.calls if c[0] == "place"]
    lifted = [c[1] for c in emu.calls if c[0] == "lift"]
    assert placed == ["M8", "N8", "O8"] and lifted == placed


def test_a_known_command_with_the_wrong_arguments_shows_its_form() -> None:
    emu = FakeEmulator()
    assert execute(emu, "word 8E") == "word: type word 8E QUIZ"
    assert execute(emu, "place H8") == "place: type place H8 Q"
    assert execute(emu, "press x") == "press: 'x' is not a button number; type press 0"
    assert "slot 'a': give a number from 1 to 7" in execute(emu, "roll a b c")
    assert emu.calls == []


def test_a_german_tables_console_answers_in_german() -> None:
    emu = FakeEmulator()
    assert "unbekannter Befehl" in execute(emu, "fly away", "de")
    assert "keine Tastennummer" in execute(emu, "press x", "de")
    assert "Blanko" in execute(emu, "help", "de") and "der Tisch" in execute(emu, "help", "de")
    assert "bitte so eingeben: word 8E QUIZ" in execute(emu, "word", "de")
    assert emu.calls == []


def test_the_command_is_named_the_way_it_was_started(tmp_path: Any, monkeypatch: Any) -> None:
    # After `make run` the program is .venv/bin/referee, not on the PATH: the export hint must say so.
    from referee.cli import command_name

    script = tmp_path / ".venv" / "bin" / "referee"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert command_name(str(script)) == ".venv/bin/referee"
    monkeypatch.setenv("PATH", str(script.parent))
    script.chmod(0o755)
    assert command_name(str(script)) == "referee"


def test_clear_takes_every_tile_off_the_emulated_board() -> None:
    from firmware_bridge.emulator import EmulatedBoard

    class Hands:
        def __init__(self) -> None:
            self.board = EmulatedBoard(coded=True)

        def place(self, square: str, letter: str) -> None:
            self.board.place(square, letter)

        def lift(self, square: str) -> None:
            self.board.lift(square)

    hands = Hands()
    assert execute(hands, "word 8D HOUSE") == "" and len(hands.board.occupied()) == 5
    assert execute(hands, "clear") == ""
    assert hands.board.occupied() == {}


def test_a_german_tables_console_says_a_refused_input_in_german() -> None:
    """The page's input checks are said in the table's language at the terminal too (referee/words/checks.py)."""
    from referee.sim import ManualClock, SimulatedTable, default_setup

    table = SimulatedTable(default_setup(language="de", edition="german"), clock=ManualClock())
    table.control("start", {})
    assert execute(FakeEmulator(), "exchange 9", "de", table) == (
        "exchange: Steine: 9 ist nicht möglich: die Anzahl der Steine ist 1 bis 7")
    assert execute(FakeEmulator(), "exchange 9", "en", table) == (
        "exchange: count: 9 is out of range: the number of tiles is 1 to 7")
    assert table.snapshot()["moves"] == []
