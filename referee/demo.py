"""`referee demo`: a recorded game played through the simulated table, end to end.

The driver is a pair of robot players: for each move of a GCG record it lays the tiles on the
emulated sensor board (over its pseudo-terminal), presses the mover's clock button on the board,
names blanks and any letter the camera doubted on the table's control API (as a player would on
the page), challenges where the record has a phony withdrawn or a challenge bonus, and lifts the
tiles a challenge takes off. The referee does the rest: reads the board, fuses the camera, asks the
engine for the score. The driver then compares the engine's running totals with the record's.

Challenges are judged by a `RecordJudge`: the demo's lexicon accepts every word except those of
the plays the record withdrew, so the referee reaches the record's verdicts whatever word list the
players used. A real table judges with its configured lexicon.
"""

from __future__ import annotations

import functools
import itertools
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TextIO

from game.errors import GCGError, RefereeError
from game.gcg import GCGMove, GCGRecord, MoveKind, parse_gcg
from game.play import Play
from game.squares import Square
from referee.table.api import Snapshot
from referee.table.live import LiveTable
from referee.table.state import TableState
from referee.words import say


class DemoError(RefereeError, ValueError):
    """The demo could not go on: the table did not react as the record says within the time allowed."""


class DemoStopped(DemoError):
    """The demo was asked to stop (Ctrl-C, SIGTERM) before the record's end."""


class RecordJudge:
    """The demo's lexicon: every word is good except those the record's challenges threw out."""

    def __init__(self) -> None:
        self.phonies: set[str] = set()

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() not in self.phonies


def builtin_record() -> str:
    return resources.files("referee").joinpath("data", "demo.gcg").read_text(encoding="utf-8")


@dataclass
class DemoResult:
    moves: int = 0
    compared: int = 0
    mismatches: list[str] = field(default_factory=list)
    asked: int = 0  # letters the camera doubted and the robot entered on the page
    final: list[tuple[str, int]] = field(default_factory=list)
    state: TableState = TableState.WAITING
    stopped: bool = False  # Ctrl-C or SIGTERM before the record's end


