from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import GCGError
from game.gcg import decode_gcg, parse_gcg
from game.gcg_check import CheckResult, check_record, replay_record, rules_for_record
from game.rules import ChallengeRule, EndRackRule, german, naspa


def check(text: str) -> CheckResult:
    return check_record(parse_gcg(text), naspa())


def test_clean_record_has_no_mismatch() -> None:
    result = check("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>b: AEH H7 A.E +3 3\n>a: - +0 10\n")
    assert result.mismatches == [] and result.plays == 3


def test_wrong_score_reported_once_with_words() -> None:
    result = check("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +11 11\n>b: AEH H7 A.E +3 3\n>a: - +0 11\n")
    assert [(m.line, m.recorded, m.computed) for m in result.mismatches] == [(3, "8G CAT +11", "+10")]
    assert result.mismatches[0].why == "words CAT 10"


def test_wrong_sum_reported_once() -> None:
    result = check("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 12\n>b: AEH H7 A.E +3 3\n>a: - +0 12\n")
    assert [(m.line, m.recorded, m.computed, m.why) for m in result.mismatches] == [
        (3, "total 12", "total 10", "the running total does not add up")
    ]


def test_illegal_play_is_reported_and_the_replay_follows_the_record() -> None:
    result = check("#player1 a a\n#player2 b b\n>a: ACT 8A CAT +10 10\n>b: AEH B7 A.E +3 3\n")
    assert result.mismatches[0].why == "A8-C8: the first play must cover the start square H8"
    assert len(result.mismatches) == 1


def test_an_adjustment_note_is_applied_where_it_stands_and_the_totals_stay_the_boards() -> None:
    """`#note adjustment NICK +N: REASON`: the replay reaches the adjusted scores; the record's totals are the
    game as played on the board, and a total that takes the adjustment in is the slip it would be."""
    text = ("#player1 a a\n#player2 b b\n#note adjustment b -5: late to the table\n>a: ACT 8G CAT +10 10\n"
            "#note adjustment a -12: phone rang\n#note adjustment b +7: paper sheet\n>b: AEH H7 A.E +3 3\n"
            ">a: - +0 10\n")
    game, result = replay_record(parse_gcg(text), naspa())
    assert result.mismatches == [] and result.plays == 6  # three lines, three adjustments
    assert game is not None and game.scores == [-2, 5]
    slipped = check(text.replace(">a: - +0 10", ">a: - +0 -2"))
    assert [(m.line, m.why) for m in slipped.mismatches] == [(8, "the running total does not add up")]
    unknown = check("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n#note adjustment zed -5: who?\n")
    assert [(m.line, m.computed) for m in unknown.mismatches] == [(4, "no such player")]
    refused = check("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n#note adjustment a +5000: too much\n")
    assert [(m.line, m.computed) for m in refused.mismatches] == [(4, "refused")]


def test_an_adjustment_line_is_applied_as_written_and_no_rule_is_read_from_it() -> None:
    result = check("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>a:  (time) -7 3\n"
                   "#note adjustment: a ruling\n>b:  (challenge) +15 15\n#note adjustment: paper sheet\n"
                   ">b: AEH H7 A.E +3 18\n")
    assert result.mismatches == [] and result.plays == 4
    # unmarked, the same lines are a time penalty of 7 (not a multiple of 10) and a bonus with no challenge
    bare = check("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>a:  (time) -7 3\n"
                 ">b:  (challenge) +15 15\n>b: AEH H7 A.E +3 18\n")
    assert [m.line for m in bare.mismatches] == [4, 5]
    rules, _ = rules_for_record(parse_gcg(">a: A 8G AT +4 4\n>b:  (challenge) +7 7\n#note adjustment: x\n"),
                                naspa())
    assert rules is not None and rules.challenge is ChallengeRule.DOUBLE  # no challenge bonus in the record


def test_rules_read_from_the_record_structure() -> None:
    five = parse_gcg(">a: A 8G AT +4 4\n>a: X (challenge) +5 9\n>b: (Q) +20 20\n")
    rules, notes = rules_for_record(five, naspa())
    assert rules is not None and rules.challenge is ChallengeRule.FIVE_POINT
    assert rules.end_racks is EndRackRule.DOUBLE_TO_OUT and notes == []
    each = parse_gcg(">a: A 8G AT +4 4\n>a: (Q) +10 14\n>b: Q (Q) -10 -10\n")
    rules, _ = rules_for_record(each, naspa())
    assert rules is not None and rules.end_racks is EndRackRule.EACH_WAY
    strange = parse_gcg(">a: A 8G ЖЖ +4 4\n")
    rules, notes = rules_for_record(strange, naspa())
    assert rules is None and notes == ["letters Ж are in no shipped tile set"]
    assert check_record(strange, naspa()).skipped == "letters Ж are in no shipped tile set"


