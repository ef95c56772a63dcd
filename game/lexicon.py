"""Lexicons: read any plain word list, normalise it, compile it once, answer membership fast.

A word list is one word per line, in UTF-8 or Latin-1, any case (NWL, CSW, ENABLE, a German
list). Blank lines are skipped; comment lines (`#`, `%`, `;`, `//`) and junk lines (digits,
punctuation, one letter, letters no tile has) are counted and reported with their line
numbers, never fatal: a user's file with a header must still load. Words are normalised the
way tiles spell them (uppercase; German ß -> SS). A line with extra columns (word, then a
definition or a count) contributes its first column.

The compiled form is the normalised words, sorted and unique, one per line, UTF-8, after a
one-line header: a Pi loads it with one read, one decode and one split, no per-line checks.
In memory a lexicon is a frozenset: membership is one hash lookup (ENABLE: about 175,000
words, well under the 40 MB the Pi can spare). This module does no I/O: callers hand it bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from game.errors import LexiconError
from game.tiles import normalise_word

COMPILED_MAGIC = "REFEREE-LEXICON 1"
_COMMENT_PREFIXES = ("#", "%", ";", "//")
MAX_REPORTED = 20  # rejected lines kept with their text; all are counted


@dataclass
class LoadReport:
    """What loading a word list found, for the user who supplied it."""

    encoding: str = "utf-8"
    lines: int = 0
    words: int = 0
    duplicates: int = 0
    comments: int = 0
    rejected: int = 0
    examples: list[tuple[int, str, str]] = field(default_factory=list)  # (line, text, why), the first few

    def summary(self) -> str:
        text = (f"{self.words} words from {self.lines} lines ({self.encoding}); "
                f"{self.duplicates} duplicates, {self.comments} comments, {self.rejected} lines rejected")
        return text


def decode_word_list(data: bytes) -> tuple[str, str]:
    """UTF-8 (BOM allowed) when the bytes are valid UTF-8, else Latin-1."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("iso-8859-1"), "iso-8859-1"


class Lexicon:
    """A set of normalised words. `word in lexicon` expects an uppercase word (what the board shows)."""

    __slots__ = ("_words", "name")

    def __init__(self, words: Iterable[str], name: str = "") -> None:
        self._words = frozenset(words)
        self.name = name

    def __contains__(self, word: object) -> bool:
        return word in self._words

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._words))

    def contains(self, word: str) -> bool:
        """Membership of a word written any way (`straße`, `Cat`)."""
        return normalise_word(word.strip()) in self._words

    def missing(self, words: Iterable[str]) -> tuple[str, ...]:
        """The words of a play that are not in the lexicon, normalised, in the order given."""
        return tuple(w for w in (normalise_word(x) for x in words) if w not in self._words)

    @classmethod
    def from_word_list(
        cls, data: bytes, name: str = "", alphabet: Iterable[str] | None = None
    ) -> tuple[Lexicon, LoadReport]:
        """Read a plain word list. `alphabet` (the tile letters) rejects words no tiles can spell."""
        text, encoding = decode_word_list(data)
        letters = frozenset(alphabet) if alphabet is not None else None
        report = LoadReport(encoding=encoding)
        words: set[str] = set()

        def reject(number: int, line: str, why: str) -> None:
            report.rejected += 1
            if len(report.examples) < MAX_REPORTED:
                report.examples.append((number, line[:60], why))

        for number, raw in enumerate(text.splitlines(), start=1):
            report.lines += 1
            line = raw.strip()
            if not line:
                continue
            if line.startswith(_COMMENT_PREFIXES):
                report.comments += 1
                continue
            token = line.split()[0]
            word = normalise_word(token)
            if not word.isalpha():
                reject(number, line, "not a word: only letters are allowed")
                continue
            if len(word) < 2:
                reject(number, line, "one letter is not a word")
                continue
            if letters is not None:
                bad = sorted(set(word) - letters)
                if bad:
                    reject(number, line, f"no tile for {''.join(bad)}")
                    continue
            if word in words:
                report.duplicates += 1
                continue
            words.add(word)
        if not words:
            raise LexiconError(f"{name or 'word list'}: no words found ({report.summary()})", form="no_words",
                               name=name or "word list", words=report.words, lines=report.lines,
                               encoding=report.encoding, duplicates=report.duplicates, comments=report.comments,
                               rejected=report.rejected)
        report.words = len(words)
        return cls(words, name), report

    def to_compiled(self) -> bytes:
        """The compact form to store: header, then the sorted words, one per line."""
        header = f"{COMPILED_MAGIC} {self.name}".rstrip()
        return (header + "\n" + "\n".join(sorted(self._words))).encode("utf-8")

    @classmethod
    def from_compiled(cls, data: bytes) -> Lexicon:
        """Load what `to_compiled` wrote (no checks per word: it was checked when compiled)."""
        header, _, body = data.partition(b"\n")
        if not header.startswith(COMPILED_MAGIC.encode()):
            raise LexiconError("not a compiled lexicon (recompile it with `referee lexicon install`)",
                               form="not_compiled")
        name = header[len(COMPILED_MAGIC):].decode("utf-8", "replace").strip()
        if not body:
            raise LexiconError(f"compiled lexicon {name!r} is empty", form="compiled_empty", name=name)
        return cls(body.decode("utf-8").split("\n"), name)
