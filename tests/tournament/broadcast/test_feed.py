"""`/tourney.js`'s text: the loaded tsh file with each ended game's scores, read back by two readers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tournament.broadcast.feed import TourneyFeed, filled_scores, write_tourney_js
from tournament.pairings import parse_tourney_js, tourney_data, tsh_round
from tournament.results import GameRecord

from .tsh_reader import read_tsh, scores_of

FIXTURE = (Path(__file__).parents[1] / "fixtures" / "tourney.js").read_text(encoding="utf-8")


def round_records(round_: int, *, ended: set[int], scores: dict[int, tuple[int, int]]) -> list[GameRecord]:
    """A record for every pairing of the fixture's round (tables of division B offset by 10)."""
    games, _ = tsh_round(parse_tourney_js(FIXTURE), round_, table_offsets={"B": 10})
    return [GameRecord(g.table, round_, g.division, list(g.players), list(scores.get(g.table, (0, 0))),
                       ids=list(g.ids), ended=g.table in ended, game=f"{g.table}-1", number=1) for g in games]


def test_the_ended_games_scores_are_filled_in_and_both_readers_agree() -> None:
    records = round_records(2, ended={1, 2, 11}, scores={1: (401, 388), 2: (350, 420), 11: (377, 377), 12: (90, 80)})
    text = write_tourney_js(filled_scores(FIXTURE, records))
    assert text.startswith("newt={") and text.endswith("};\n") and text.count("\n") == 1  # one line, as tsh
    assert "null" not in text and '"currency_symbol":undefined' in text and "[undefined," in text
    ours = parse_tourney_js(text)
    theirs = scores_of(read_tsh(text))
    pairings = {(g.table): g for g in tsh_round(parse_tourney_js(FIXTURE), 2, table_offsets={"B": 10})[0]}
    for table, (s1, s2) in {1: (401, 388), 2: (350, 420), 11: (377, 377)}.items():
        game = pairings[table]
        for player, score in zip(game.ids, (s1, s2), strict=True):
            assert player is not None
            assert ours.divisions[game.division][player].scores[1] == score
            assert theirs[(game.division, player)][1] == score
    # table 12 has not ended: its players' round-2 scores stay absent in both readings
    game = pairings[12]
    for player in game.ids:
        assert player is not None
        assert len(ours.divisions["B"][player].scores) < 2
        assert len(theirs[("B", player)]) < 2
    # everything else is the file as tsh wrote it: the pairings, boards, firsts and config
    before, after = tourney_data(FIXTURE), tourney_data(text)
    for d, division in enumerate(before["divisions"]):
        for n, player in enumerate(division["players"]):
            if player is None:
                assert after["divisions"][d]["players"][n] is None
                continue
            mine = after["divisions"][d]["players"][n]
            assert {k: v for k, v in mine.items() if k != "scores"} == {k: v for k, v in player.items()
                                                                          if k != "scores"}
            assert mine["scores"][:len(player["scores"])] == player["scores"]  # what tsh had is kept
    assert after["config"] == before["config"] and after["esb"] == before["esb"]


def test_a_game_the_file_does_not_pair_is_left_out() -> None:
    records = round_records(1, ended={1}, scores={1: (500, 300)})
    records[0].ids = [1, 3]  # not paired in round 1 of the file
    data = filled_scores(FIXTURE, records)
    assert data["divisions"][0]["players"][1]["scores"] == [452]  # as the file had it


def test_the_feed_is_written_again_off_the_answer_when_a_game_ended() -> None:
    import asyncio
    import threading

    ended: set[int] = set()
    release = threading.Event()
    release.set()

    def records() -> list[GameRecord]:
        release.wait(10)  # the store's writer may be busy: the answers do not wait for it
        return round_records(2, ended=set(ended), scores={2: (401, 388)})  # table 2: players 3 and 1 of A

    feed = TourneyFeed(lambda: FIXTURE, records)
    feed.DEBOUNCE_S = 0.0

    async def run() -> None:
        first = await feed.answer()  # the first answer is written at once
        assert feed.writes == 1 and "401" not in first
        assert await feed.answer() is first and feed.writes == 1  # nothing changed: nothing written
        release.clear()
        ended.add(2)
        feed.changed()  # table 2 ended its game
        assert await feed.answer() is first  # being written: the answer is the previous text, at once
        release.set()
        for _ in range(500):
            fresh = await feed.answer()
            if fresh is not first:
                break
            await asyncio.sleep(0.01)
        assert parse_tourney_js(fresh).divisions["A"][3].scores[1] == 401 and feed.writes == 2

    _in_a_thread_of_its_own(run)


def test_without_a_tsh_file_the_feed_says_so() -> None:
    import pytest

    from tournament.pairings import PairingsError

    feed = TourneyFeed(lambda: None, list)
    with pytest.raises(PairingsError, match="no tsh file is loaded"):
        _in_a_thread_of_its_own(feed.answer)


def _in_a_thread_of_its_own(coroutine: Any) -> Any:
    """asyncio.run in a thread of its own: a test run before may leave an event loop running in this thread
    (asyncio.run then refuses, and the coroutine is left never awaited; see tests/tournament/director/
    test_core.py)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(coroutine())).result(timeout=60)