def _check_folder(folder: Path, default: object) -> tuple[int, list[tuple[str, int, str]]]:
    plays = 0
    found = []
    for path in sorted(folder.glob("*.gcg")):
        result = check_record(parse_gcg(decode_gcg(path.read_bytes())[0]), default)  # type: ignore[arg-type]
        assert result.skipped is None, path
        plays += result.plays
        found += [(path.name, m.line, m.why) for m in result.mismatches]
    return plays, found


def test_english_records_reproduce(shared_dir: Path) -> None:
    found = []
    for sub in ("liwords", "macondo", "quackle"):
        _, mismatches = _check_folder(shared_dir / "gcg" / sub, naspa())
        found += mismatches
    assert [(name, line) for name, line, _ in found] == [
        ("pkg_puzzles_testdata_r20_peter.gcg", 19),  # documented annotation error: BRUnCH..Y scores 113
    ]  # many_challenges.gcg's +10 among +5 bonuses is 5 points for each of two words challenged


def test_polish_record_uses_the_polish_tiles(shared_dir: Path) -> None:
    path = shared_dir / "gcg" / "macondo" / "gcgio_testdata_polish_endgame.gcg"
    result = check_record(parse_gcg(decode_gcg(path.read_bytes())[0]), naspa())
    assert result.mismatches == []
    assert any("checked with the polish tile set" in n for n in result.notes)


def test_german_records(shared_dir: Path) -> None:
    plays, found = _check_folder(shared_dir / "gcg" / "german", german())
    assert plays == 83
    # ScrabScrap's own slips, confirmed against photos/labels.json (see docs/gcg.md)
    assert [(name, line) for name, line, _ in found] == [
        ("nu19_johannes-stefan.gcg", 20), ("nu19_johannes-stefan.gcg", 20), ("nu19_johannes-stefan.gcg", 26),
        ("nu19_stefan-hanns.gcg", 28),
    ]


def test_engine_score_sheet_written_as_gcg_checks_clean(shared_dir: Path) -> None:
    """Replay real records, write the engine's own score sheet as GCG, and check that: the writer and
    the reader agree on every line, and the engine agrees with itself."""
    from game.gcg import write_gcg
    from game.gcg_check import replay_record

    names = ["liwords/pkg_puzzles_testdata_r20_peter.gcg", "quackle/test_positions_fivepoint.gcg",
             "macondo/gcgio_testdata_polish_endgame.gcg", "german/nu19_timon-alex.gcg"]
    for name in names:
        record = parse_gcg(decode_gcg((shared_dir / "gcg" / name).read_bytes())[0])
        default = german() if name.startswith("german") else naspa()
        game, _ = replay_record(record, default)
        assert game is not None
        text = write_gcg(game.players, game.events)
        again = check_record(parse_gcg(text), game.rules)
        assert again.mismatches == [], (name, again.mismatches[:3])
        assert parse_gcg(text).moves[-1].total == game.events[-1].total


def test_german_replays_end_on_the_photographed_boards(shared_dir: Path) -> None:
    """The engine's final board of each Nuremberg record is the board in the last photo (labels.json):
    in the real orientation where the record says `#orientation lettered-rows`, transposed where it does not."""
    import json

    from game.gcg_check import replay_record

    labels = json.loads((shared_dir / "photos" / "labels.json").read_text(encoding="utf-8"))
    for name, photo, lettered_rows in [("nu19_stefan-hanns", "game01", False), ("nu19_timon-alex", "game02", False),
                                       ("nu19_johannes-stefan", "game03", True)]:
        record = parse_gcg(decode_gcg((shared_dir / "gcg" / "german" / f"{name}.gcg").read_bytes())[0])
        assert (record.pragmas.get("orientation") == "lettered-rows") is lettered_rows
        game, _ = replay_record(record, german())
        assert game is not None
        cells = game.board.cells
        # the labels write a blank as ?
        shown = ["." if t is None else "?" if t.blank else t.letter for t in cells]
        board = [[shown[r * 15 + c] if lettered_rows else shown[c * 15 + r] for c in range(15)] for r in range(15)]
        final = next(x for x in reversed(labels) if x["game"] == photo)
        assert ["".join(row) for row in board] == final["board"], name


def test_woogles_tile_distribution_and_layout_pragmas() -> None:
    german_tiles = parse_gcg("#tile-distribution German\n#board-layout CrosswordGame\n>a: DÜS 8G DÜS +16 16\n")
    rules, notes = rules_for_record(german_tiles, naspa())
    assert rules is not None and rules.tiles.name == "german" and rules.layout.name == "standard" and notes == []
    odd = parse_gcg("#tile-distribution klingon\n#board-layout SuperCrosswordGame\n>a: AT 8G AT +4 4\n")
    rules, notes = rules_for_record(odd, naspa())
    assert rules is not None and rules.tiles.name == "english"
    assert notes == ["#tile-distribution klingon: no such tile set shipped, using english",
                     "#board-layout SuperCrosswordGame: no such layout shipped, using standard"]


