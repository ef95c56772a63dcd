"""The table's view of the rules engine: which rule set and lexicon a table plays with.

The game itself (validation, scores, challenges, lost turns, the end and its racks) is the engine's
`game.game.Game` (`game.scramble.ScrambleGame` for Scramble); the table only decides *when* to hand
it a play, a pass or a challenge. Keeping the choice of rules here lets the state machine stay
readable and lets the engine's API move without touching it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game.errors import DataError
from game.game import Game, WordList
from game.rules import ChallengeRule, EndRackRule, RuleSet, classic_english, german, naspa
from game.scramble.dice import DiceSet
from referee.table.setup import TableSetup


class WordSet:
    """A lexicon as a plain set of uppercase words, for tests and the simulated table (a word list a table plays
    with is a `game.lexicon.Lexicon`, opened by `referee.lexicon_store.open_lexicon`)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(w.strip().upper().replace("ß", "SS") for w in words if w.strip())

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() in self.words

    def __len__(self) -> int:
        return len(self.words)


def rules_for(kind: str, edition: str, players: int, challenge: str, target: int = 200, *,
              end_racks: str = "", challenge_bonus_per_word: bool = False,
              overtime_loss_minutes: float | None = None, dice: DiceSet | None = None) -> RuleSet:
    """The engine's rule set for a table: NASPA for a two-player English game (what tournament
    players and GCG records expect), the Hasbro manuals for three or four, the German manual in
    German; Scramble (basic or advanced) on its 9x9 mat with the dice of the edition.

    `challenge` is the configured rule. "auto" (the PC manual's auto challenge: a phony is taken
    back and the turn is lost) is played as "single" by the engine while the table challenges every
    phony itself at once; "void" (a phony is refused, the mover plays again) is the engine's VOID.

    `end_racks` ("each-way" or "double", the engine's `EndRackRule`) overrides the rule set's own rack
    rule at the end; "" keeps it. `challenge_bonus_per_word`: the five- or ten-point bonus is owed for each
    word wrongly challenged [WESPA A.i], not once per challenge. `overtime_loss_minutes`: the game is lost on
    time this far over (the tournament clocks set to "lose"); None: overtime only costs points. `dice`:
    Scramble's dice (a shipped set or one taught with `referee dice teach`); None: the edition's shipped set."""
    if kind == "standard":
        if edition == "german":
            base: RuleSet = german()
        else:
            base = naspa() if players == 2 else classic_english()
    else:
        from game.scramble import scramble_rules

        shipped = "german" if edition == "german" else "english"
        base = scramble_rules(dice or shipped, advanced=kind == "scramble-advanced", target=target)
    rule = ChallengeRule.SINGLE if challenge == "auto" else ChallengeRule(challenge)
    options: dict[str, object] = {"challenge": rule, "challenge_bonus_per_word": challenge_bonus_per_word,
                                  "overtime_loss_minutes": overtime_loss_minutes}
    if end_racks:
        options["end_racks"] = EndRackRule(end_racks)
    return base.with_options(**options)


class TableRules:
    """The rule set, the lexicon, and a way to start a game on them. Immutable and shared: a deep
    copy of a table machine (taken to try a control action) keeps the same rules and lexicon."""

    def __init__(self, ruleset: RuleSet, lexicon: WordList) -> None:
        self.ruleset = ruleset
        self.lexicon = lexicon
        self.layout = ruleset.layout
        self.size = (ruleset.layout.height, ruleset.layout.width)

    def __deepcopy__(self, memo: dict[int, Any]) -> TableRules:
        return self

    @property
    def scramble(self) -> bool:
        return hasattr(self.ruleset, "dice")

    def new_game(self, players: Sequence[str]) -> Game:
        if self.scramble:
            from game.scramble import ScrambleGame

            return ScrambleGame(self.ruleset, list(players), lexicon=self.lexicon)
        return Game(self.ruleset, list(players), lexicon=self.lexicon)

    def replay(self, data: Mapping[str, Any]) -> Game:
        if self.scramble:
            from game.scramble import ScrambleGame

            return ScrambleGame.replay(self.ruleset, data, self.lexicon)
        return Game.replay(self.ruleset, data, self.lexicon)

    def missing(self, words: Iterable[str]) -> list[str]:
        """The words the lexicon does not have."""
        return [w for w in words if w not in self.lexicon]

    def has_letter(self, letter: str) -> bool:
        return self.ruleset.tiles.has_letter(letter)

    def premium_rows(self) -> list[str]:
        """Premiums in the snapshot's letters: `.`, `d`, `t`, `D`, `T` (the start square shows as `D`)."""
        return ["".join("D" if ch == "*" else ch for ch in row) for row in self.layout.rows]


def check_letter(rules: TableRules, letter: object, where: str) -> str:
    """A letter a person typed for a square: one letter of this tile set, returned uppercase."""
    if not isinstance(letter, str) or len(letter.strip()) != 1 or not letter.strip().isalpha():
        raise DataError(f"{where}: give one letter, not {letter!r}")
    up = letter.strip().upper()
    if not rules.has_letter(up):
        raise DataError(f"{where}: this tile set has no letter {up}")
    return up


class EveryWord:
    """A lexicon that has every word: for a simulated table run without a word list (every challenge
    then fails). Never used at a real table: the configuration names a lexicon there."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str)


def table_rules(setup: TableSetup, lexicon: WordList) -> TableRules:
    """The rules of a table set up as `setup`, judging words with `lexicon`."""
    return TableRules(rules_for(setup.kind, setup.edition, len(setup.players), setup.challenge,
                                setup.scramble_target, end_racks=setup.end_racks,
                                challenge_bonus_per_word=setup.challenge_bonus_per_word,
                                overtime_loss_minutes=setup.overtime_limit_minutes if setup.clock_mode == "tournament"
                                and setup.on_max_overtime == "lose" else None,
                                dice=DiceSet.from_json(setup.dice_set, f"the game's dice ({setup.dice or 'journaled'})")
                                if setup.dice_set else None), lexicon)
