"""What the table says, worked out from two snapshots: the one before and the one now.

Working from snapshots (the page's own contract, `referee.table.api.Snapshot`) keeps the announcer a view
like the page: it cannot say what the page does not show, and it needs nothing of the table's insides.
The first snapshot a listener sees (a table just started or resumed) is only remembered, never read out:
a restart must not recite the whole game.

Each sentence is plain text in the table's language (referee/words/speech.py), numbers written out
(`numbers.number_words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.squares import COLUMNS, Square
from referee.speech.numbers import number_words
from referee.words import say

# Clock warnings, in seconds left on the running clock: said once each as the clock passes them.
WARNINGS_S = (300, 60)


def spoken_position(square: str, across: bool, lang: str) -> str:
    """The square a play starts on as it is read out, in the order the score sheet writes its position: across
    row first ("8D" -> "eight D"), down column first ("D8" -> "D eight"). From the move's own fields (the
    snapshot's `square` and `across`), never from its notation."""
    start = Square.from_str(square)
    row, col = number_words(start.row + 1, lang), COLUMNS[start.col]
    return f"{row} {col}" if across else f"{col} {row}"


def _word(move: Mapping[str, Any]) -> str:
    """The play's main word in capitals (a blank's letter is a letter like any other when spoken)."""
    words = move.get("words") or []
    if words:
        return str(words[0]).upper()
    parts = str(move.get("notation", "")).split(" ")
    return parts[1].replace(".", "").upper() if len(parts) > 1 else ""


def _name(snap: Mapping[str, Any], index: int) -> str:
    players = snap.get("players") or []
    return str(players[index]["name"]) if 0 <= index < len(players) else "?"


def _move_lines(move: Mapping[str, Any], snap: Mapping[str, Any], previous_play: Mapping[str, Any] | None,
                lang: str) -> list[str]:
    kind = move.get("kind")
    name = _name(snap, int(move.get("player", -1)))
    score = int(move.get("score", 0))
    if kind == "play":
        placed = int(move.get("tiles", 0))
        where = spoken_position(str(move["square"]), bool(move.get("across")), lang) if move.get("square") else ""
        text = say("speech", "play", lang, word=_word(move), where=where,
                   score=number_words(score, lang), name=name, total=number_words(int(move.get("total", 0)), lang))
        return [say("speech", "bingo", lang) + text if placed >= 7 and snap.get("game") == "standard" else text]
    if kind == "pass":
        return [say("speech", "pass", lang, name=name)]
    if kind == "exchange":
        count = int(move.get("tiles", 0))
        if count == 1:
            return [say("speech", "exchange_one", lang, name=name)]
        return [say("speech", "exchange", lang, name=name, count=number_words(count, lang))]
    word = _word(previous_play) if previous_play is not None else ""
    if kind == "withdrawn":
        return [say("speech", "withdrawn", lang, word=_word(move) or word, name=name)]
    if kind == "lost_turn":
        return [say("speech", "lost_turn", lang, word=word, name=name)]
    if kind == "challenge":
        return [say("speech", "bonus", lang, word=word, name=name, score=number_words(score, lang))]
    if kind == "penalty":
        return [say("speech", "penalty", lang, name=name, score=number_words(abs(score), lang))]
    if kind == "adjustment":
        total = int(move.get("total", 0))
        return [say("speech", "adjusted_up" if score > 0 else "adjusted_down", lang, name=name,
                    score=number_words(abs(score), lang), total=number_words(total, lang))]
    return []


def _new_moves(before: Sequence[Mapping[str, Any]], now: Sequence[Mapping[str, Any]]) -> list[tuple[int, Any]]:
    """Moves that are new, or whose kind changed (a play challenged off becomes `withdrawn` in place)."""
    changed = []
    for i, move in enumerate(now):
        if i >= len(before) or before[i].get("kind") != move.get("kind"):
            changed.append((i, move))
    return changed


def _last_play_before(moves: Sequence[Mapping[str, Any]], index: int) -> Mapping[str, Any] | None:
    for move in reversed(moves[:index]):
        if move.get("kind") in ("play", "withdrawn"):
            found: Mapping[str, Any] = move
            return found
    return None


def _clock_lines(before: Mapping[str, Any], now: Mapping[str, Any], lang: str) -> list[str]:
    lines = []
    for i, (p0, p1) in enumerate(zip(before.get("players") or [], now.get("players") or [], strict=False)):
        c0, c1 = p0.get("clock"), p1.get("clock")
        if not c0 or not c1 or not c1.get("running"):
            continue
        for limit in WARNINGS_S:
            if c0["remaining_ms"] > limit * 1000 >= c1["remaining_ms"] > 0:
                minutes = limit // 60
                name = _name(now, i)
                lines.append(say("speech", "one_minute_left", lang, name=name) if minutes == 1 else
                             say("speech", "minutes_left", lang, name=name, minutes=number_words(minutes, lang)))
    return lines


def _alert_lines(before: Mapping[str, Any], now: Mapping[str, Any], lang: str) -> list[str]:
    seen = {a.get("code") for a in before.get("alerts") or []}
    lines = []
    for alert in now.get("alerts") or []:
        code = alert.get("code")
        if code in seen:
            continue
        if code in ("time_up", "max_overtime", "lost_on_time"):
            lines.append(say("speech", code, lang, name=_name(now, _overtime_player(now))))
        elif code == "turn_timer":
            lines.append(say("speech", "turn_timer", lang))
        elif code == "not_in_lexicon":
            lines.append(say("speech", "phony_off", lang))
    return lines


def _overtime_player(snap: Mapping[str, Any]) -> int:
    """The player whose clock went past zero: the running one, else the one with least time."""
    players = snap.get("players") or []
    clocks = [(p.get("clock") or {}) for p in players]
    for i, c in enumerate(clocks):
        if c.get("running") and c.get("remaining_ms", 1) <= 0:
            return i
    timed = [(c.get("remaining_ms", 0), i) for i, c in enumerate(clocks) if c]
    return min(timed)[1] if timed else -1


def _end_lines(before: Mapping[str, Any], now: Mapping[str, Any], lang: str) -> list[str]:
    result = now.get("result")
    if not result or before.get("result"):
        return []
    players = now.get("players") or []
    winners = list(result.get("winners") or [])
    if len(winners) != 1:
        score = players[winners[0]]["score"] if winners else 0
        return [say("speech", "end_shared", lang, score=number_words(int(score), lang))]
    win = winners[0]
    others = [p["score"] for i, p in enumerate(players) if i != win]
    return [say("speech", "end_win", lang, name=_name(now, win), score=number_words(int(players[win]["score"]), lang),
                other=number_words(int(max(others)) if others else 0, lang))]


def announcements(before: Mapping[str, Any] | None, now: Mapping[str, Any]) -> list[str]:
    """The sentences to say for the change from `before` to `now`, in `now`'s language, in order."""
    if before is None:
        return []
    lang = str(now.get("language", "en"))
    lang = lang if lang in ("en", "de") else "en"
    lines: list[str] = []
    moves = now.get("moves") or []
    for index, move in _new_moves(before.get("moves") or [], moves):
        lines += _move_lines(move, now, _last_play_before(moves, index), lang)
    lines += _alert_lines(before, now, lang)
    lines += _clock_lines(before, now, lang)
    lines += _end_lines(before, now, lang)
    return lines
