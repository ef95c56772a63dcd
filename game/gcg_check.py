"""Replay a GCG record through the engine and compare every score with what the record says.

This is the engine's acceptance test against real games (`referee gcg check`). For each `>`
line the engine recomputes the play's score (validation included), the withdrawal of a phony,
the challenge bonus, the time penalty, the end-of-game rack adjustments and the running total,
and reports each difference as a `Mismatch` (line, recorded, computed, why). After a mismatch
the replay follows the record (its score, its tiles) so one error is reported once, not again
in every later total.

Rules for a record: the `#variant` pragma names a registered variant (`game.variants`); without
one, the caller's default (tournament rules for English, the German edition for German). What
records do not state is read from their structure, never fitted to their scores:
- the challenge rule: the value most `(challenge)` bonuses have says 5-point or 10-point; none: double;
- the end-of-game rule: a record that both adds and subtracts racks at the end uses 1x each way
  [ONYX/PC]; otherwise the player out gains 2x [NASPA];
- the tile set: when a record's letters are not all in the chosen set, a shipped set that has
  them all (Polish) is used, and a note says so; when none has them, the record is skipped.
Racks that do not hold the tiles played are notes, not mismatches: test records carry
made-up racks, and the score is what the referee must get right.
A director's adjustment of points, `#note adjustment NICK +N: REASON` (what `game.gcg.write_gcg` writes),
is applied where it stands, as written, with no rule to check it against; the record's totals leave it out
(they are the game as played on the board), so the totals after it are compared with that in mind. The
older form, a `(time)` or `(challenge)` line followed by `#note adjustment: REASON`, is applied the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.errors import (
    ChallengeError,
    DataError,
    GameOverError,
    GCGError,
    IllegalPlayError,
    IllegalTurnError,
    NotationError,
    RefereeError,
)
from game.events import Event, EventKind
from game.game import Game, WordList
from game.gcg import GCGAdjustment, GCGMove, GCGRecord, MoveKind
from game.layout import load_layout
from game.play import Play
from game.rules import ChallengeRule, EndRackRule, RuleSet
from game.tiles import BLANK, TileSet, load_tile_set, rack_counter, tile_set_names
from game.variants import get_variant


@dataclass(frozen=True)
class Mismatch:
    line: int
    recorded: str
    computed: str
    why: str


@dataclass
class CheckResult:
    """What checking one record found."""

    plays: int = 0  # `>` lines checked
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: str | None = None  # why the record could not be checked at all
    rules: str = ""


def record_letters(record: GCGRecord) -> set[str]:
    """Every letter the record uses on racks and in plays (uppercase, blanks as `?`)."""
    out: set[str] = set()
    for mv in record.moves:
        out.update(ch.upper() if ch != BLANK else BLANK for ch in mv.rack if ch.isalpha() or ch == BLANK)
        if mv.kind is MoveKind.PLAY:
            out.update(ch.upper() for ch in mv.move.split()[1] if ch.isalpha())
        elif mv.kind in (MoveKind.EXCHANGE, MoveKind.END_RACK):
            out.update(ch.upper() for ch in mv.tiles if ch.isalpha())
    return out


def _fits(tiles: TileSet, letters: set[str]) -> bool:
    return all(tiles.has_letter(ch) or ch == BLANK for ch in letters)


def rules_for_record(record: GCGRecord, default: RuleSet) -> tuple[RuleSet | None, list[str]]:
    """The rule set to replay a record with (None: no shipped tile set fits), and notes on the choices."""
    notes: list[str] = []
    rules = get_variant(record.variant).rules() if record.variant else default
    # Woogles pragmas: a tile distribution or board layout the package ships, by name
    wanted = record.pragmas.get("tile-distribution", "").strip().lower()
    if wanted:
        if wanted in tile_set_names():
            rules = rules.with_options(tiles=load_tile_set(wanted))
        else:
            notes.append(f"#tile-distribution {wanted}: no such tile set shipped, using {rules.tiles.name}")
    board = record.pragmas.get("board-layout", "").strip()
    if board and board.lower() not in ("crosswordgame", rules.layout.name):
        try:
            rules = rules.with_options(layout=load_layout(board.lower()))
        except DataError:
            notes.append(f"#board-layout {board}: no such layout shipped, using {rules.layout.name}")
    letters = record_letters(record)
    if not _fits(rules.tiles, letters):
        strange = "".join(sorted(ch for ch in letters if not rules.tiles.has_letter(ch) and ch != BLANK))
        for name in tile_set_names():
            candidate = load_tile_set(name)
            if _fits(candidate, letters):
                notes.append(f"letters {strange} are not {rules.tiles.name} tiles: checked with the {name} tile set")
                rules = rules.with_options(tiles=candidate)
                break
        else:
            return None, [f"letters {strange} are in no shipped tile set"]
    bonuses = [mv.score for mv in record.moves if mv.kind is MoveKind.CHALLENGE_BONUS and mv.adjustment is None]
    if bonuses:
        # the value most bonuses have (the first on a tie) says which rule the game was played under
        common = max(bonuses, key=lambda b: (bonuses.count(b), -bonuses.index(b)))
        rule = {5: ChallengeRule.FIVE_POINT, 10: ChallengeRule.TEN_POINT}.get(common)
        # Bonuses of different sizes, all multiples of one rule's points, are that rule per word wrongly
        # challenged [WESPA A.i]; each line is then checked against the words its play formed.
        per_word = next((unit for unit in (10, 5) if all(b > 0 and b % unit == 0 for b in bonuses)), None)
        if len(set(bonuses)) > 1 and per_word is not None:
            rule = {5: ChallengeRule.FIVE_POINT, 10: ChallengeRule.TEN_POINT}[per_word]
            rules = rules.with_options(challenge_bonus_per_word=True)
            notes.append(f"challenge bonuses {', '.join(f'+{b}' for b in bonuses)}: {per_word} points per word")
        if rule is not None:
            rules = rules.with_options(challenge=rule)
    elif rules.challenge is ChallengeRule.VOID:
        rules = rules.with_options(challenge=ChallengeRule.DOUBLE)
    ends = [mv.score for mv in record.moves if mv.kind is MoveKind.END_RACK]
    each_way = any(s > 0 for s in ends) and any(s < 0 for s in ends)
    rules = rules.with_options(end_racks=EndRackRule.EACH_WAY if each_way else EndRackRule.DOUBLE_TO_OUT)
    players = len(record.players)
    if players > rules.max_players:
        rules = rules.with_options(max_players=players)
    return rules, notes


class _Replay:
    def __init__(
        self, record: GCGRecord, rules: RuleSet, result: CheckResult, lexicon: WordList | None = None
    ) -> None:
        self.record = record
        self.result = result
        self.lexicon = lexicon
        self.judged: list[tuple[int, tuple[str, ...], bool]] = []  # (line, words, withdrawn) of every play
        variant = get_variant(record.variant) if record.variant else None
        cls = variant.game_class if variant and variant.game_class else Game
        self.game = cls(rules, [p.nick for p in record.players], strict_turns=False)
        self.last_turn: int | None = None
        self.matched_end: set[int] = set()  # indices in game.events of END_RACK events matched to lines
        self.recorded_play_score: dict[int, int] = {}
        # The END_RACK events of game.events, as (index, event), kept up to date by `_end_racks` from the events
        # added since it last looked: a line reads them without walking every event before it (that made the
        # replay grow with the square of the lines: 12.75 s for 8,000).
        self._racks: list[tuple[int, Event]] = []
        self._seen: list[Event] = self.game.events
        self._seen_len = 0

    # which player a line means
    def player(self, mv: GCGMove) -> int:
        nicks = [p.nick for p in self.record.players]
        found = [i for i, n in enumerate(nicks) if n == mv.nick]
        if not found:
            raise NotationError(f"line {mv.line}: {mv.nick!r} is not a player of this game", form="gcg_nick",
                                line=mv.line, nick=mv.nick)
        if len(found) == 1:
            return found[0]
        # one nickname for two players: the turn order decides
        follows_turn = mv.kind in (MoveKind.WITHDRAWN, MoveKind.CHALLENGE_BONUS, MoveKind.END_RACK)
        if self.last_turn is None:
            return found[0]
        if follows_turn and self.last_turn in found:
            return self.last_turn
        nxt = (self.last_turn + 1) % len(nicks)
        return nxt if nxt in found else found[0]

    def mismatch(self, mv: GCGMove, recorded: object, computed: object, why: str) -> None:
        self.result.mismatches.append(Mismatch(mv.line, str(recorded), str(computed), why))

    def _end_racks(self) -> list[tuple[int, Event]]:
        """The game's END_RACK events with their indices, looking only at the events added since the last call.
        A withdrawn play gives the game a new event list: the old one's first events followed by the later ones
        that were not END_RACK (`Game._restore`), so the END_RACK events still there are exactly those still at
        their index."""
        events = self.game.events
        if events is not self._seen:
            old = self._seen
            self._racks.extend((k, old[k]) for k in range(self._seen_len, len(old))
                               if old[k].kind is EventKind.END_RACK)
            self._racks = [(k, e) for k, e in self._racks if k < len(events) and events[k] is e]
            self._seen, self._seen_len = events, len(events)
            # anything the new list holds beyond the old one's prefix was in the old list (and is no END_RACK)
            return self._racks
        if len(events) > self._seen_len:
            self._racks.extend((k, events[k]) for k in range(self._seen_len, len(events))
                               if events[k].kind is EventKind.END_RACK)
            self._seen_len = len(events)
        return self._racks

    def engine_score(self, who: int) -> int:
        """The engine's score for a player, without end-of-game adjustments the record has not reached."""
        ahead = sum(e.delta for k, e in self._end_racks() if e.player == who and k not in self.matched_end)
        return self.game.scores[who] - ahead

    def run(self) -> None:
        """Replay every line. Running totals are compared through the offset between the record's total
        and the engine's: a line is flagged when the offset moves by more than its own score difference,
        so a wrong score is reported once and a wrong sum once, and neither repeats on later lines."""
        moves = self.record.moves
        offset = [0] * len(self.game.players)
        self.adjust(self.record.adjustments, offset)
        for i, mv in enumerate(moves):
            self.result.plays += 1
            try:
                who = self.player(mv)
            except NotationError as exc:
                self.mismatch(mv, mv.nick, "no such player", str(exc))
                continue
            if (self.game.over and mv.kind is MoveKind.PASS and mv.score == 0 and self.game.out_player is not None
                    and who != self.game.out_player):
                # Woogles writes the turn a wrong challenger of the last play loses as a pass
                self.result.notes.append(f"line {mv.line}: a pass after the player went out: read as the "
                                         "turn lost by a wrong challenge of the last play")
                continue
            if self.game.over and mv.kind in (MoveKind.PLAY, MoveKind.PASS, MoveKind.EXCHANGE):
                self.mismatch(mv, mv.move, "game over", f"the engine ended the game ({self.game.end_reason})")
                self.game.over = False
            before = self.engine_score(who)
            recorded = mv.score
            try:
                recorded = self.step(mv, who, moves, i)
            except (IllegalPlayError, IllegalTurnError, NotationError) as exc:
                self.mismatch(mv, f"{mv.move} {mv.score:+d}", "refused", str(exc))
                self.game.drop_refused_line(who)  # no turn was made of it: nothing of it may stay behind
            after = self.engine_score(who)
            expected = offset[who] + recorded - (after - before)
            offset[who] = mv.total - after
            if offset[who] != expected:
                self.mismatch(mv, f"total {mv.total}", f"total {mv.total - offset[who] + expected}",
                              "the running total does not add up")
            if mv.kind in (MoveKind.PLAY, MoveKind.PASS, MoveKind.EXCHANGE):
                self.last_turn = who
            self.adjust(mv.adjustments, offset)
        self.lexicon_notes()
        leftover = [e for k, e in enumerate(self.game.events)
                    if e.kind is EventKind.END_RACK and k not in self.matched_end]
        if leftover and not self.record.incomplete:
            shown = ", ".join(f"{self.game.players[e.player]} {e.move} {e.delta:+d}" for e in leftover)
            self.result.notes.append(f"the record ends without the end-of-game rack lines ({shown})")

    def adjust(self, adjustments: list[GCGAdjustment], offset: list[int]) -> None:
        """Apply the director's adjustments noted after a line. The record's totals leave them out, so the
        offset between the record's totals and the engine's moves by the points."""
        for adjustment in adjustments:
            self.result.plays += 1
            found = [i for i, p in enumerate(self.record.players) if p.nick == adjustment.nick]
            if not found:
                self.result.mismatches.append(Mismatch(adjustment.line, adjustment.nick, "no such player",
                                                       f"the adjustment names {adjustment.nick!r}, no player of "
                                                       "this game"))
                continue
            who = found[0]
            try:
                self.game.adjust_score(who, adjustment.points, adjustment.reason or "no reason given")
            except RefereeError as exc:
                self.result.mismatches.append(Mismatch(adjustment.line, f"{adjustment.points:+d}", "refused",
                                                       str(exc)))
                continue
            offset[who] -= adjustment.points

    def lexicon_notes(self) -> None:
        """With a lexicon: plays that stood with words not in it, and withdrawn plays whose words all are.
        Notes, not mismatches: the record's game may have used another lexicon (ENABLE lacks QI, ZA)."""
        lex = self.lexicon
        if lex is None:
            return
        for line, words, withdrawn in self.judged:
            bad = [w for w in words if w not in lex]
            if withdrawn and not bad:
                self.result.notes.append(f"line {line}: withdrawn, but {', '.join(words)} all in the lexicon")
            elif not withdrawn and bad:
                self.result.notes.append(f"line {line}: {', '.join(bad)} not in the lexicon (the play stood)")

    def _lose_turn(self, who: int) -> bool:
        """A pass line marked as a lost turn (`#note lost turn:`, our writer's): the wrong challenge of the play
        before it, under double challenge, which costs the challenger this turn. False when the engine has no
        play open to challenge there or another rule: the line is then read as the pass it is written as."""
        game = self.game
        if game.rules.challenge is not ChallengeRule.DOUBLE:
            return False
        try:
            game.challenge(who, valid=True)
        except ChallengeError:
            return False
        return True

    def step(self, mv: GCGMove, who: int, moves: list[GCGMove], i: int) -> int:
        """Apply one line; returns the score the record means for it (normally the score written)."""
        game = self.game
        kind = mv.kind
        if mv.rack and kind in (MoveKind.PLAY, MoveKind.PASS):
            game.record_rack(who, mv.rack)  # a hook: a variant that verifies racks (Scramble) overrides it
        reason = mv.adjustment
        if reason is not None:
            # a director's adjustment written as (time) or (challenge), marked by its note: no rule to check
            game.adjust_score(who, mv.score, reason or "no reason given")
        elif kind is MoveKind.PLAY:
            self.play(mv, who)
        elif kind is MoveKind.PASS and mv.lost_turn and self._lose_turn(who):
            self.compare(mv, 0, "a lost turn scores nothing")
        elif kind is MoveKind.PASS:
            game.pass_turn(who)
            self.compare(mv, 0, "a pass scores nothing")
        elif kind is MoveKind.EXCHANGE:
            tiles = mv.tiles
            game.exchange(int(tiles) if tiles.isdigit() else tiles, who)
            self.compare(mv, 0, "an exchange scores nothing")
        elif kind is MoveKind.WITHDRAWN:
            if self.judged:
                line, words, _ = self.judged[-1]
                self.judged[-1] = (line, words, True)
            played = self.recorded_play_score.get(who)
            before = game.scores[who]
            result = game.challenge(self._challenger(who), valid=False)
            if mv.score == 0 and played and mv.total == before - played:
                # Quackle writes `-- +0` and takes the score off the total only
                self.result.notes.append(f"line {mv.line}: withdrawal written as +0, the total removes {played}")
                return -played
            elif played is not None and mv.score != -played:
                self.mismatch(mv, mv.score, -played, "the withdrawal does not remove the recorded score")
            elif played is None:
                self.compare(mv, -result.points, "withdrawing the phony removes its score")
        elif kind is MoveKind.CHALLENGE_BONUS:
            unit = game.rules.challenge.bonus
            per_word = game.rules.challenge_bonus_per_word and unit > 0 and mv.score % unit == 0
            challenged = max(mv.score // unit, 1) if per_word else 1
            try:
                result = game.challenge(self._challenger(who), valid=True, words=challenged)
            except ChallengeError as exc:
                self.mismatch(mv, mv.score, 0, f"no bonus: {exc}")
                return mv.score
            per = " per word challenged" if game.rules.challenge_bonus_per_word else ""
            self.compare(mv, result.points, f"the {game.rules.challenge.value} rule{per} gives {result.points}")
        elif kind is MoveKind.TIME_PENALTY:
            step = game.rules.time_penalty_points
            if mv.score > 0 or mv.score % step:
                self.mismatch(mv, mv.score, f"a multiple of -{step}", f"{step} points per started minute over")
            game.apply_time_penalty(who, -mv.score // step * 60)
        elif kind is MoveKind.END_RACK:
            self.end_rack(mv, who, moves, i)
        return mv.score

    def _challenger(self, who: int) -> int:
        return (who + 1) % len(self.game.players)

    def compare(self, mv: GCGMove, computed: int, why: str) -> None:
        if computed != mv.score:
            self.mismatch(mv, f"{mv.score:+d}", f"{computed:+d}", why)

    def play(self, mv: GCGMove, who: int) -> None:
        game = self.game
        self.recorded_play_score[who] = mv.score
        play = Play.from_str(mv.move)
        if self.record.pragmas.get("orientation", "").lower() == "lettered-rows":
            # ScrabScrap: `H4` is row H, column 4, across: the transpose of GCG's notation
            play = Play(play.position.transpose(), play.word)
        placements = play.placements(game.board)
        self._rack_note(mv, placements_letters="".join(p.tile.rack_letter for p in placements))
        try:
            scored = game.play(placements, who)
        except (IllegalPlayError, IllegalTurnError) as exc:
            self.mismatch(mv, f"{mv.move} {mv.score:+d}", "refused", str(exc))
            game.over = False
            game.force_play(placements, mv.score, who)
            return
        self.judged.append((mv.line, tuple(w.word.text for w in scored.words), False))
        if scored.score != mv.score:
            words = ", ".join(f"{w.word.text} {w.score}" for w in scored.words)
            bonus = f" + bingo {scored.bingo_bonus}" if scored.bingo_bonus else ""
            self.mismatch(mv, f"{mv.move} {mv.score:+d}", f"{scored.score:+d}", f"words {words}{bonus}")

    def _rack_note(self, mv: GCGMove, placements_letters: str) -> None:
        if not mv.rack:
            return
        short = rack_counter(placements_letters) - rack_counter(mv.rack)
        if short:
            self.result.notes.append(
                f"line {mv.line}: the rack {mv.rack} does not hold {''.join(sorted(short.elements()))}"
            )

    def end_rack(self, mv: GCGMove, who: int, moves: list[GCGMove], i: int) -> None:
        game = self.game
        if game.awaiting_racks:
            racks: dict[int, str] = {}
            j = i
            while j < len(moves) and moves[j].kind is MoveKind.END_RACK:
                if moves[j].score < 0:
                    racks[self.player(moves[j])] = moves[j].tiles
                j += 1
            try:
                game.finish_with_racks(racks)
            except (IllegalTurnError, IllegalPlayError) as exc:
                raise GameOverError(f"cannot score the racks at the end: {exc}", form="end_racks",
                                    detail=str(exc)) from exc
        if not game.over:
            raise GameOverError("the engine has not ended the game: nobody went out and the scoreless turns "
                                "are below the limit", form="not_ended")
        mine = [k for k, e in self._end_racks() if e.player == who and k not in self.matched_end]
        if not mine:
            raise GameOverError(f"the engine gives {game.players[who]} no end-of-game rack adjustment",
                                form="no_end_rack", player=game.players[who])
        self.matched_end.add(mine[0])
        event = game.events[mine[0]]
        computed_letters = re.sub(r"[()]", "", event.move)
        if rack_counter(computed_letters) != rack_counter(mv.tiles):
            self.mismatch(mv, mv.move, f"({computed_letters})", "the tiles left do not match the tiles unplayed")
        elif event.delta != mv.score:
            self.mismatch(mv, f"{mv.score:+d}", f"{event.delta:+d}",
                          f"unplayed tiles under the {game.rules.end_racks.value} rule")


def replay_record(
    record: GCGRecord, default: RuleSet, lexicon: WordList | None = None
) -> tuple[Game | None, CheckResult]:
    """Replay one record; returns the engine's game (None when skipped) and what the check found.
    With a lexicon, the words of each play are also judged (as notes)."""
    if not record.players and not record.moves:
        raise GCGError("no #player lines and no moves (lines starting with '>'): not a GCG record", form="not_gcg")
    result = CheckResult()
    rules, notes = rules_for_record(record, default)
    result.notes.extend(notes)
    if rules is None:
        result.skipped = notes[0]
        return None, result
    result.rules = rules.name
    replay = _Replay(record, rules, result, lexicon)
    replay.run()
    return replay.game, result


def check_record(record: GCGRecord, default: RuleSet, lexicon: WordList | None = None) -> CheckResult:
    """Replay one record (see the module docstring for how its rules are chosen) and report what differs."""
    return replay_record(record, default, lexicon)[1]
