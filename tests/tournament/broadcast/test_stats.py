"""Each game's figures, from score sheets of real games (../shared/gcg), checked against the GCG lines read
independently of the module: a play line whose word puts down seven tiles, the highest play, the spread."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.gcg import MoveKind, parse_gcg
from tournament.broadcast.stats import game_stats, tiles_put_down

GAMES = ["liwords/pkg_stats_testdata_four_or_more_consecutive_bingos.gcg",
         "liwords/pkg_stats_testdata_doug_vs_emely.gcg",
         "macondo/gcgio_testdata_doug_v_emely_double_challenge.gcg", "german/nu19_timon-alex.gcg"]
KINDS = {MoveKind.PLAY: "play", MoveKind.PASS: "pass", MoveKind.EXCHANGE: "exchange",
         MoveKind.WITHDRAWN: "withdrawn", MoveKind.CHALLENGE_BONUS: "challenge", MoveKind.TIME_PENALTY: "penalty",
         MoveKind.END_RACK: "end"}


def test_tiles_put_down() -> None:
    assert [tiles_put_down(n) for n in ("8D WO.D", "8D W(O)D", "H8 QUIXOTIC", "7A sAT.ERS", "pass")] == [3, 2, 8, 6, 0]


@pytest.mark.parametrize("name", GAMES)
def test_a_real_games_figures(shared_dir: Path, name: str) -> None:
    path = shared_dir / "gcg" / name
    if not path.exists():
        pytest.skip(f"{path} is not there")
    raw = path.read_bytes().decode("utf-8", "replace")
    record = parse_gcg(raw)
    nicks = [p.nick for p in record.players]
    moves = [{"player": nicks.index(m.nick), "kind": KINDS[m.kind], "notation": m.move, "score": m.score,
              "total": m.total} for m in record.moves]
    finals = [0, 0]
    for m in record.moves:
        finals[nicks.index(m.nick)] = m.total
    stats = game_stats(moves, finals)

    # the GCG's own lines, read with a pattern of the format: >nick: RACK POS WORD +score total
    lines = [ln for ln in raw.splitlines() if ln.startswith(">")]
    plays = []
    for i, line in enumerate(lines):
        match = re.match(r">([^:]+):\s+\S+\s+([0-9]+[A-Oa-o]|[A-Oa-o][0-9]+)\s+(\S+)\s+\+(\d+)", line)
        taken_back = i + 1 < len(lines) and re.match(rf">{re.escape(line[1:].split(':')[0])}:\s+\S+\s+--", lines[i + 1])
        if match and not taken_back:
            word = re.sub(r"\([^)]*\)", "", match.group(3))
            plays.append((match.group(1), sum(1 for c in word if c != "."), int(match.group(4))))
    for index, nick in enumerate(nicks):
        mine = [p for p in plays if p[0] == nick]
        assert stats["players"][index]["bingos"] == sum(1 for p in mine if p[1] >= 7)
        assert stats["players"][index]["plays"] == len(mine)
        assert stats["players"][index]["highest"]["score"] == max(p[2] for p in mine)
    assert stats["bingos"] == sum(1 for p in plays if p[1] >= 7)
    assert stats["spread"] == finals[0] - finals[1]
    if "four_or_more" in name:
        assert stats["bingos"] >= 4


def test_a_play_taken_back_is_neither_a_bingo_nor_the_highest() -> None:
    moves = [{"player": 0, "kind": "play", "notation": "8B ZYXWVUT", "score": 120, "total": 120},
             {"player": 0, "kind": "withdrawn", "notation": "--", "score": -120, "total": 0},
             {"player": 1, "kind": "play", "notation": "8D QI", "score": 22, "total": 22}]
    stats = game_stats(moves, [0, 22])
    assert stats["bingos"] == 0 and stats["players"][0]["highest"] is None
    assert stats["highest"] == {"notation": "8D QI", "score": 22} and stats["spread"] == -22


def test_the_results_json_and_the_rounds_zip_carry_each_games_figures(shared_dir: Path) -> None:
    import csv
    import io
    import json
    import zipfile

    from tournament.results import GameRecord, results_json, round_zip

    path = shared_dir / "gcg" / GAMES[0]
    if not path.exists():
        pytest.skip(f"{path} is not there")
    record = parse_gcg(path.read_bytes().decode("utf-8", "replace"))
    nicks = [p.nick for p in record.players]
    moves = [{"player": nicks.index(m.nick), "kind": KINDS[m.kind], "notation": m.move, "score": m.score,
              "total": m.total} for m in record.moves]
    finals = [next(m.total for m in reversed(record.moves) if m.nick == n) for n in nicks]
    game = GameRecord(3, 1, "A", [p.name or p.nick for p in record.players], finals, moves, [1, 2], ended=True,
                      game="3-1", number=1)
    expected = game_stats(moves, finals)
    row = json.loads(results_json([game]))["games"][0]
    assert row["stats"] == expected and row["stats"]["bingos"] >= 4
    with zipfile.ZipFile(io.BytesIO(round_zip([game], 1))) as archive:
        lines = list(csv.DictReader(io.StringIO(archive.read("round01/stats.csv").decode())))
    assert len(lines) == 1
    assert int(lines[0]["bingos1"]) + int(lines[0]["bingos2"]) == expected["bingos"]
    assert int(lines[0]["spread"]) == finals[0] - finals[1]
    assert max(int(lines[0]["highest_score1"]), int(lines[0]["highest_score2"])) == expected["highest"]["score"]
