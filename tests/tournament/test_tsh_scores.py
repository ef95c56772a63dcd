"""tsh score lines in the forms tsh's documentation gives (issue 24 row 12): `a ROUND DIV`, then per game
`pn1 ps1 pn2 ps2` (entry 'scores'), `pn1 ps1 pn2 ps2 spread` ('both', the spread ps1 - ps2) or `pn1 pn2
spread` ('spread'), a bye as `pn spread`, and an empty line to leave the prompt. Each text is read back by a
model of tsh's addscore prompt written from that documentation (`addscore`), which refuses what tsh refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.pairings import parse_tourney_js, tsh_round
from tournament.results import GameRecord
from tournament.tsh_scores import Bye, TshEntryError, round_byes, tsh_score_text

FIXTURES = Path(__file__).parent / "fixtures"


def record(table: int, division: str, ids: list[int | None], scores: list[int], *, ended: bool = True,
           number: int = 1) -> GameRecord:
    return GameRecord(table, 3, division, [f"P{ids[0]}", f"P{ids[1]}"], scores, [], ids, ended=ended,
                      event="Open", game=f"{table}-{number}", number=number)


def addscore(text: str, entry: str) -> dict[str, list[tuple[int, ...]]]:
    """What tsh's addscore prompt would take from `text` typed at its main prompt, per division: `a R D` opens
    the prompt, an empty line closes it; at the prompt two numbers are a bye, a game has 4 ('scores'), 5
    ('both', and its spread must be ps1 - ps2) or 3 ('spread') numbers; anything else there ends the prompt,
    which this model calls an error."""
    taken: dict[str, list[tuple[int, ...]]] = {}
    division: str | None = None
    width = {"scores": 4, "both": 5, "spread": 3}[entry]
    for line in text.split("\n"):
        words = line.split()
        if division is None:
            if not words:
                continue
            assert words[0] == "a" and len(words) == 3 and words[1].isdigit(), f"not a tsh command: {line!r}"
            division = words[2]
            continue
        if not words:
            division = None
            continue
        assert all(w.lstrip("-").isdigit() for w in words), f"tsh would leave the prompt at {line!r}"
        numbers = tuple(int(w) for w in words)
        assert len(numbers) in (2, width), f"{line!r} is neither a bye nor a game in entry mode {entry}"
        if entry == "both" and len(numbers) == 5:
            assert numbers[1] - numbers[3] == numbers[4], f"tsh refuses the spread of {line!r}"
        taken.setdefault(division, []).append(numbers)
    assert division is None, "the last division's prompt is left open"
    return taken


GAMES = [record(1, "A", [3, 8], [412, 377]), record(2, "A", [5, 1], [350, 351]),
         record(1, "2", [2, 4], [300, 300]), record(4, "A", [6, 7], [10, 0], ended=False)]
BYES = [Bye("A", 9, "Nine"), Bye("2", 5, "Five")]


@pytest.mark.parametrize("entry", ["scores", "both", "spread"])
def test_every_entry_mode_in_tshs_documented_form(entry: str) -> None:
    text, notes = tsh_score_text(GAMES, 3, byes=BYES, entry=entry)
    taken = addscore(text, entry)
    assert notes == [] and sorted(taken) == ["2", "A"]
    expected = {"scores": [(3, 412, 8, 377), (5, 350, 1, 351)], "both": [(3, 412, 8, 377, 35), (5, 350, 1, 351, -1)],
                "spread": [(3, 8, 35), (5, 1, -1)]}[entry]
    assert taken["A"] == [*expected, (9, 50)]  # the unfinished game is not there, the bye is
    assert text.startswith("a 3 2\n")  # a numeric division name, as tsh accepts it


def test_a_bye_is_worth_the_events_bye_spread_and_an_unknown_mode_is_refused() -> None:
    text, _ = tsh_score_text([], 3, byes=BYES, bye_spread=-50)
    assert addscore(text, "scores") == {"2": [(5, -50)], "A": [(9, -50)]}
    with pytest.raises(TshEntryError, match="one of scores, both, spread"):
        tsh_score_text(GAMES, 3, entry="board")


def test_one_line_per_pairing_and_a_note_for_a_game_without_tsh_numbers() -> None:
    replayed = [record(1, "A", [3, 8], [0, 0], number=1), record(1, "A", [3, 8], [412, 377], number=2),
                record(7, "A", [None, None], [300, 200])]
    text, notes = tsh_score_text(replayed, 3)
    assert addscore(text, "scores") == {"A": [(3, 412, 8, 377)]}
    assert len(notes) == 1 and "table 7" in notes[0] and "no tsh player numbers" in notes[0]


def test_byes_from_the_tourney_js_fixture() -> None:
    tourney = parse_tourney_js((FIXTURES / "tourney.js").read_text(encoding="utf-8"))
    names = tsh_round(tourney, 1, table_offsets={"B": 10})[1]
    byes = round_byes(tourney, 1)
    assert [f"{b.division} {b.name}" for b in byes] == names and all(b.id > 0 for b in byes)
