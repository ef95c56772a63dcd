"""Scoring a checked play [ONYX][PC][DE].

Every word formed or modified scores: letter values, letter premiums only under new tiles,
then the word premiums under new tiles multiplied together (x4, x9), blanks worth 0 but still
getting word premiums. One-letter "words" are not words. The bingo bonus (all `bingo_tiles`
tiles in one turn) is added after the total and never multiplied. All from the rule set.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.layout import Layout
from game.play import Placement, Play
from game.rules import RuleSet
from game.squares import Direction
from game.tiles import TileSet
from game.validation import CheckedPlay, Word


@dataclass(frozen=True, slots=True)
class ScoredWord:
    word: Word
    score: int

    def __str__(self) -> str:
        return f"{self.word.text} {self.score}"


@dataclass(frozen=True, slots=True)
class ScoredPlay:
    """A legal placement with its words, their scores, the bingo bonus and the total."""

    checked: CheckedPlay
    words: tuple[ScoredWord, ...]
    bingo_bonus: int
    score: int

    @property
    def placements(self) -> tuple[Placement, ...]:
        return self.checked.placements

    @property
    def direction(self) -> Direction:
        return self.checked.direction

    @property
    def is_bingo(self) -> bool:
        return self.bingo_bonus > 0

    def play(self) -> Play:
        return self.checked.play()

    def __str__(self) -> str:
        return f"{self.play()} +{self.score}"


def score_word(word: Word, layout: Layout, tiles: TileSet) -> int:
    """One word's score: premiums only where the word has new tiles."""
    lm = layout.letter_mult
    wm = layout.word_mult
    values = tiles.values
    total = 0
    mult = 1
    for idx, tile, fresh in zip(word.indices, word.tiles, word.new, strict=True):
        v = 0 if tile.blank else values[tile.letter]
        if fresh:
            total += v * lm[idx]
            mult *= wm[idx]
        else:
            total += v
    return total * mult


def score(checked: CheckedPlay, rules: RuleSet) -> ScoredPlay:
    """Score every word of a checked play and add the bingo bonus."""
    words = tuple(ScoredWord(w, score_word(w, rules.layout, rules.tiles)) for w in checked.words)
    bonus = rules.bingo_bonus if len(checked.placements) >= rules.bingo_tiles else 0
    return ScoredPlay(checked, words, bonus, sum(w.score for w in words) + bonus)
