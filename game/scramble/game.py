"""SCRABBLE Scramble, the letter-dice game, as a variant of the standard game [SCRAMBLE].

Scramble is the standard engine with different data and a small `Game` subclass:

- data: the 9x9 mat is a layout (`game/data/layouts/scramble.json`), the dice a dice set
  (`game/data/dice/<name>.json`) seen by the scorer as a tile set; the rest are `RuleSet` fields
  (bingo 7 dice +50, double challenge, two-letter first word on the centre square);
- `ScrambleRules` adds what a rule set of the standard game does not have: the dice set, advanced
  play (unused dice passed on, letters up), the winning score (200) and the turn time (60 s);
- `ScrambleGame` replaces the bag and racks by the cup and the dice in hand (`game.scramble.cup`)
  and, through the `after_turn` hook, applies the "scrambled" rule (`game.scramble.rule`) after
  every scored play. Validation, scoring, challenges and the score sheet are the standard game's.

A turn: `roll()` (simulation, seeded), `read_roll(faces)` (the table's sensors) or `set_rack(player,
faces)` (a GCG record) gives the player the dice; then `play(...)`, or `time_up()` when the sand timer
runs out with no word on the mat. The roll starts the turn, so it also closes the last play's challenge
window, as the manual says ("before the next player starts a turn").
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from game.errors import DataError, ExchangeNotAllowedError, IllegalPlayError, NotOnRackError
from game.events import Event, EventKind
from game.game import ChallengeResult, Game, WordList
from game.layout import Layout, load_layout
from game.play import Placement, Play
from game.rules import ChallengeRule, RuleSet, ScorelessLimit, rules_from_dict, rules_to_dict
from game.scoring import ScoredPlay
from game.scramble.cup import ALPHABETS, Dice
from game.scramble.dice import DiceSet, Face, load_dice_set
from game.scramble.errors import RollError, RollOrderError
from game.scramble.rule import Scramble, scramble
from game.squares import Square
from game.tiles import rack_counter
from game.timers import TurnTimerConfig
from game.validation import Word, validate
from game.variants import register_variant

TARGET_SCORE = 200
TURN_SECONDS = 60.0
# The manual ends a game only at the target score; scoreless turns never end it.
NO_SCORELESS_END = ScorelessLimit(sys.maxsize, per_player=False)


@dataclass(frozen=True)
class ScrambleRules(RuleSet):
    """A standard rule set plus the dice, advanced play, the winning score and the turn time."""

    dice: DiceSet | None = None
    advanced: bool = False
    target: int = TARGET_SCORE
    turn_seconds: float = TURN_SECONDS

    def __post_init__(self) -> None:
        if self.dice is None:
            raise DataError(f"rule set {self.name!r}: Scramble needs a dice set", form="no_dice", name=self.name)
        if self.target <= 0:
            raise DataError(f"rule set {self.name!r}: the winning score must be positive, not {self.target}",
                            form="target", name=self.name, target=self.target)
        if self.turn_seconds <= 0:
            raise DataError(f"rule set {self.name!r}: the turn time must be positive, not {self.turn_seconds}",
                            form="turn_seconds", name=self.name, seconds=self.turn_seconds)
        # The scorer reads values from `tiles`: they must be the dice's (a dice set swapped in with
        # `with_options(dice=...)` alone would leave the old values).
        wrong = sorted(
            letter for letter in self.dice.letters() if self.tiles.values.get(letter) != self.dice.value(letter)
        )
        if wrong:
            raise DataError(
                f"rule set {self.name!r}: the tile values of {', '.join(wrong)} differ from the dice "
                f"{self.dice.name!r}; build the rules with scramble_rules(dice)",
                form="dice_values", name=self.name, letters=", ".join(wrong), dice=self.dice.name,
            )

    @property
    def dice_set(self) -> DiceSet:
        assert self.dice is not None  # checked in __post_init__
        return self.dice

    def timer(self) -> TurnTimerConfig:
        """The sand timer of a turn: `turn_seconds`, and time up ends the turn (`ScrambleGame.time_up`)."""
        return TurnTimerConfig.scramble(self.turn_seconds)


def scramble_rules_to_dict(rules: ScrambleRules) -> dict[str, object]:
    """`game.rules.rules_to_dict` plus what a Scramble journal needs to rebuild its rules without the
    package data: the dice set in full (a taught set is in no data file) and the mat's squares."""
    out = rules_to_dict(rules)
    out.update(advanced=rules.advanced, target=rules.target, turn_seconds=rules.turn_seconds)
    out["dice"] = json.loads(rules.dice_set.to_json())
    out["layout_rows"] = list(rules.layout.rows)
    return out