def test_lexicon_notes() -> None:
    text = ("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>b: AEH H7 A.E +3 3\n>b: AEH -- -3 0\n"
            ">a: AT 9G AT +10 20\n")
    result = check_record(parse_gcg(text), naspa(), lexicon={"CAT", "AAE", "AT", "CA"})
    assert result.mismatches == []
    assert result.notes == ["line 4: withdrawn, but AAE all in the lexicon"]
    result = check_record(parse_gcg(text), naspa(), lexicon={"AT"})
    assert result.notes == ["line 3: CAT not in the lexicon (the play stood)",
                            "line 6: CA not in the lexicon (the play stood)"]
    assert check_record(parse_gcg(text), naspa()).notes == []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([
    ">a: ACT 8G CAT +10 10", ">b: AEH H7 A.E +3 3", ">b: AEH -- -3 0", ">a: X (challenge) +5 15",
    ">a: AT 9G AT +10 20", ">b: - +0 3", ">a: -AB +0 10", ">b: -3 +0 3", ">a: (Q) +20 30", ">b: Q (Q) -10 -7",
    ">a: (time) -10 0", ">c: A 8A A +1 1", ">a: ZZZZ 8A ZZZZ +40 40", ">b: AB A1 A.B +1 1", ">a: Q 15O Q +10 10",
]), max_size=10))
def test_checker_raises_only_project_errors(lines: list[str]) -> None:
    from game.errors import RefereeError

    text = "#player1 a a\n#player2 b b\n" + "\n".join(lines)
    try:
        result = check_record(parse_gcg(text), naspa())
    except RefereeError as exc:
        assert str(exc)
    else:
        assert result.plays == len(lines)


def test_unknown_player_is_a_mismatch_and_the_check_goes_on() -> None:
    result = check("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>c: AEH H7 A.E +3 3\n>b: AEH H7 A.E +3 3\n")
    assert [(m.line, m.why) for m in result.mismatches] == [(4, "line 4: 'c' is not a player of this game")]
    assert result.plays == 3


def test_mixed_bonuses_are_checked_per_word_challenged() -> None:
    # +10 after a play of three words (AT, AA, TT: two of them challenged) and +5 after a play of one word
    # (CATS): 5 points per word wrongly challenged [WESPA A.i]
    record = ("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>b: AT 9H AT +8 8\n>b: X (challenge) +10 18\n"
              ">a: S 8G ...S +6 16\n>a: X (challenge) +5 21\n")
    rules, notes = rules_for_record(parse_gcg(record), naspa())
    assert rules is not None and rules.challenge is ChallengeRule.FIVE_POINT and rules.challenge_bonus_per_word
    assert notes == ["challenge bonuses +10, +5: 5 points per word"]
    result = check(record)
    assert result.mismatches == [], result.mismatches


def test_per_word_bonus_larger_than_the_play_allows_is_a_mismatch() -> None:
    record = ("#player1 a a\n#player2 b b\n>a: ACT 8G CAT +10 10\n>a: X (challenge) +10 20\n"
              ">b: AEH H7 A.E +3 3\n>b: X (challenge) +5 8\n")
    result = check(record)
    assert [(m.line, m.computed) for m in result.mismatches] == [(4, "0")]
    assert "2 words challenged, but the play formed 1 word" in result.mismatches[0].why


def test_a_file_that_is_no_record_says_so() -> None:
    from game.errors import GCGError

    with pytest.raises(GCGError, match="not a GCG record"):
        check_record(parse_gcg("garbage\nmore garbage\n"), naspa())


class _CountingEvents(list):  # type: ignore[type-arg]
    """The engine's event list, counting every event a reader walks over (the work of a replay, with no clock)."""

    visited = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for item in super().__iter__():
            _CountingEvents.visited += 1
            yield item


@pytest.mark.parametrize("line", [">a: ABCDEFG - +0 0", ">a: -ABC +0 0", ">a: (time) -10 -10"])
def test_replay_work_grows_with_the_lines_not_with_their_square(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record of thousands of lines (an 8,000-line one took 12.75 s: each line summed every event before it)."""
    from game import gcg_check

    made = gcg_check._Replay.__init__

    def counted(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        made(self, *args, **kwargs)
        self.game.events = _CountingEvents(self.game.events)

    monkeypatch.setattr(gcg_check._Replay, "__init__", counted)
    for lines in (1000, 2000):
        _CountingEvents.visited = 0
        body = "\n".join(line.replace(">a:", ">b:") if i % 2 else line for i in range(lines))
        result = check_record(parse_gcg("#player1 a a\n#player2 b b\n" + body), naspa())
        assert result.plays == lines
        assert _CountingEvents.visited <= 5 * lines, _CountingEvents.visited


def test_a_long_line_of_numbers_is_parsed_in_one_pass() -> None:
    """Finding the score and the total: the last pair of numbers, found from the end of the line."""
    from game.gcg import parse_move_line

    mv = parse_move_line(">a: ABC 8G CAT +10 10 " + "x " * 5, 1)
    assert (mv.score, mv.total, mv.extra) == (10, 10, "x x x x x")
    many = ">a: " + " ".join(["7"] * 40_000)
    with pytest.raises(GCGError, match="cannot tell rack and move apart"):
        parse_move_line(many, 1)