class DemoDriver:
    """Plays `record` on a started `TableService` of the simulated table (see the module docstring)."""

    def __init__(self, service: Any, record: GCGRecord, judge: RecordJudge | None = None, *,
                 pause_s: float = 0.0, out: TextIO | None = None, timeout_s: float = 20.0,
                 stop: threading.Event | None = None, language: str = "en") -> None:
        self.service = service
        self.language = language  # the table's: the lines printed for a German record are German
        self.table: LiveTable = service.table
        self.emu = service.link.emulator
        self.record = record
        self.judge = judge
        self.pause_s = pause_s
        self.out = out
        self.timeout_s = timeout_s
        self.stop = stop or threading.Event()  # set from another thread: the driver stops at its next wait
        self.nicks = {p.nick: i for i, p in enumerate(record.players)}
        counts = Counter(p.nick for p in record.players)
        self.shared = {nick for nick, n in counts.items() if n > 1}  # one nickname for two players
        self._last_turn: int | None = None
        with service.table.reading() as now:
            self.scramble = now.scramble
        self._cond = threading.Condition()
        self.table.subscribe(self._on_snapshot)
        self.result = DemoResult()
        self._totals: dict[int, int] = {}  # each player's engine total at their last line compared
        self._offsets: dict[int, int] = {}  # engine total minus record total since a player's last mismatch

    # --- waiting on the table ------------------------------------------------------------------

    def _on_snapshot(self, snap: Snapshot) -> None:
        with self._cond:
            self._cond.notify_all()

    def wait(self, what: str, pred: Callable[[Snapshot], bool]) -> Snapshot:
        deadline = time.monotonic() + self.timeout_s
        while True:
            if self.stop.is_set():
                raise DemoStopped("stopped before the end of the record")
            snap = self.table.snapshot()
            if pred(snap):
                return snap
            left = deadline - time.monotonic()
            if left <= 0:
                alerts = "; ".join(a["text"] for a in snap["alerts"]) or "no alerts"
                raise DemoError(f"the table did not {what} within {self.timeout_s:g} s "
                                f"(state {snap['state']}; {alerts})")
            with self._cond:
                self._cond.wait(min(left, 0.05))

    def say(self, text: str) -> None:
        if self.out is not None:
            print(text, file=self.out, flush=True)

    # --- the game -----------------------------------------------------------------------------

    def run(self) -> DemoResult:
        try:
            self._play_record()
        except DemoStopped:
            self.result.stopped = True
        snap = self.table.snapshot()
        self.result.state = TableState(snap["state"])
        self.result.final = [(p["name"], p["score"]) for p in snap["players"]]
        if not self.result.stopped and not self.result.mismatches:
            # a line the robots could not act on must not pass unnoticed: the scores must end as the record's
            for nick, player in self.nicks.items():
                if nick in self.shared:
                    continue
                last = [m for m in self.record.moves if m.nick == nick]
                if last and last[-1].total != snap["players"][player]["score"]:
                    self.result.mismatches.append(
                        f"line {last[-1].line} ({last[-1].text.strip()}): engine total "
                        f"{snap['players'][player]['score']} at the end of the record, record {last[-1].total}")
        return self.result

    def _play_record(self) -> None:
        if self.table.snapshot()["state"] == TableState.WAITING:
            self.table.control("start", {})
        moves = self.record.moves
        for i, move in enumerate(moves):
            nxt = moves[i + 1] if i + 1 < len(moves) else None
            player = self._player(move)
            if move.kind in (MoveKind.PLAY, MoveKind.PASS, MoveKind.EXCHANGE):
                self._last_turn = player
            if move.kind is MoveKind.PLAY:
                self.play(player, move, nxt, moves[i + 1:])
            elif move.kind is MoveKind.PASS:
                self.pass_turn(player, move)
            elif move.kind is MoveKind.EXCHANGE:
                tiles = move.tiles
                count = int(tiles) if tiles.isdigit() else len(tiles)
                self.wait("give the turn to the exchanging player", functools.partial(self._on_turn, player=player))
                self.table.control("exchange", {"count": count})
                self.compare(player, move)
            elif move.kind is MoveKind.END_RACK:
                self.end_racks(moves)
                self.compare(player, move)
            elif move.kind is MoveKind.CHALLENGE_BONUS and not (i > 0 and moves[i - 1].kind is MoveKind.PLAY):
                self.compare(player, move)  # a bonus written after the end racks (as the table's own export does)
            if self.stop.wait(self.pause_s) if self.pause_s else self.stop.is_set():
                raise DemoStopped("stopped before the end of the record")

    def _player(self, move: GCGMove) -> int:
        """Which seat a line means; when two players share a nickname, the turn order decides (as in
        `referee gcg check`): a line following a turn is that turn's player's, a turn the next seat's."""
        found = [i for i, p in enumerate(self.record.players) if p.nick == move.nick]
        if not found:
            raise DemoError(f"line {move.line}: unknown player {move.nick!r}")
        if len(found) == 1 or self._last_turn is None:
            return found[0]
        if move.kind not in (MoveKind.PLAY, MoveKind.PASS, MoveKind.EXCHANGE) and self._last_turn in found:
            return self._last_turn
        nxt = (self._last_turn + 1) % len(self.record.players)
        return nxt if nxt in found else found[0]

    def _on_turn(self, snap: Snapshot, player: int) -> bool:
        return snap["state"] == TableState.TURN and snap["players"][player]["on_turn"]

    def roll(self, player: int, move: GCGMove) -> None:
        """Scramble: the record's rack is every face the player has this turn; the dice passed on are
        already in hand, the others are rolled now (typed on the page, as a table without a tray does)."""
        self.wait(f"ask {self.record.players[player].name} to roll",
                  lambda s: s["state"] == TableState.ROLL and s["players"][player]["on_turn"])
        with self.table.reading() as now:
            hand = Counter(now.hand)
        rolled = Counter(move.rack.upper()) - hand
        self.table.control("roll", {"letters": "".join(sorted(rolled.elements()))})

    def clear_removals(self) -> None:
        """Scramble: take the scrambled dice off the mat once the play stands."""
        snap = self.table.snapshot()
        if snap["state"] == TableState.REMOVAL:
            for sq in snap["pending"]["remove"]:
                self.emu.lift(sq)
            self.wait("see the scrambled dice gone", lambda s: s["state"] != TableState.REMOVAL)

    def play(self, player: int, move: GCGMove, nxt: GCGMove | None, rest: list[GCGMove]) -> None:
        if self.scramble:
            self.roll(player, move)
        self.wait(f"give the turn to {self.record.players[player].name}", lambda s: self._on_turn(s, player))
        with self.table.reading() as now:
            board = now.board()
        written = Play.from_str(move.move)
        if self.record.pragmas.get("orientation", "").lower() == "lettered-rows":
            written = Play(written.position.transpose(), written.word)  # ScrabScrap writes the transpose of GCG
        placements = written.placements(board)
        for pl in placements:
            self.emu.place(str(pl.square), "?" if pl.tile.blank else pl.tile.letter)
        squares = {str(pl.square) for pl in placements}
        self.wait("see the tiles laid", lambda s: all(_at(s, sq) != "." for sq in squares))
        before = len(self.table.snapshot()["moves"])
        snap = self.press(player, "take the commit", lambda s: s["state"] in _COMMITTED
                          or len(s["moves"]) > before or any(a["code"] == "illegal_play" for a in s["alerts"]))
        if any(a["code"] == "illegal_play" for a in snap["alerts"]) and snap["state"] == TableState.TURN:
            text = next(a["text"] for a in snap["alerts"] if a["code"] == "illegal_play")
            raise DemoError(f"line {move.line}: the referee refused {move.move}: {text}")
        if snap["state"] == TableState.BLANK:
            truth = {str(pl.square): pl.tile for pl in placements}
            for sq in snap["pending"].get("blanks", []):
                self.table.control("blank", {"square": sq, "letter": truth[sq].letter})
            for sq in snap["pending"].get("letters", []):
                self.result.asked += 1
                self.say(say("terminal", "demo_doubted", self.language, square=sq, letter=truth[sq].letter))
                self.table.control("correct", {"square": sq, "letter": truth[sq].letter})
        snap = self.table.snapshot()
        self.compare(player, move)
        if snap["state"] == TableState.CHALLENGE:
            other = (player + 1) % len(self.record.players)
            if nxt is not None and nxt.kind is MoveKind.WITHDRAWN:
                if self.judge is not None:  # the play's words (an end-of-game line may follow it already)
                    play_line = next(m for m in reversed(snap["moves"]) if m["kind"] == "play")
                    self.judge.phonies.update(play_line["words"])
                self.table.control("challenge", {"player": other})
            elif self._bonus_follows(rest) or self._loses_turn(player, rest):
                self.table.control("challenge", {"player": other})
            else:
                self.table.control("accept", {})
        snap = self.table.snapshot()
        if snap["state"] == TableState.TAKEBACK:
            for sq in snap["pending"]["remove"]:
                self.emu.lift(sq)
            self.wait("see the phony taken back", lambda s: s["state"] != TableState.TAKEBACK)
        if nxt is not None and nxt.kind in (MoveKind.WITHDRAWN, MoveKind.CHALLENGE_BONUS):
            self.compare(player, nxt)
        self.clear_removals()

    def press(self, player: int, what: str, done: Callable[[Snapshot], bool]) -> Snapshot:
        """Hold the player's clock button down until the table has acted on it (a real press lasts
        about 100 ms; one shorter than the board's debounce time is contact bounce, not a press)."""
        self.emu.press(player)
        try:
            return self.wait(what, done)
        finally:
            self.emu.release(player)

    @staticmethod
    def _bonus_follows(rest: list[GCGMove]) -> bool:
        """A challenge bonus for this play: the next line, or after the end-of-game lines that follow it."""
        after = (MoveKind.END_RACK, MoveKind.TIME_PENALTY, MoveKind.CHALLENGE_BONUS)
        return any(m.kind is MoveKind.CHALLENGE_BONUS for m in itertools.takewhile(lambda m: m.kind in after, rest))

    def _loses_turn(self, player: int, rest: list[GCGMove]) -> bool:
        """A record does not write a lost turn: a player who plays twice in a row (no phony between)
        was challenged wrongly under the double rule."""
        turns = [m for m in rest if m.kind in (MoveKind.PLAY, MoveKind.PASS, MoveKind.EXCHANGE, MoveKind.WITHDRAWN)]
        if turns and turns[0].nick in self.shared:
            return False  # a shared nickname cannot show a player moving twice
        return bool(turns) and turns[0].kind is not MoveKind.WITHDRAWN and self.nicks.get(turns[0].nick) == player \
            and len(self.record.players) == 2

    def pass_turn(self, player: int, move: GCGMove) -> None:
        if self.scramble:
            self.roll(player, move)  # then no word in time: the clock pressed with nothing laid loses the turn
        snap = self.wait("give the turn for a pass", lambda s: self._on_turn(s, player)
                         or s["state"] in (TableState.RACKS, TableState.ENDED))
        if not self._on_turn(snap, player):
            # a pass after the other player went out: a record's way of writing the turn lost by a wrong
            # challenge of the last play (the game is over; nothing to press, nothing scored)
            self.say(say("terminal", "demo_late_pass", self.language, line=move.line))
            self.compare(player, move)
            return
        before = len(self.table.snapshot()["moves"])
        self.press(player, "record the pass", lambda s: len(s["moves"]) > before)
        self.compare(player, move)

    def end_racks(self, moves: list[GCGMove]) -> None:
        snap = self.table.snapshot()
        if snap["state"] != TableState.RACKS:
            return
        ends = [m for m in moves if m.kind is MoveKind.END_RACK]
        for p in list(snap["pending"]["racks"]):
            own = [m for m in ends if self.nicks.get(m.nick) == p and m.score < 0]
            other = [m for m in ends if self.nicks.get(m.nick) != p]
            source = own or other
            if source:
                self.table.control("racks", {"player": p, "tiles": source[0].tiles})

    def compare(self, player: int, move: GCGMove) -> None:
        """Print the engine's line for this move beside the record's and count any difference in totals."""
        snap = self.table.snapshot()
        self.result.moves += 1
        name = snap["players"][player]["name"]
        kind = _SHEET_KIND.get(move.kind)
        entries = [m for m in snap["moves"] if m["player"] == player and m["kind"] == kind] if kind else []
        if entries:
            last = entries[-1]
            engine_total = last["total"]
            if move.kind in (MoveKind.CHALLENGE_BONUS, MoveKind.END_RACK) and player in self._totals:
                # the engine may write these in another order than the record (a player going out gets the
                # racks at once, before the challenge window closes): add them up in the record's order
                engine_total = self._totals[player] + last["score"]
            shown = f"{last['notation']} {last['score']:+d}"
        else:
            engine_total = snap["players"][player]["score"]
            shown = "(final)"
        width = max(10, *(len(p["name"]) for p in snap["players"]))  # the columns line up for long names too
        self.say(say("terminal", "demo_line", self.language, name=f"{name:>{width}}", move=move.move, shown=shown,
                     total=engine_total, record=move.total))
        self.result.compared += 1
        self._totals[player] = engine_total
        offset = self._offsets.get(player, 0)
        if engine_total == move.total:
            self._offsets[player] = 0  # back in step (a withdrawn play takes its wrongly written score with it)
        elif engine_total - offset != move.total:
            # reported once: later lines are compared through the new offset, as `referee gcg check` does
            self._offsets[player] = engine_total - move.total
            before = f" (the engine was {offset:+d} against the record before this line)" if offset else ""
            self.result.mismatches.append(f"line {move.line} ({move.text.strip()}): engine total {engine_total}, "
                                          f"record {move.total}{before}")


