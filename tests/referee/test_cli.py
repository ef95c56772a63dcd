from __future__ import annotations

import subprocess
import sys

import pytest

from referee import __version__
from referee.cli import main


def test_version_prints_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"referee {__version__}"


def test_no_command_is_an_error_that_shows_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "usage: referee" in err
    assert "run" in err and "name a command" in err


def test_console_module_runs() -> None:
    proc = subprocess.run([sys.executable, "-m", "referee", "--version"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert __version__ in proc.stdout


def test_a_file_error_a_command_did_not_catch_is_a_message_not_a_traceback(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.commands import dice

    def boom(args: object) -> int:
        raise PermissionError(13, "Permission denied", "/etc/referee/table.toml")

    monkeypatch.setattr(dice, "handle_show", boom)
    assert main(["dice", "show"]) == 1
    assert capsys.readouterr().err == "referee dice: /etc/referee/table.toml: Permission denied\n"


@pytest.mark.parametrize(("argv", "usage"), [
    (["run", "--sim", "--bogus"], "usage: referee run "),
    (["lexicon", "list", "--bogus"], "usage: referee lexicon list "),
    (["gcg", "check", "x.gcg", "--bogus"], "usage: referee gcg check "),
])
def test_a_bad_option_of_a_subcommand_shows_that_subcommands_usage(argv: list[str], usage: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # argparse handed the unknown option to the top-level parser: "usage: referee [-h] [--version] COMMAND"
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage), err
    assert f"referee {' '.join(a for a in argv[:2] if not a.startswith('-'))}: error: unrecognized arguments: --bogus" \
        in err


@pytest.mark.parametrize(("argv", "prefix"), [
    (["gcg", "board", "/nonexistent/game.gcg"], "referee gcg board: /nonexistent/game.gcg: "),
    (["gcg", "check", "/nonexistent/game.gcg"], "referee gcg check: "),
    (["lexicon", "install", "/nonexistent/words.txt"], "referee lexicon install: /nonexistent/words.txt: "),
])
def test_errors_are_prefixed_with_the_command_not_a_bare_error(argv: list[str], prefix: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(prefix), err
    assert not err.startswith("error:")
