""""Scrambled": which dice leave the mat after a scored play, defined on squares and words.

The manual: once the word is scored, the player removes the letters that were on the mat at the
start of the turn, minus any letter used to form *the new word*, and returns them to the cup, "so
there is never more than one word on the mat at the start of a turn"; and if the player extends
the current word without forming a second word, every die goes back and the next player starts a
new word on the centre square.

The manual leaves open what "the new word" is when a play forms several words, and what happens
to old letters that only crossing words use. This module decides (docs/rules-scramble.md):

1. *The new word* is the play's main word: the word along the line of the dice placed, which
   holds every die placed (for one die, the only word of two or more letters it forms). It stays.
2. Several new words: the crossing words score, but only the main word stays on the mat. Old
   letters that only a crossing word uses are removed. Example: CAT on E5-G5, the player lays ON
   on F4-G4 (words ON, OA, NT): A and T are in words of this play, yet only ON stays. Keeping
   them would leave ON above AT, four words on the mat, against the manual's own guarantee.
   The manual's example agrees: WRAP on the mat, SIZES played down from the S of WRAPS scores
   WRAPS and SIZES, and SIZES is the word left.
3. A play keeps at most one old letter unless it extends the word: a main word across the old
   word's line meets it in one square; a main word along that line (it must touch the old word,
   which is one unbroken run) contains all of it. So "a play that keeps two old letters" is the
   extension case, or a parallel play whose crossing words use two old letters (case 2: both go).
4. Extension: the main word contains every old letter and the play forms no other word. Every die,
   old and new, goes back; the mat is empty and the next play must cover the start square.
5. First play of a round (empty mat): nothing to remove; the word stays.

The result is a mat with at most one word: the main word's squares are one unbroken line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from game.errors import EmptyPlayError
from game.squares import Square


@dataclass(frozen=True)
class Scramble:
    """The outcome of the rule: dice back to the cup, the squares left occupied, and whether the
    mat was cleared by an extension (the next word starts on the start square)."""

    removed: frozenset[Square]
    kept: frozenset[Square]
    cleared: bool

    def __str__(self) -> str:
        gone = " ".join(str(s) for s in sorted(self.removed, key=_gcg_order)) or "nothing"
        left = " ".join(str(s) for s in sorted(self.kept, key=_gcg_order)) or "empty mat"
        return f"remove {gone}; keep {left}" + ("; extension: new word on the start square" if self.cleared else "")


def _gcg_order(square: Square) -> tuple[int, int]:
    return (square.row, square.col)


def scramble(before: Iterable[Square], main: Iterable[Square], others: Iterable[Iterable[Square]] = ()) -> Scramble:
    """Apply the rule to a scored play.

    `before`: the occupied squares at the start of the turn (one word, or none).
    `main`: the squares of the play's main word (old letters it runs through included).
    `others`: the squares of every other word the play formed (its crossing words).
    """
    old = frozenset(before)
    word = frozenset(main)
    extra = [frozenset(w) for w in others]
    if not word:
        raise EmptyPlayError("a scored play has a main word; this one has none", form="no_main_word")
    if old and old <= word and not extra:
        # Rule 4: an extension forms no second word; everything goes back.
        return Scramble(removed=old | word, kept=frozenset(), cleared=True)
    # Rules 1-3 and 5: the main word stays, every other old letter goes.
    return Scramble(removed=old - word, kept=word, cleared=False)


def is_one_word(squares: Iterable[Square]) -> bool:
    """Whether occupied `squares` form at most one word: empty, or one unbroken run of two or more
    squares in one row or one column. The invariant at the start of every Scramble turn."""
    cells = sorted(set(squares), key=_gcg_order)
    if not cells:
        return True
    if len(cells) < 2:
        return False
    rows = {s.row for s in cells}
    cols = {s.col for s in cells}
    if len(rows) == 1:
        return max(cols) - min(cols) + 1 == len(cells)
    if len(cols) == 1:
        return max(rows) - min(rows) + 1 == len(cells)
    return False