# the states a press of the mover's clock leads to when the table takes the commit
_COMMITTED = (TableState.BLANK, TableState.CHALLENGE, TableState.TAKEBACK)
_SHEET_KIND = {MoveKind.PLAY: "play", MoveKind.PASS: "pass", MoveKind.EXCHANGE: "exchange",
               MoveKind.WITHDRAWN: "withdrawn", MoveKind.CHALLENGE_BONUS: "challenge", MoveKind.END_RACK: "end"}


def _at(snap: Snapshot, square: str) -> str:
    sq = Square.from_str(square)
    return snap["board"][sq.row][sq.col]


def load_record(path: str | None) -> GCGRecord:
    if path is None:
        return parse_gcg(builtin_record())
    from game.gcg import decode_gcg
    from referee.input_files import MAX_GCG_BYTES, check_game_record, read_regular_file

    text, _ = decode_gcg(read_regular_file(path, max_bytes=MAX_GCG_BYTES, what="game record"))
    try:
        record = parse_gcg(text)
    except GCGError as exc:  # which file, in the one line (the parser knows only the text)
        raise GCGError(f"{path}: {exc}", form=exc.form, **dict(exc.fields)) from None
    if not record.players and not record.moves:
        # a file that is no game record at all: said as such, not as a setting of the table it would make
        raise GCGError(f"{path}: no #player lines and no moves (lines starting with '>'): not a GCG record",
                       form="not_gcg")
    check_game_record(record, path)  # no moves, 10,000 players, 100,000 passes: refused, not played
    return record
