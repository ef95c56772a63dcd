"""Every record the project writes reads in other tools: each line matches the GCG spec's pattern as
Macondo/Woogles match it (`gcg_strict`), and the record replays clean through `referee gcg check`."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.gcg import decode_gcg, parse_gcg, write_gcg
from game.gcg_check import replay_record
from game.rules import naspa
from referee.cli import main
from referee.demo import builtin_record
from referee.journal import Journal
from referee.sim.table import SimulatedTable, default_setup
from referee.table.records import export_gcg

from .gcg_strict import check_strictly, count_matching, event_kind

GAME_DATA = Path(__file__).parents[1] / "game" / "data"


def _assert_strict_and_clean(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = check_strictly(text)
    assert report.problems == []
    assert report.event_lines > 0 and report.matched == report.event_lines
    path = tmp_path / "record.gcg"
    path.write_text(text, encoding="utf-8")
    code = main(["gcg", "check", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "0 mismatches" in out


def _rewritten(text: str) -> str:
    """A record replayed by the engine and written again by the project's writer."""
    record = parse_gcg(decode_gcg(text.encode("utf-8"))[0])
    game, result = replay_record(record, naspa())
    assert game is not None and not result.mismatches
    pragmas = {k: v for k, v in record.pragmas.items() if k in ("variant", "lexicon", "incomplete")}
    return write_gcg(game.players, game.events, pragmas)


def test_the_lines_each_pattern_names() -> None:
    assert event_kind(">Anna: IQUZ 8E QUIZ +44 44") == "move"
    assert event_kind(">Anna: 8E QUIZ +44 44") is None  # no rack: what the export wrote before
    assert event_kind(">Ben: X -- -18 0") == "phony_returned"
    assert event_kind(">Ben: EIR (EIR) -3 290") == "last_rack_penalty"
    assert event_kind(">Ann: (EIR) +6 301") == "end_rack_points"
    assert event_kind(">Ann:  (time) -10 291") == "time_penalty"
    assert event_kind(">Ann: AEIRST -AE +0 291") == "exchange"
    assert check_strictly("#player1 Anna Anna\n#player2 Anna Ben\n").problems


def test_a_journaled_table_game_exports_lines_other_tools_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = Journal(tmp_path / "games.sqlite3")
    table = SimulatedTable(default_setup(), words=["QUIZ", "ZA", "ZAP"], journal=journal)
    table.control("start", {})
    table.play("8E QUIZ")
    table.control("accept", {})
    table.place_word("H8 .X")  # a phony, challenged off
    table.press()
    table.control("challenge", {"player": 0})
    table.lift("H9")
    table.play("H8 .AP")
    table.control("challenge", {"player": 1})  # a good play challenged in vain
    assert table.game_id is not None
    text = export_gcg(journal, table.game_id)
    journal.close()
    assert ">Ben: X -- -18 0" in text
    _assert_strict_and_clean(text, tmp_path, capsys)


def test_a_journaled_game_with_a_directors_adjustments_checks_strictly_and_clean(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = Journal(tmp_path / "games.sqlite3")
    table = SimulatedTable(default_setup(), words=["QUIZ", "ZA", "ZAP"], journal=journal)
    table.control("start", {})
    table.play("8E QUIZ")
    table.director("correct_score", {"player": 1, "points": -15, "reason": "ruling\n#note fake"}, by="td",
                   command_id="a1")
    table.control("accept", {})
    table.play("H8 .AP")
    table.director("correct_score", {"player": 0, "points": 7, "reason": "paper sheet"}, by="td", command_id="a2")
    assert table.game_id is not None
    text = export_gcg(journal, table.game_id)
    journal.close()
    # notes of their own after the line they followed; the totals are the board's (Ben's play: 14, not -1),
    # and a reason's "#note" cannot start a line of its own
    assert text.endswith(">Anna: IQUZ 8E QUIZ +44 44\n#note adjustment Ben -15: ruling #note fake\n"
                         ">Ben: AP H8 .AP +14 14\n#note adjustment Anna +7: paper sheet\n")
    _assert_strict_and_clean(text, tmp_path, capsys)


def test_the_demo_record_as_the_engine_writes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _assert_strict_and_clean(_rewritten(builtin_record()), tmp_path, capsys)


@pytest.mark.parametrize("name", ["scramble_basic.gcg", "scramble_advanced.gcg"])
def test_scramble_records_carry_the_rolled_dice_as_the_rack(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _rewritten(decode_gcg((GAME_DATA / name).read_bytes())[0])
    _assert_strict_and_clean(text, tmp_path, capsys)


def test_full_real_games_rewritten_by_the_engine(
        shared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Finished games with exchanges, passes, challenges and end racks: every line kind the writer has."""
    kinds: set[str] = set()
    checked = 0
    for path in sorted((shared_dir / "gcg" / "macondo").glob("*.gcg")):
        text, _ = decode_gcg(path.read_bytes())
        record = parse_gcg(text)
        if record.incomplete or len(record.players) != 2:
            continue
        game, result = replay_record(record, naspa())
        if game is None or result.mismatches or not game.over:
            continue
        written = write_gcg(game.players, game.events, {"lexicon": record.pragmas.get("lexicon", "")})
        report = check_strictly(written)
        assert report.problems == [], path.name
        kinds |= {event_kind(line) or "" for line in written.splitlines() if line.startswith(">")}
        checked += 1
    if checked == 0:
        pytest.skip("no finished two-player game among the shared records")
    assert {"move", "end_rack_points"} <= kinds


def test_figure_lines_matching_a_full_game(tmp_path: Path) -> None:
    lines, matching = count_matching(_rewritten(builtin_record()))
    assert lines == matching > 0


def test_a_journaled_game_to_its_end_with_exchange_passes_and_racks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Six scoreless turns end the game; the racks entered at the end are written as lost, twice."""
    journal = Journal(tmp_path / "games.sqlite3")
    table = SimulatedTable(default_setup(), words=["QUIZ"], journal=journal)
    table.control("start", {})
    table.play("8E QUIZ")
    table.control("accept", {})
    table.control("exchange", {"count": 7})
    for _ in range(5):
        table.control("pass", {})
    table.control("racks", {"player": 0, "tiles": "AEINRST"})
    table.control("racks", {"player": 1, "tiles": "DEELOOU"})
    assert table.game_id is not None
    text = export_gcg(journal, table.game_id)
    journal.close()
    lines = [line for line in text.splitlines() if line.startswith(">")]
    assert lines[1] == ">Ben:  -7 +0 0" and lines[2] == ">Anna:  - +0 44"
    assert lines[-2:] == [">Anna: AEINRST (AEINRST) -7 37", ">Ben: DEELOOU (DEELOOU) -8 -8"]
    _assert_strict_and_clean(text, tmp_path, capsys)
