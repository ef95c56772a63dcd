"""A word list that is not one: compressed lists are read, binary files and junk are refused by name."""

from __future__ import annotations

import bz2
import gzip
import lzma
from pathlib import Path

import pytest

from game.errors import LexiconError
from game.lexicon import Lexicon

WORDS = b"cat\ncats\nquiz\nza\n"


@pytest.mark.parametrize("pack", [gzip.compress, bz2.compress, lzma.compress], ids=["gzip", "bz2", "xz"])
def test_compressed_lists_are_read(pack: object) -> None:
    lexicon, report = Lexicon.from_word_list(pack(WORDS), "small")  # type: ignore[operator]
    assert "QUIZ" in lexicon and len(lexicon) == 4
    assert report.encoding.endswith("utf-8") and report.encoding != "utf-8"  # says it was unpacked


def test_gzipped_enable_loads_whole(shared_dir: Path) -> None:
    """Before: 276 "words" from 94% rejected lines, and no QUIZ."""
    data = gzip.compress((shared_dir / "lexicons" / "enable2k.txt").read_bytes())
    lexicon, report = Lexicon.from_word_list(data, "enable.gz", min_words=1000, max_rejected_share=0.5)
    assert len(lexicon) > 170_000
    assert "QUIZ" in lexicon and report.rejected == 0


def test_a_damaged_compressed_list_is_refused() -> None:
    with pytest.raises(LexiconError, match=r"words\.gz: a damaged gzip file"):
        Lexicon.from_word_list(gzip.compress(WORDS * 100)[:40], "words.gz")


@pytest.mark.parametrize(("head", "what"), [
    (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"PK\x03\x04", "a ZIP archive"), (b"%PDF-1.7", "a PDF document"),
    (b"REFEREE-LEXICON 1 enable\nCAT", "a lexicon this program already compiled"),
    (b"\x00\x01\x02abc", "a binary file"),
])
def test_binary_files_are_named_not_read(head: bytes, what: str) -> None:
    with pytest.raises(LexiconError, match=f"list\\.bin: {what}"):
        Lexicon.from_word_list(head + b"\nword\n" * 50, "list.bin")


def test_a_list_of_mostly_junk_is_refused_with_its_figures() -> None:
    data = b"cat\nquiz\n" + b"1234 5678\n" * 98
    with pytest.raises(LexiconError) as caught:
        Lexicon.from_word_list(data, "junk.txt", max_rejected_share=0.5)
    assert str(caught.value).startswith("junk.txt: 98 of 100 lines (98%) are not words")


def test_too_few_words_are_refused_when_asked() -> None:
    with pytest.raises(LexiconError, match=r"tiny\.txt: only 4 words, a lexicon has at least 1000"):
        Lexicon.from_word_list(WORDS, "tiny.txt", min_words=1000)
    assert len(Lexicon.from_word_list(WORDS, "tiny.txt")[0]) == 4  # the default takes a test's small list


def test_utf16_lists_with_a_bom_are_read() -> None:
    lexicon, report = Lexicon.from_word_list("straße\närger\n".encode("utf-16"), "de.txt")
    assert "STRASSE" in lexicon and "ÄRGER" in lexicon and report.encoding == "utf-16"
