"""The game: players, turns, racks or tile tracking, challenges, time penalties, the end.

Two ways to run it:
- racks known: a simulated game deals from a bag shuffled by a seeded `random.Random`, and
  every play is checked against the player's rack;
- racks unknown (the real table): the referee sees the board, not the racks. The game tracks
  the tiles still unseen and how many are in the bag (from rack sizes), refuses a play that
  uses more of a letter than remain unseen, and takes the racks at the end from the caller
  (`finish_with_racks`). A rack may be declared at any time (`set_rack`: a GCG record gives
  it before every turn; a director may enter one).

Every action is also journaled as a plain dict in `actions`; `Game.replay(...)` rebuilds the
same state from them (the service replays its journal after a crash). `events` is the score
sheet. Subclasses (variants) override the hooks `draw_count`, `after_turn`, `is_first_play`,
`record_rack`.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.board import Board
from game.errors import (
    AdjustmentError,
    ChallengeError,
    CorrectionError,
    DataError,
    ExchangeNotAllowedError,
    GameOverError,
    NotInBagError,
    NotInLexiconError,
    NotOnRackError,
    NotYourTurnError,
    PlayerError,
)
from game.events import Event, EventKind
from game.play import Placement, Play, placements_from_str
from game.rules import ChallengeRule, EndRackRule, RuleSet, rules_from_dict, rules_to_dict
from game.scoring import ScoredPlay, score
from game.squares import Direction, Square
from game.tiles import BLANK, Tile, rack_counter
from game.validation import validate


class WordList(Protocol):
    """What the game needs of a lexicon: membership of a normalised (uppercase) word."""

    def __contains__(self, word: object) -> bool: ...


@dataclass(frozen=True)
class ChallengeResult:
    """The outcome of a challenge: was the play good, what it cost or earned, which words failed."""

    valid: bool
    challenged: int
    challenger: int
    points: int  # removed from the challenged player (phony) or bonus to them (5/10-point rule)
    bad_words: tuple[str, ...] = ()


@dataclass
class _Pending:
    """The last play, open to challenge until the next turn starts (`scored` is None for a forced play)."""

    player: int
    points: int
    snapshot: dict[str, Any]
    scored: ScoredPlay | None = None
    challengers: set[int] = field(default_factory=set)


def _written(board: Board, placed: Sequence[Placement]) -> str:
    """A forced play as a score sheet writes it: GCG when its tiles lie in one line, else the placements."""
    if placed and (len({p.square.row for p in placed}) == 1 or len({p.square.col for p in placed}) == 1):
        across = len({p.square.row for p in placed}) == 1 and (
            len(placed) > 1 or board.get(placed[0].square.step(Direction.ACROSS)) is not None
            or board.get(placed[0].square.step(Direction.ACROSS, -1)) is not None)
        try:
            play = Play.from_placements(board, placed, Direction.ACROSS if across else Direction.DOWN)
            if set(play.placements(board)) == set(placed):  # no gap the text would hide
                return str(play)
        except ValueError:
            pass
    return " ".join(str(p) for p in placed)


def _take(rack: Counter[str], tiles: Counter[str]) -> None:
    """Remove tiles from a rack in place, dropping letters that reach zero."""
    rack.subtract(tiles)
    for letter in [k for k, v in rack.items() if v <= 0]:
        del rack[letter]


def _rack_str(counter: Counter[str]) -> str:
    return "".join(sorted(counter.elements(), key=lambda c: (c == BLANK, c)))


def first_player(draws: Sequence[str]) -> list[int]:
    """Who plays first from the tiles each player drew [ONYX]: the letter closest to A, a blank (`?`)
    beating any letter. One index: that player starts; several: they tied and draw again."""
    if not draws or any(len(d) != 1 or not (d == BLANK or d.isalpha()) for d in draws):
        raise PlayerError(f"draws {list(draws)}: one tile per player, a letter or ?", form="draws", draws=list(draws))
    keys = [(-1, "") if d == BLANK else (0, d.upper()) for d in draws]
    best = min(keys)
    return [i for i, k in enumerate(keys) if k == best]


class Game:
    """A standard game under a `RuleSet`. Player indices count from 0 in turn order."""

    def __init__(
        self,
        rules: RuleSet,
        players: Sequence[str],
        *,
        lexicon: WordList | None = None,
        seed: int | None = None,
        strict_turns: bool = True,
    ) -> None:
        """`seed` given: racks known, dealt from a bag shuffled with it. None: racks unknown.

        `strict_turns=False` lets a record replay name the player of every turn itself
        (records do not write lost turns).
        """
        if not rules.min_players <= len(players) <= rules.max_players:
            raise PlayerError(
                f"{len(players)} players: the {rules.name} rules are for {rules.min_players} to {rules.max_players}",
                form="count", count=len(players), rules=rules.name, min=rules.min_players, max=rules.max_players,
            )
        if rules.challenge is ChallengeRule.VOID and lexicon is None:
            raise ChallengeError("the void challenge rule needs a lexicon to judge every play",
                                 form="void_needs_lexicon")
        self.rules = rules
        self.players = list(players)
        self.lexicon = lexicon
        self.seed = seed
        self.strict_turns = strict_turns
        self.board = Board(rules.layout)
        self.scores = [0] * len(players)
        self.to_move = 0
        self.events: list[Event] = []
        self.actions: list[dict[str, Any]] = []
        self.over = False
        self.end_reason = ""
        self.scores_before_racks: list[int] | None = None
        self.awaiting_racks = False
        self.lost_on_time: int | None = None
        self._scoreless = 0
        self._lose_turn: set[int] = set()
        self._pending: _Pending | None = None
        self._out_player: int | None = None
        self.racks: list[Counter[str] | None] = [None] * len(players)
        self.rack_sizes = [0] * len(players)
        self.bag: list[str] | None = None
        if seed is not None:
            bag = sorted(rules.tiles.full_bag().elements())
            random.Random(seed).shuffle(bag)
            self.bag = bag
            for i in range(len(players)):
                self.racks[i] = Counter()
                self._draw(i, rules.rack_size)
        else:
            for i in range(len(players)):
                self.rack_sizes[i] = min(rules.rack_size, self.bag_count)

    # --- what is known -----------------------------------------------------------------------

    @property
    def bag_count(self) -> int:
        """Tiles left in the bag (exact when racks are known; from rack sizes when not)."""
        if self.bag is not None:
            return len(self.bag)
        return self.rules.tiles.total - self.board.tile_count - sum(self.rack_sizes)

    def unseen(self, player: int | None = None) -> Counter[str]:
        """Tiles not on the board (and not on `player`'s rack, when given and known): tile tracking."""
        pool = self.rules.tiles.full_bag()
        pool.subtract(self.board.rack_letters())
        if player is not None and self.racks[player] is not None:
            pool.subtract(self.racks[player])
        return +pool

    def rack(self, player: int) -> str | None:
        r = self.racks[player]
        return None if r is None else _rack_str(r)

    @property
    def out_player(self) -> int | None:
        """The player who went out, once the game ended so."""
        return self._out_player

    @property
    def last_play(self) -> ScoredPlay | None:
        """The play open to challenge, if any."""
        return self._pending.scored if self._pending else None  # None too after a forced play

    # --- hooks for variants -------------------------------------------------------------------

    def draw_count(self, player: int, played: int) -> int:
        """How many tiles a player draws after playing `played` tiles: back up to the rack size."""
        return min(played, self.bag_count)

    def after_turn(self, event: Event) -> None:
        """Called after every turn-ending event (play, exchange, pass, withdrawn phony). Default: nothing."""

    def record_rack(self, player: int, rack: str) -> None:
        """A record's rack for a line, before the turn is replayed (`game.gcg_check`). Default: ignored,
        because records of the standard game carry made-up racks (the checker notes the ones that do not
        hold the tiles played); a variant that verifies racks (Scramble: the faces rolled) overrides it."""

    def drop_refused_line(self, player: int) -> None:
        """A record's line the engine refused outright, so no turn was made of it (`game.gcg_check`): undo
        what `record_rack` took in for it, so the next line starts clean and one slip is reported once.
        Default: nothing (the standard game keeps no rack from a record); Scramble puts the dice back."""

    def is_first_play(self) -> bool:
        """Whether the next play is held to the first-play rules (start square, two letters). Default:
        when the board is empty."""
        return self.board.is_empty

    # --- input checks ---------------------------------------------------------------------------

    def _actor(self, player: int | None) -> int:
        if self.over:
            raise GameOverError(f"the game is over ({self.end_reason})", form="over", why=self.end_reason)
        if player is None:
            return self.to_move
        if not 0 <= player < len(self.players):
            raise PlayerError(f"there is no player {player}", form="no_player", player=player)
        if self.strict_turns and player != self.to_move:
            raise NotYourTurnError(f"it is {self.players[self.to_move]}'s turn, not {self.players[player]}'s",
                                   turn=self.players[self.to_move], player=self.players[player])
        return player

    def set_rack(self, player: int, rack: str) -> None:
        """Declare a player's rack (`AEI?RST`); it must fit in the unseen tiles."""
        wanted = self._checked_racks({player: rack})[player]
        self.actions.append({"action": "set_rack", "player": player, "rack": rack})
        self.racks[player] = wanted
        self.rack_sizes[player] = sum(wanted.values())

    def _checked_racks(self, racks: Mapping[int, str]) -> dict[int, Counter[str]]:
        """Racks read and checked against the unseen tiles, each alone and all together."""
        out: dict[int, Counter[str]] = {}
        pool = self.unseen()
        total: Counter[str] = Counter()
        for player, rack in racks.items():
            if not 0 <= player < len(self.players):
                raise PlayerError(f"there is no player {player}", form="no_player", player=player)
            wanted = rack_counter(rack)
            missing = wanted - pool
            if missing:
                raise NotInBagError(f"rack {rack}: {_rack_str(missing)} not among the unseen tiles", form="rack",
                                    rack=rack, tiles=_rack_str(missing))
            total += wanted
            out[player] = wanted
        missing = total - pool
        if missing:
            raise NotInBagError(f"racks {', '.join(racks.values())}: together more {_rack_str(missing)} than unseen",
                                form="racks", racks=", ".join(racks.values()), tiles=_rack_str(missing))
        return out

    # --- turns ----------------------------------------------------------------------------------

    def evaluate(self, placements: Iterable[Placement]) -> ScoredPlay:
        """Validate and score placements on the current board without playing them."""
        return score(validate(self.board, placements, self.rules, self.is_first_play()), self.rules)

    def play(self, placements: Iterable[Placement] | str, player: int | None = None) -> ScoredPlay:
        """Play new tiles (placements, or a GCG move `8D WO.D`): validate, score, apply, draw.

        A board diff `{"H8": "A", "H9": "e"}` becomes placements with `game.play.placements_from_diff`.
        Raises the precise `IllegalPlayError` and changes nothing when the play is refused.
        """
        who = self._actor(player)
        placed = Play.from_str(placements).placements(self.board) if isinstance(placements, str) else tuple(placements)
        scored = self.evaluate(placed)
        used = Counter(p.tile.rack_letter for p in placed)
        rack = self.racks[who]
        if rack is not None:
            short = used - rack
            if short:
                raise NotOnRackError(f"{scored.play()}: {_rack_str(short)} not on the rack {_rack_str(rack)}",
                                     form="played", play=str(scored.play()), tiles=_rack_str(short),
                                     rack=_rack_str(rack))
        else:
            if len(placed) > self.rack_sizes[who]:
                raise NotOnRackError(
                    f"{scored.play()}: {len(placed)} tiles played, but {self.players[who]} holds only "
                    f"{self.rack_sizes[who]}",
                    form="too_many", play=str(scored.play()), count=len(placed), player=self.players[who],
                    held=self.rack_sizes[who],
                )
            unseen = self.unseen()
            short = used - unseen
            if short:
                left = ", ".join(f"only {unseen[ch]} {ch}" if unseen[ch] else f"no {ch}" for ch in sorted(short))
                raise NotInBagError(f"{scored.play()}: {left} left unseen", form="play", play=str(scored.play()),
                                    unseen=tuple((ch, unseen[ch]) for ch in sorted(short)))
        if self.rules.challenge is ChallengeRule.VOID and self.lexicon is not None:
            bad = tuple(w.word.text for w in scored.words if w.word.text not in self.lexicon)
            if bad:
                raise NotInLexiconError(f"{', '.join(bad)} {'is' if len(bad) == 1 else 'are'} not in the lexicon", bad,
                                        form="one" if len(bad) == 1 else "many", words=", ".join(bad))
        self._close_pending()
        snapshot = self._snapshot()
        self.actions.append(
            {"action": "play", "player": who, "placements": " ".join(str(p) for p in placed)}
        )
        rack_before = self.rack(who) or ""
        self.board.place((p.square, p.tile) for p in placed)
        if rack is not None:
            _take(rack, used)
        self.rack_sizes[who] -= len(placed)
        self._draw(who, self.draw_count(who, len(placed)))
        self.scores[who] += scored.score
        if scored.score > 0 or self.rules.scoreless.passes_only:
            self._scoreless = 0
        else:
            self._scoreless += 1
        written = scored.play()
        event = Event(
            EventKind.PLAY, who, scored.score, self.scores[who], str(written), scored.placements,
            rack_before, tuple(w.word.text for w in scored.words), position=written.position, count=len(placed),
        )
        self.events.append(event)
        self._pending = _Pending(who, scored.score, snapshot, scored)
        self._advance(who)
        self.after_turn(event)
        if self.rack_sizes[who] == 0 and self.bag_count == 0:
            self._go_out(who)
        else:
            self._check_scoreless_end()  # a play scoring 0 (two blanks) is a scoreless turn [PC]
        return scored

    def force_play(self, placements: Iterable[Placement], points: int, player: int | None = None) -> None:
        """Put tiles on the board and credit `points` without checking any rule.

        For a director's ruling at the table and for replaying a record past a play the engine
        refuses (the record checker reports the refusal, then follows the record).
        """
        who = self._actor(player)
        placed = tuple(placements)
        self._close_pending()
        snapshot = self._snapshot()
        self.actions.append({"action": "force_play", "player": who, "points": points,
                             "placements": " ".join(str(p) for p in placed)})
        rack_before = self.rack(who) or ""
        move = _written(self.board, placed)
        self.board.place((p.square, p.tile) for p in placed)
        rack = self.racks[who]
        if rack is not None:
            _take(rack, Counter(p.tile.rack_letter for p in placed))
        self.rack_sizes[who] = max(0, self.rack_sizes[who] - len(placed))
        self._draw(who, self.draw_count(who, len(placed)))
        self.scores[who] += points
        self._scoreless = 0
        event = Event(EventKind.PLAY, who, points, self.scores[who], move, placed, rack_before, count=len(placed))
        self.events.append(event)
        self._pending = _Pending(who, points, snapshot)
        self._advance(who)
        self.after_turn(event)
        if self.rack_sizes[who] == 0 and self.bag_count == 0 and placed:
            self._go_out(who)

    def exchange(self, tiles: str | int, player: int | None = None) -> None:
        """Exchange tiles (`ABC` when known, or a count at the real table)."""
        who = self._actor(player)
        count = tiles if isinstance(tiles, int) else len(tiles)
        if count < 1:
            raise ExchangeNotAllowedError("an exchange needs at least one tile", form="no_tiles")
        bag = self.bag_count
        if bag < self.rules.exchange_min_bag:
            raise ExchangeNotAllowedError(
                f"exchange refused: {bag} tiles in the bag, the rules need {self.rules.exchange_min_bag}",
                form="bag_too_small", bag=bag, needed=self.rules.exchange_min_bag,
            )
        if count > bag:
            raise ExchangeNotAllowedError(f"exchange of {count} tiles refused: only {bag} in the bag",
                                          form="more_than_bag",
                                          count=count, bag=bag)
        rack = self.racks[who]
        if isinstance(tiles, str) and rack is not None:
            short = rack_counter(tiles) - rack
            if short:
                raise NotOnRackError(f"exchange {tiles}: {_rack_str(short)} not on the rack {_rack_str(rack)}",
                                     form="exchange", exchanged=tiles, tiles=_rack_str(short), rack=_rack_str(rack))
        if self.bag is not None and not isinstance(tiles, str):
            raise ExchangeNotAllowedError("with a known rack, say which tiles are exchanged", form="say_tiles")
        self._close_pending()
        self.actions.append({"action": "exchange", "player": who, "tiles": tiles})
        rack_before = self.rack(who) or ""
        if self.bag is not None and rack is not None and isinstance(tiles, str):
            returned = rack_counter(tiles)
            _take(rack, returned)
            drawn = self.bag[:count]
            del self.bag[:count]
            rack.update(drawn)
            self.bag.extend(sorted(returned.elements()))
            random.Random(f"{self.seed}:{len(self.actions)}").shuffle(self.bag)
        else:
            self.racks[who] = None  # the tiles drawn are not known
        move = f"-{tiles}" if isinstance(tiles, str) else f"-{count}"
        self._scoreless_turn(is_pass=False)
        event = Event(EventKind.EXCHANGE, who, 0, self.scores[who], move, rack=rack_before, count=count)
        self.events.append(event)
        self._advance(who)
        self.after_turn(event)
        self._check_scoreless_end()

    def pass_turn(self, player: int | None = None) -> None:
        """Pass: no score [DE]. Also what a player does who cannot or will not play."""
        who = self._actor(player)
        self._close_pending()
        self.actions.append({"action": "pass", "player": who})
        self._scoreless_turn(is_pass=True)
        event = Event(EventKind.PASS, who, 0, self.scores[who], "-", rack=self.rack(who) or "")
        self.events.append(event)
        self._advance(who)
        self.after_turn(event)
        self._check_scoreless_end()

    def challenge(self, challenger: int, valid: bool | None = None, words: int = 1) -> ChallengeResult:
        """Challenge the last play. `valid` is the judges' verdict; None asks the lexicon.

        A phony is taken back: tiles off the board, its score removed, the turn lost. A good
        play: the challenger loses the next turn (double), or the challenged player gets 5 or
        10 points, or nothing happens (single). Under the void rule there is nothing to challenge.
        `words` is how many of the play's words were challenged: under `challenge_bonus_per_word`
        [WESPA] the bonus is owed for each of them.
        """
        if self.rules.challenge is ChallengeRule.VOID:
            raise ChallengeError("under the void rule the lexicon judges every play; there is nothing to challenge",
                                 form="void")
        pending = self._pending
        if pending is None:
            raise ChallengeError("there is no play to challenge (a play may be challenged only before the next turn)",
                                 form="nothing_pending")
        if not 0 <= challenger < len(self.players) or challenger == pending.player:
            raise ChallengeError(f"player {challenger} cannot challenge {self.players[pending.player]}'s play",
                                 form="cannot_challenge", challenger=challenger, player=self.players[pending.player])
        if challenger in pending.challengers:
            raise ChallengeError(f"{self.players[challenger]} has already challenged this play", form="already",
                                 player=self.players[challenger])
        formed = len(pending.scored.words) if pending.scored is not None else None
        if words < 1 or (formed is not None and words > formed):
            raise ChallengeError(f"{words} words challenged, but the play formed {formed or 'no'} word(s)",
                                 form="word_count" if formed else "word_count_none", words=words, formed=formed or 0)
        bad: tuple[str, ...] = ()
        if valid is None:
            if self.lexicon is None:
                raise ChallengeError("no lexicon to judge the challenge: give the verdict", form="no_lexicon")
            if pending.scored is None:
                raise ChallengeError("a forced play has no words the lexicon can judge: give the verdict",
                                     form="forced_play")
            lex = self.lexicon
            bad = tuple(w.word.text for w in pending.scored.words if w.word.text not in lex)
            valid = not bad
        action: dict[str, Any] = {"action": "challenge", "player": challenger, "valid": valid}
        if words != 1:
            action["words"] = words
        self.actions.append(action)
        who = pending.player
        if not valid:
            lost = pending.points
            out_player = self._out_player
            self._restore(pending.snapshot)
            if out_player == who:
                self.over, self.end_reason, self._out_player = False, "", None
            self._pending = None
            self._scoreless_turn(is_pass=False)
            event = Event(EventKind.WITHDRAWN, who, -lost, self.scores[who], "--", rack=self.rack(who) or "")
            self.events.append(event)
            self._advance(who)
            self.after_turn(event)
            self._check_scoreless_end()
            return ChallengeResult(False, who, challenger, lost, bad)
        pending.challengers.add(challenger)
        bonus = self.rules.challenge.bonus * (words if self.rules.challenge_bonus_per_word else 1)
        if bonus:
            self.scores[who] += bonus
            self.events.append(Event(EventKind.CHALLENGE_BONUS, who, bonus, self.scores[who], "(challenge)"))
        elif self.rules.challenge is ChallengeRule.DOUBLE:
            self._lose_turn.add(challenger)
            if self.to_move == challenger and not self.over:
                self._advance(challenger - 1)
        return ChallengeResult(True, who, challenger, bonus)

    def apply_time_penalty(self, player: int, seconds_over: float) -> int:
        """Take `time_penalty_points` for each started minute over time (handed in by the clocks)."""
        if not 0 <= player < len(self.players):
            raise PlayerError(f"there is no player {player}", form="no_player", player=player)
        minutes = math.ceil(seconds_over / 60) if seconds_over > 0 else 0
        points = minutes * self.rules.time_penalty_points
        self.actions.append({"action": "time_penalty", "player": player, "seconds_over": seconds_over})
        if points:
            self.scores[player] -= points
            self.events.append(Event(EventKind.TIME_PENALTY, player, -points, self.scores[player], "(time)"))
        limit = self.rules.overtime_loss_minutes
        if limit is not None and seconds_over > limit * 60 and self.lost_on_time is None:
            self._lost_on_time(player, f"more than {limit:g} minutes over")
        return points

    # A director's adjustment: at most this many points either way, and a reason of at most this many characters.
    ADJUSTMENT_MAX_POINTS = 1000
    ADJUSTMENT_MAX_REASON = 200

    def adjust_score(self, player: int, points: int, reason: str) -> None:
        """Add `points` (negative: take them) to `player`'s score by a director's ruling, for `reason`.

        For what the rules engine cannot score itself: a penalty the director gives, a play of a game scored
        on paper that was entered with the wrong score. It is not a turn: whose turn it is, a play open to
        challenge and the end of the game stay as they were, so it may come at any time, after the end too
        (the result follows the new scores). A misread letter is corrected by replaying the play with the
        right letter instead, so that the play's own score is right."""
        if not 0 <= player < len(self.players):
            raise PlayerError(f"there is no player {player}", form="no_player", player=player)
        most = self.ADJUSTMENT_MAX_POINTS
        if isinstance(points, bool) or not isinstance(points, int) or points == 0 or abs(points) > most:
            raise AdjustmentError(f"an adjustment is a whole number of points from -{most} to {most}, not 0: "
                                  f"{points!r}", form="points", points=points, most=most)
        reason = " ".join(str(reason).split())
        if not reason or len(reason) > self.ADJUSTMENT_MAX_REASON:
            raise AdjustmentError(f"an adjustment needs its reason, at most {self.ADJUSTMENT_MAX_REASON} characters",
                                  form="reason", most=self.ADJUSTMENT_MAX_REASON)
        self.actions.append({"action": "adjust", "player": player, "points": points, "reason": reason})
        self.scores[player] += points
        self.events.append(Event(EventKind.ADJUSTMENT, player, points, self.scores[player], "(adjustment)",
                                 note=reason))

    def lose_on_time(self, player: int) -> None:
        """The clocks say `player` lost on time (a game clock set to end the game at its maximum overtime,
        `game.clock.ClockConfig.on_max_overtime = "lose"`, which stops the clock exactly at the limit):
        the game ends now, the last play stands, no racks are counted, and the player cannot win. The time
        penalties are handed in as usual (`apply_time_penalty`)."""
        if not 0 <= player < len(self.players):
            raise PlayerError(f"there is no player {player}", form="no_player", player=player)
        if self.lost_on_time is not None:
            raise GameOverError(f"{self.players[self.lost_on_time]} has already lost on time", form="lost_on_time",
                                player=self.players[self.lost_on_time])
        self.actions.append({"action": "lose_on_time", "player": player})
        limit = self.rules.overtime_loss_minutes
        self._lost_on_time(player, "the overtime limit reached" if limit is None else f"{limit:g} minutes over")

    def _lost_on_time(self, player: int, why: str) -> None:
        self.lost_on_time = player
        self.over = True
        self.end_reason = f"{self.players[player]} lost on time, {why}"
        self._pending = None
        self.awaiting_racks = False

    # --- a director's corrections of the last play ------------------------------------------------

    # What may follow a play that is still the last turn: a time penalty and a director's adjustment are not turns.
    _NOT_TURNS = frozenset({"time_penalty", "adjust"})

    def undo_last_play(self) -> None:
        """Take the last play back as if it had never been made, as python-chess's `Board.pop()` takes back a move:
        its tiles leave the board, its score and its line of the score sheet go, and its player is to move again.
        Only while it is the last turn (a time penalty or a director's adjustment made since stays, as it was).
        Refused with CorrectionError, nothing changed, when there is no play or a turn has followed it."""
        index = self._last_play_index()
        later = self.actions[index + 1:]
        if any(a["action"] not in self._NOT_TURNS for a in later):
            play = str(self.actions[index]["placements"])
            raise CorrectionError(f"{play} is no longer the last turn: a turn has been played since",
                                  form="turn_since", play=play)
        self._become(self.actions[:index] + later)

    def correct_tile(self, square: Square, letter: str) -> None:
        """The tile the last play put on `square` was read wrong: it is `letter` (a blank stays a blank, standing
        for `letter`). The game is played again with it, so the play is scored again and what followed it (a
        challenge, later turns) is judged on the right letter. A correction the rules refuse (the word no longer
        connects, a letter no tile has left) raises the engine's reason and changes nothing; so does a square the
        play did not cover, or whose tile has left the board (a play challenged off): CorrectionError."""
        index = self._last_play_index()
        action = self.actions[index]
        placed = placements_from_str(str(action["placements"]))
        old = next((p for p in placed if p.square == square), None)
        if old is None or self.board.get(square) != old.tile:
            raise CorrectionError(f"{square} is not a tile of the last play, {action['placements']}",
                                  form="not_in_play", square=str(square), play=str(action["placements"]))
        tile = Tile(Tile.from_str(letter.upper()).letter, blank=old.tile.blank)
        fixed = " ".join(str(Placement(p.square, tile) if p is old else p) for p in placed)
        self._become([*self.actions[:index], {**action, "placements": fixed}, *self.actions[index + 1:]])

    def _last_play_index(self) -> int:
        """Where the last play is in `actions` (CorrectionError when the game has none)."""
        for index in range(len(self.actions) - 1, -1, -1):
            if self.actions[index]["action"] == "play":
                return index
        raise CorrectionError("there is no play to take back or correct", form="no_play")

    def _become(self, actions: list[dict[str, Any]]) -> None:
        """Become the game `actions` make, replayed from the start: the one way the engine rebuilds a state, so a
        corrected game is exactly the game that would have been played. All or nothing: an action the rules
        refuse now raises, and this game stays as it was."""
        again = type(self).replay(self.rules, {**self.to_dict(), "actions": copy.deepcopy(actions)}, self.lexicon)
        self.__dict__.clear()
        self.__dict__.update(again.__dict__)

    def finish_with_racks(self, racks: Mapping[int, str]) -> None:
        """Enter the unplayed tiles at the end of a game whose racks were not known (all at once: nothing
        changes when one is wrong or missing)."""
        if not self.awaiting_racks:
            raise GameOverError("the game is not waiting for the racks at its end", form="not_waiting_racks")
        checked = self._checked_racks(racks)
        missing = [self.players[i] for i, r in enumerate(self.racks)
                   if r is None and i != self._out_player and i not in checked]
        if missing:
            raise PlayerError(f"the racks of {', '.join(missing)} are still needed", form="racks_needed",
                              players=", ".join(missing))
        for player, wanted in checked.items():
            self.racks[player] = wanted
            self.rack_sizes[player] = sum(wanted.values())
        self.actions.append({"action": "finish_with_racks", "racks": {str(k): v for k, v in racks.items()}})
        self._apply_end_racks()

    # --- internals ------------------------------------------------------------------------------

    def _draw(self, player: int, n: int) -> None:
        """Draw `n` tiles (fewer when the bag runs out). Unknown bag: the rack becomes unknown."""
        rack = self.racks[player]
        if self.bag is not None:
            n = min(n, len(self.bag))
            drawn = self.bag[:n]
            del self.bag[:n]
            if rack is not None:
                rack.update(drawn)
        else:
            n = min(n, self.bag_count)
            if n > 0:
                self.racks[player] = None
        self.rack_sizes[player] += n

    def _scoreless_turn(self, is_pass: bool) -> None:
        if self.rules.scoreless.passes_only and not is_pass:
            self._scoreless = 0
        else:
            self._scoreless += 1

    def _check_scoreless_end(self) -> None:
        if self._scoreless >= self.rules.scoreless.limit(len(self.players)) and not self.over:
            self.over = True
            self.end_reason = f"{self._scoreless} scoreless turns in a row"
            self._pending = None
            self._apply_end_racks()

    def _close_pending(self) -> None:
        self._pending = None

    def _advance(self, who: int) -> None:
        n = len(self.players)
        nxt = (who + 1) % n
        for _ in range(n):
            if nxt in self._lose_turn:
                self._lose_turn.discard(nxt)
                self.events.append(Event(EventKind.LOST_TURN, nxt, 0, self.scores[nxt], "(lost turn)"))
                nxt = (nxt + 1) % n
                continue
            break
        self.to_move = nxt

    def _go_out(self, who: int) -> None:
        self.over = True
        self.end_reason = f"{self.players[who]} went out"
        self._out_player = who
        if self.bag is None and len(self.players) == 2:
            # The other rack is exactly the tiles not on the board.
            other = 1 - who
            self.racks[other] = self.unseen()
            self.rack_sizes[other] = sum(self.racks[other].values())  # type: ignore[union-attr]
        self._apply_end_racks()

    def _apply_end_racks(self) -> None:
        if any(r is None for i, r in enumerate(self.racks) if i != self._out_player):
            self.awaiting_racks = True
            return
        self.awaiting_racks = False
        self.scores_before_racks = list(self.scores)
        values = {i: self.rules.tiles.rack_value(_rack_str(r)) for i, r in enumerate(self.racks) if r is not None}
        out = self._out_player
        if out is None:
            for i, v in values.items():
                self._end_rack_event(i, -v)
            return
        others = sum(v for i, v in values.items() if i != out)
        if self.rules.end_racks is EndRackRule.DOUBLE_TO_OUT:
            self._end_rack_event(out, 2 * others, "".join(_rack_str(r) for i, r in enumerate(self.racks)
                                                          if r is not None and i != out))
            return
        for i, v in values.items():
            if i != out:
                self._end_rack_event(i, -v)
        self._end_rack_event(out, others, "".join(_rack_str(r) for i, r in enumerate(self.racks)
                                                  if r is not None and i != out))

    def _end_rack_event(self, player: int, delta: int, tiles: str | None = None) -> None:
        rack = self.racks[player]
        shown = tiles if tiles is not None else (_rack_str(rack) if rack is not None else "")
        self.scores[player] += delta
        self.events.append(Event(EventKind.END_RACK, player, delta, self.scores[player], f"({shown})"))

    def winners(self) -> list[int]:
        """Highest final score; on a tie, the higher score before the unplayed tiles [PC]; else shared.
        A player who lost on time (`overtime_loss_minutes`) cannot win."""
        alive = [i for i in range(len(self.players)) if i != self.lost_on_time]
        best = max(self.scores[i] for i in alive)
        tied = [i for i in alive if self.scores[i] == best]
        if len(tied) > 1 and self.rules.tie_break_before_racks and self.scores_before_racks is not None:
            before = self.scores_before_racks
            top = max(before[i] for i in tied)
            tied = [i for i in tied if before[i] == top]
        return tied

    _STATE = ("board", "scores", "racks", "rack_sizes", "bag", "to_move", "events", "over", "end_reason",
              "scores_before_racks", "awaiting_racks", "_scoreless", "_lose_turn", "_out_player")

    def _snapshot(self) -> dict[str, Any]:
        """The state a withdrawn play returns to. The base game's fields are copied by hand (fast); any a
        variant adds to `_STATE` are deep-copied."""
        own = set(Game._STATE)
        snap: dict[str, Any] = {name: getattr(self, name) if name in own else copy.deepcopy(getattr(self, name))
                                for name in self._STATE}
        snap["board"] = self.board.copy()
        snap["events"] = list(self.events)
        snap["scores"] = list(self.scores)
        snap["racks"] = [None if r is None else Counter(r) for r in self.racks]
        snap["rack_sizes"] = list(self.rack_sizes)
        snap["bag"] = None if self.bag is None else list(self.bag)
        snap["scores_before_racks"] = None if self.scores_before_racks is None else list(self.scores_before_racks)
        snap["_lose_turn"] = set(self._lose_turn)
        return snap

    def _restore(self, snap: dict[str, Any]) -> None:
        """Undo a play (a phony withdrawn). The score sheet keeps the play line (GCG writes it, then `--`)
        and any time penalty or director's adjustment made meanwhile; end-of-game adjustments the play caused
        are dropped."""
        later = self.events[len(snap["events"]):]
        for name, value in snap.items():
            setattr(self, name, value)
        kept = [e for e in later if e.kind is not EventKind.END_RACK]
        for e in kept:
            if e.kind in (EventKind.TIME_PENALTY, EventKind.ADJUSTMENT):
                self.scores[e.player] += e.delta
        self.events = list(snap["events"]) + kept

    # --- journal --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild this game with `Game.replay` or `Game.from_dict` (JSON-ready)."""
        return {"rules": rules_to_dict(self.rules), "players": list(self.players), "seed": self.seed,
                "strict_turns": self.strict_turns, "actions": copy.deepcopy(self.actions)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], lexicon: WordList | None = None) -> Game:
        """Rebuild a game from `to_dict()` output, rules included (rules built from the shipped data)."""
        return cls.replay(rules_from_dict(data["rules"]), data, lexicon)

    @classmethod
    def replay(cls, rules: RuleSet, data: Mapping[str, Any], lexicon: WordList | None = None) -> Game:
        """Rebuild a game from `to_dict()` output by applying its actions again, in order."""
        game = cls(rules, data["players"], lexicon=lexicon, seed=data.get("seed"),
                   strict_turns=bool(data.get("strict_turns", True)))
        for action in data["actions"]:
            game.apply_action(action)
        return game

    def apply_action(self, action: Mapping[str, Any]) -> None:
        """Apply one journaled action (as `actions` records them). A malformed entry raises DataError."""
        try:
            self._apply_action(action)
        except (KeyError, TypeError, AttributeError) as exc:
            raise DataError(f"journal entry {dict(action)!r} is malformed ({exc!r})", form="journal_entry",
                            entry=dict(action), detail=repr(exc)) from exc

    def _apply_action(self, action: Mapping[str, Any]) -> None:
        kind = action["action"]
        player = action.get("player")
        if kind == "play":
            self.play(placements_from_str(action["placements"]), player)
        elif kind == "force_play":
            self.force_play(placements_from_str(action["placements"]), int(action["points"]), player)
        elif kind == "exchange":
            self.exchange(action["tiles"], player)
        elif kind == "pass":
            self.pass_turn(player)
        elif kind == "challenge":
            self.challenge(int(action["player"]), action["valid"], int(action.get("words", 1)))
        elif kind == "lose_on_time":
            self.lose_on_time(int(action["player"]))
        elif kind == "time_penalty":
            self.apply_time_penalty(int(action["player"]), float(action["seconds_over"]))
        elif kind == "adjust":
            self.adjust_score(int(action["player"]), int(action["points"]), str(action["reason"]))
        elif kind == "set_rack":
            self.set_rack(int(action["player"]), action["rack"])
        elif kind == "finish_with_racks":
            self.finish_with_racks({int(k): v for k, v in action["racks"].items()})
        else:
            raise PlayerError(f"unknown action {kind!r} in the journal", form="unknown_action", action=kind)