def scramble_rules_from_dict(raw: Mapping[str, Any]) -> ScrambleRules:
    """Rebuild what `scramble_rules_to_dict` wrote; DataError names what is wrong."""
    values = dict(raw)
    try:
        dice = DiceSet.from_json(json.dumps(values.pop("dice")), "rules: dice")
        rows = values.pop("layout_rows", None)
        extra = {k: values.pop(k) for k in ("advanced", "target", "turn_seconds") if k in values}
        name = str(values["layout"])
        layout = load_layout(name) if rows is None else Layout(name, tuple(str(r) for r in rows))
        # the standard fields through the engine's reader; layout and tiles are the mat's and the dice's
        base = rules_from_dict({**values, "layout": "scramble", "tiles": "english"})
    except DataError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"Scramble rule set: {exc!r}", form="scramble_rules", detail=repr(exc)) from exc
    standard = {f.name: getattr(base, f.name) for f in fields(RuleSet)}
    standard.update(layout=layout, tiles=dice.tile_set(ALPHABETS.get(dice.language, "")))
    return ScrambleRules(**standard, dice=dice, **extra)


def scramble_rules(
    dice: str | DiceSet = "english", *, layout: str = "scramble", advanced: bool = False, target: int = TARGET_SCORE
) -> ScrambleRules:
    """Scramble rules with a shipped dice set (or a `DiceSet` read from a taught file) and mat layout."""
    dice_set = load_dice_set(dice) if isinstance(dice, str) else dice
    name = "scramble-advanced" if advanced else "scramble"
    if dice_set.name != "english":
        name += f"-{dice_set.name}"
    return ScrambleRules(
        name=name,
        layout=load_layout(layout),
        tiles=dice_set.tile_set(ALPHABETS.get(dice_set.language, "")),
        rack_size=7,
        bingo_tiles=7,
        bingo_bonus=50,
        first_play_min_tiles=2,
        first_play_covers_start=True,
        challenge=ChallengeRule.DOUBLE,
        scoreless=NO_SCORELESS_END,
        min_players=2,
        max_players=8,
        dice=dice_set,
        advanced=advanced,
        target=target,
    )


