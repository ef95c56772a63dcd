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


MAX_UNPACKED = 256 * 1024 * 1024  # a word list unpacks to a few MB; past this it is not one (or a bomb)

# How compressed files start, and the standard library's module that opens each.
_PACKED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "xz"))

# How files that are no word list start: said by name, so a user knows what they gave.
_NOT_WORD_LISTS = (
    (b"PK\x03\x04", "zip", "a ZIP archive: unpack it and give the word list inside"),
    (b"%PDF", "pdf", "a PDF document, not a plain word list"),
    (b"\x89PNG", "png", "a PNG image, not a word list"),
    (b"\xff\xd8\xff", "jpeg", "a JPEG image, not a word list"),
    (b"\x7fELF", "elf", "a program (ELF), not a word list"),
    (b"SQLite format 3\x00", "sqlite", "an SQLite database, not a word list"),
    (b"7z\xbc\xaf\x27\x1c", "7z", "a 7-Zip archive: unpack it and give the word list inside"),
    (b"Rar!", "rar", "a RAR archive: unpack it and give the word list inside"),
    (COMPILED_MAGIC.encode(), "compiled",
     "a lexicon this program already compiled: install the word list it was made from"),
)


def unpack_word_list(data: bytes, name: str = "word list") -> tuple[bytes, str]:
    """The bytes of a word list and how it was packed ("" plain, "gzip", "bz2", "xz").

    Compressed lists are unpacked in memory (the standard library's own modules, no I/O here); other
    binary files are refused naming what they are, never read as words."""
    for magic, kind in _PACKED:
        if data.startswith(magic):
            return _decompress(data, kind, name), kind
    for magic, kind, what in _NOT_WORD_LISTS:
        if data.startswith(magic):
            raise LexiconError(f"{name}: {what}", form="not_a_list", name=name, kind=kind, what=what)
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LexiconError(f"{name}: a binary file, not a plain word list", form="binary", name=name)
    return data, ""


def _decompress(data: bytes, kind: str, name: str) -> bytes:
    import bz2
    import lzma
    import zlib

    unpacker: bz2.BZ2Decompressor | lzma.LZMADecompressor | zlib._Decompress
    if kind == "gzip":
        unpacker = zlib.decompressobj(wbits=31)
    elif kind == "bz2":
        unpacker = bz2.BZ2Decompressor()
    else:
        unpacker = lzma.LZMADecompressor()
    try:
        out = unpacker.decompress(data, MAX_UNPACKED + 1)
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
        raise LexiconError(f"{name}: a damaged {kind} file ({exc})", form="damaged", name=name, kind=kind,
                           detail=str(exc)) from exc
    if len(out) > MAX_UNPACKED:
        raise LexiconError(f"{name}: unpacks to more than {MAX_UNPACKED // 2**20} MB: not a word list",
                           form="too_big", name=name, limit=MAX_UNPACKED // 2**20)
    if not unpacker.eof:
        raise LexiconError(f"{name}: a damaged {kind} file (it ends early)", form="damaged", name=name, kind=kind,
                           detail="it ends early")
    return out


def decode_word_list(data: bytes) -> tuple[str, str]:
    """UTF-8 (BOM allowed) when the bytes are valid UTF-8, UTF-16 with its BOM, else Latin-1."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            pass
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("iso-8859-1"), "iso-8859-1"


def check_plausible(report: LoadReport, name: str, min_words: int, max_rejected_share: float) -> None:
    """Refuse a list with fewer than `min_words` words, or whose rejected lines are more than
    `max_rejected_share` of its lines with content: the message names the file and the figures."""
    content = report.words + report.duplicates + report.rejected
    share = report.rejected / content if content else 0.0
    if share > max_rejected_share:
        raise LexiconError(
            f"{name}: {report.rejected} of {content} lines ({share:.0%}) are not words; this does not look like "
            f"a word list ({report.summary()})",
            form="rejects", name=name, rejected=report.rejected, content=content, share=share,
            summary=report.summary())
    if report.words < min_words:
        raise LexiconError(
            f"{name}: only {report.words} words, a lexicon has at least {min_words} ({report.summary()})",
            form="too_few", name=name, words=report.words, min_words=min_words, summary=report.summary())


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
        cls, data: bytes, name: str = "", alphabet: Iterable[str] | None = None, *, min_words: int = 1,
        max_rejected_share: float = 1.0,
    ) -> tuple[Lexicon, LoadReport]:
        """Read a word list, plain or compressed (gzip, bz2, xz). `alphabet` (the tile letters) rejects words no
        tiles can spell.

        `min_words` and `max_rejected_share` refuse a file that is not really a word list (a binary file
        read as text loads a few hundred junk "words" and then judges every challenge wrongly); the
        defaults accept anything with a word, as a test's three-word list. `referee lexicon install` sets
        them (see `check_plausible`)."""
        data, packed = unpack_word_list(data, name or "word list")
        text, encoding = decode_word_list(data)
        letters = frozenset(alphabet) if alphabet is not None else None
        report = LoadReport(encoding=f"{packed}, {encoding}" if packed else encoding)
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
        check_plausible(report, name or "word list", min_words, max_rejected_share)
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
