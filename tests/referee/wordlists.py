"""Word list files for table configurations in tests.

A table refuses a word list below the install's minimum (`referee.lexicon_store.MIN_WORDS`, issue 26): a
five-word file named in `game.lexicon` is a wrong file, not a lexicon. Tests whose subject is something else
(a port, a host, a camera) still want a small list whose words they know: these are those words, padded to
the minimum with words no test plays (`ZQ` and three letters: no tile rack spells them in these tests)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from pathlib import Path
from string import ascii_uppercase

from referee.lexicon_store import MIN_WORDS


def padded_words(words: Iterable[str] = ("QUIZ",)) -> list[str]:
    """`words`, then filler up to the minimum a table accepts."""
    out = list(words)
    filler = ("ZQ" + "".join(t) for t in product(ascii_uppercase, repeat=3))
    out.extend(next(filler) for _ in range(max(0, MIN_WORDS - len(out))))
    return out


def write_word_list(path: Path, words: Iterable[str] = ("QUIZ",)) -> Path:
    """A word list file at `path` holding `words` (and the filler): a lexicon a table loads."""
    path.write_text("".join(f"{w}\n" for w in padded_words(words)), encoding="utf-8")
    return path