class ScrambleGame(Game):
    """The standard `Game` with the cup and the dice in hand in place of the bag and the racks."""

    rules: ScrambleRules
    # Snapshot for a withdrawn phony also restores the dice (the base's tuple type is inferred too narrowly).
    _STATE = (*Game._STATE, "dice", "rolled", "holder", "last_scramble", "scrambles")  # type: ignore[assignment]

    def __init__(
        self,
        rules: RuleSet,
        players: Sequence[str],
        *,
        lexicon: WordList | None = None,
        seed: int | None = None,
        strict_turns: bool = True,
    ) -> None:
        """`seed` seeds the simulated rolls (`roll()`); without it, faces come from `read_roll` or `set_rack`."""
        if not isinstance(rules, ScrambleRules):
            raise DataError(f"rule set {rules.name!r} is not a Scramble rule set (use game.scramble.scramble_rules)",
                            form="not_scramble", name=rules.name)
        self.dice = Dice()
        self.rolled = False  # whether the player to move has this turn's dice
        self.holder = 0  # who holds the dice in hand
        self.last_scramble: Scramble | None = None
        # The scramble after each scored play, by the play's index in `events`: the score sheet shows which dice
        # went back to the cup (a withdrawn phony's is undone with it).
        self.scrambles: dict[int, Scramble] = {}
        super().__init__(rules, players, lexicon=lexicon, seed=None, strict_turns=strict_turns)
        self.seed = seed
        self.rng = random.Random(seed)
        self._sync_racks()

    # --- what is known -----------------------------------------------------------------------

    @property
    def bag_count(self) -> int:
        """Dice in the cup."""
        return len(self.dice.cup)

    @property
    def dice_set(self) -> DiceSet:
        return self.rules.dice_set

    def hand(self) -> tuple[Face, ...]:
        """The faces the player to move has (passed on and rolled), in the order they came."""
        return tuple(d.face for d in self.dice.hand)

    def mat(self) -> dict[Square, str]:
        """The mat as it must look now: square -> letter (lowercase for a blank face)."""
        return {square: str(tile) for square, tile in self.board.tiles()}

    # --- the start of a turn -----------------------------------------------------------------

    def roll(self) -> tuple[Face, ...]:
        """Simulation: draw up to seven dice from the cup and roll them with the game's seeded RNG."""
        self._start_roll()
        self.actions.append({"action": "roll"})
        self.dice = self.dice.roll(self.dice_set, self.rng)
        self._rolled(self.to_move)
        return self.hand()

    def read_roll(
        self, faces: Sequence[Face | str], *, exact: bool = True, player: int | None = None,
        dice: Sequence[int] | None = None,
    ) -> tuple[Face, ...]:
        """The real table: the faces the sensors read on the dice just rolled (not those passed on).

        `player`: who rolled, when a record names the players itself (default: the player to move).
        `dice`: the die (0-based) under each face, when the sensors read them too (`Dice.read`)."""
        self._start_roll()
        read = [f if isinstance(f, Face) else Face.from_str(f) for f in faces]
        self.dice = self.dice.read(self.dice_set, read, exact=exact, dice=dice)
        holder = self.to_move if player is None else player
        action: dict[str, Any] = {"action": "read_roll", "faces": [str(f) for f in read], "exact": exact,
                                  "player": holder}
        if dice is not None:
            action["dice"] = [int(d) for d in dice]
        self.actions.append(action)
        self._rolled(holder)
        return self.hand()

    def set_rack(self, player: int, rack: str) -> None:
        """A record's rack: every face `player` has this turn (passed on and rolled), `?` for a blank.

        Before the roll it is read as the roll: the faces passed on must be in it, the others are
        read from the cup. After the roll it must name the faces already in hand.
        """
        self._actor(player)  # the game is on, and (strict turns) it is this player's turn
        wanted = rack_counter(rack)
        if self.rolled:
            if wanted != Counter(d.face.letter for d in self.dice.hand):
                raise RollError(f"rack {rack}: the dice in hand show {self.dice.rack or 'nothing'}",
                                form="rack_not_hand" if self.dice.rack else "rack_empty_hand", rack=rack,
                                hand=self.dice.rack)
            self.actions.append({"action": "set_rack", "player": player, "rack": rack})
            self.holder = player
            self._sync_racks()
            return
        self._start_roll()
        passed = Counter(d.face.letter for d in self.dice.hand)
        missing = passed - wanted
        if missing:
            have = "".join(sorted(missing.elements()))
            raise NotOnRackError(f"rack {rack}: the dice passed on ({self.dice.rack}) include {have}, not in the rack",
                                 form="passed_dice", rack=rack, passed=self.dice.rack, tiles=have)
        fresh = [Face(letter, self.dice_set.value(letter)) for letter in sorted((wanted - passed).elements())]
        self.dice = self.dice.read(self.dice_set, fresh)
        self.actions.append({"action": "set_rack", "player": player, "rack": rack})
        self._rolled(player)

    def record_rack(self, player: int, rack: str) -> None:
        """The rack field of a record's line, before the turn is replayed: the faces rolled (`set_rack`).

        The record checker hands it in for variants that verify racks; the standard game takes racks in
        records as notes (test records carry made-up racks), Scramble checks them against the cup."""
        self.set_rack(player, rack)

    def drop_refused_line(self, player: int) -> None:
        """The line's turn was never made: the dice rolled for it go back to the cup (those passed on too:
        the record's next rack says what the next player holds), and the next line rolls afresh."""
        if self.rolled and self.holder == player and not self.over:
            self.dice = self.dice.to_cup(hand=True)
            self.rolled = False
            self.holder = self.to_move
            self._sync_racks()

    def _start_roll(self) -> None:
        if self.over:
            self._actor(None)  # raises GameOverError with the reason
        if self.rolled:
            raise RollOrderError(f"{self.players[self.to_move]} has already rolled this turn", form="rolled_twice",
                                 player=self.players[self.to_move])
        self._close_pending()

    def _rolled(self, player: int) -> None:
        self.rolled = True
        self.holder = player
        self._sync_racks()

    def _sync_racks(self) -> None:
        """The engine's racks mirror the dice: the holder's rack is the hand, everybody else's is empty."""
        for i in range(len(self.players)):
            self.racks[i] = Counter(d.face.letter for d in self.dice.hand) if i == self.holder else Counter()
            self.rack_sizes[i] = len(self.dice.hand) if i == self.holder else 0

    # --- the turn --------------------------------------------------------------------------------

    def play(self, placements: Iterable[Placement] | str, player: int | None = None) -> ScoredPlay:
        """Play dice from the hand: the standard validation and scoring, then the scrambled rule.

        A record replayed with `strict_turns=False` that gives no rack: the faces played (less those
        passed on) are read as the roll, and the other dice rolled stay unknown.
        """
        if not self.rolled and not self.over:
            if self.strict_turns:
                raise RollOrderError(f"{self.players[self.to_move]} has not rolled the dice yet", form="not_rolled",
                                     player=self.players[self.to_move])
            placed = Play.from_str(placements).placements(self.board) if isinstance(placements, str) else placements
            placed = tuple(placed)
            used = Counter(p.tile.rack_letter for p in placed) - Counter(d.face.letter for d in self.dice.hand)
            faces = [Face(letter, self.dice_set.value(letter)) for letter in sorted(used.elements())]
            self.read_roll(faces, exact=False, player=player)
            placements = placed
        return super().play(placements, player)

    def challenge(self, challenger: int, valid: bool | None = None, words: int = 1) -> ChallengeResult:
        """The standard challenge. A wrong challenger who was next loses the turn at once: the dice
        passed on (advanced play) then go to the player after him, who is now to move."""
        result = super().challenge(challenger, valid, words)
        if not self.rolled:
            self.holder = self.to_move
            self._sync_racks()
        return result

    def time_up(self, player: int | None = None) -> None:
        """The sand timer ran out with no word on the mat: the turn is lost (recorded as a pass)."""
        self.pass_turn(player)

    def exchange(self, tiles: str | int, player: int | None = None) -> None:
        raise ExchangeNotAllowedError("Scramble has no exchange: every turn rolls new dice", form="scramble")

    def draw_count(self, player: int, played: int) -> int:
        """No drawing after a play: the next player rolls at the start of the turn."""
        return 0

    def after_turn(self, event: Event) -> None:
        """Scramble the mat after a scored play; return or pass on the dice after every turn."""
        if event.kind is EventKind.PLAY:
            self._after_play(event)
        else:
            # A lost turn (time up, pass, a phony withdrawn): the player's dice go back to the cup.
            self.dice = self.dice.to_cup(hand=True)
        self.rolled = False
        self.holder = self.to_move
        self._sync_racks()

    def _after_play(self, event: Event) -> None:
        width = self.board.width
        placed = {p.square for p in event.placements}
        before = {square for square, _ in self.board.tiles()} - placed
        scored = self.last_play
        words: tuple[Word, ...] | None
        if scored is not None and scored.placements == event.placements:
            words, forced = scored.checked.words, False
        else:
            words, forced = self._forced_words(event), True
        if words is None:
            # A play forced past the rules (a director's ruling, a record followed past a refusal) may form
            # no word the rules know: the mat is cleared as after an extension, keeping one word at most.
            result = Scramble(removed=frozenset(before | placed), kept=frozenset(), cleared=True)
        else:
            squares = [frozenset(Square(i // width, i % width) for i in w.indices) for w in words]
            result = scramble(before, squares[0], squares[1:])
        letters = ((p.square, p.tile.rack_letter) for p in event.placements)
        self.dice = self.dice.place(letters, self.dice_set if forced else None)
        self.board.remove(sorted(result.removed))
        self.dice = self.dice.to_cup(result.removed, hand=not self.rules.advanced)
        self.last_scramble = result
        index = next((i for i in range(len(self.events) - 1, -1, -1) if self.events[i] is event), None)
        if index is not None:  # a lost turn may follow the play in `events` (this event, not the last)
            self.scrambles[index] = result
        if self.scores[event.player] >= self.rules.target and not self.over:
            self.over = True
            self.end_reason = f"{self.players[event.player]} reached {self.rules.target} points"

    def _forced_words(self, event: Event) -> tuple[Word, ...] | None:
        """The words of a play forced past the rules (no checked play), by validating it against the mat
        as it was; None when the rules refuse it."""
        board = self.board.copy()
        board.remove(p.square for p in event.placements)
        try:
            return validate(board, event.placements, self.rules).words
        except IllegalPlayError:
            return None

    def _go_out(self, who: int) -> None:
        """Scramble has no going out: an empty hand with an empty cup is an ordinary turn."""

    # --- journal ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["rules"] = scramble_rules_to_dict(self.rules)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], lexicon: WordList | None = None) -> Game:
        """Rebuild a Scramble game from `to_dict()` output, its dice and mat included."""
        return cls.replay(scramble_rules_from_dict(data["rules"]), data, lexicon)

    def _apply_action(self, action: Mapping[str, Any]) -> None:
        """Scramble's journal entries (rolls); the rest are the standard game's. `Game.apply_action`
        wraps this and reports a malformed entry as a DataError."""
        kind = action["action"]
        if kind == "roll":
            self.roll()
        elif kind == "read_roll":
            dice = action.get("dice")
            self.read_roll(list(action["faces"]), exact=bool(action.get("exact", True)), player=action.get("player"),
                           dice=[int(d) for d in dice] if isinstance(dice, list) else None)
        else:
            super()._apply_action(action)


def _register() -> None:
    def factory(dice: str, advanced: bool) -> Any:
        return lambda: scramble_rules(dice, advanced=advanced)

    register_variant("scramble", factory("english", False), ScrambleGame, "SCRABBLE Scramble, basic [SCRAMBLE]")
    advanced = "SCRABBLE Scramble, advanced: unused dice passed on"
    register_variant("scramble-advanced", factory("english", True), ScrambleGame, advanced)
    register_variant("scramble-german", factory("german", False), ScrambleGame, "Scramble with the German dice")
    register_variant(
        "scramble-advanced-german", factory("german", True), ScrambleGame, "Scramble advanced, German dice"
    )


_register()
