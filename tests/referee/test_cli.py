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


def test_help_lists_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "usage: referee" in out
    assert "run" in out


def test_console_module_runs() -> None:
    proc = subprocess.run([sys.executable, "-m", "referee", "--version"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert __version__ in proc.stdout
