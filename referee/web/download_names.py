"""File names for the page's downloads, from the table's name, as RFC 6266 `Content-Disposition` headers.

A German club names its tables "Tisch 3 Nürnberg": the file must arrive as `Tisch-3-Nürnberg.gcg` where the
browser reads RFC 6266's `filename*` (UTF-8, percent-encoded), and as `Tisch-3-Nuernberg.gcg` where it
reads only the plain `filename` (ASCII): umlauts are written out as German does when it has no umlauts
(ä -> ae, ß -> ss), other accents are dropped (é -> e), never turned into a dash in the middle of a word.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

# How German writes its letters without umlauts; other accented letters lose their accent (NFKD).
_SPELLED_OUT = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "ẞ": "SS",
                "æ": "ae", "Æ": "Ae", "ø": "oe", "Ø": "Oe", "œ": "oe", "Œ": "Oe", "ł": "l", "Ł": "L", "đ": "d",
                "Đ": "D", "þ": "th", "Þ": "Th"}


def _tidy(name: str, keep: re.Pattern[str]) -> str:
    """Runs of characters a file name should not hold (spaces, slashes, quotes, controls) become one dash."""
    return keep.sub("-", name).strip("-.")


_NOT_UNICODE_NAME = re.compile(r"[^\w.-]+|_+(?=-)|(?<=-)_+")
_NOT_ASCII_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def unicode_name(name: str) -> str:
    """The name with its letters as they are (Nürnberg), everything else between words a dash."""
    return _tidy(unicodedata.normalize("NFC", name), _NOT_UNICODE_NAME)


def ascii_name(name: str) -> str:
    """The name in ASCII: umlauts spelled out (Nuernberg), other accents dropped, the rest a dash."""
    spelled = "".join(_SPELLED_OUT.get(ch, ch) for ch in unicodedata.normalize("NFC", name))
    stripped = "".join(ch for ch in unicodedata.normalize("NFKD", spelled) if not unicodedata.combining(ch))
    return _tidy(stripped, _NOT_ASCII_NAME)


def attachment(name: str, suffix: str, fallback: str = "game") -> str:
    """A `Content-Disposition: attachment` value naming the file `name` + `suffix` (RFC 6266, RFC 8187)."""
    plain = ascii_name(name) or fallback
    full = unicode_name(name) or plain
    header = f'attachment; filename="{plain}{suffix}"'
    if full != plain:
        header += f"; filename*=UTF-8''{quote(full + suffix, safe='')}"
    return header
