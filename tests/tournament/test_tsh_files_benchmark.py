"""`benchmarks/tsh_files.py DIR...`: the reader against tsh files checked by a second, independent reading.

Real files cannot be kept in the project (licence), so the command is run here on the hand-written fixtures,
with a broken file beside them, and with no folder at all.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"


def run(*folders: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "tsh_files.py"), *map(str, folders)],
                          capture_output=True, text=True, timeout=120, check=False)


def figures(stdout: str) -> dict[str, int]:
    out = {}
    for line in stdout.splitlines():
        name, _, value = line.partition(": ")
        out[name] = int(value.split()[0])
    return out


def test_without_a_folder_it_says_so_and_succeeds() -> None:
    done = run()
    assert done.returncode == 0, done.stderr
    assert done.stdout == "skipped: no folder given\n"


def test_the_fixtures_agree_with_the_independent_reading_and_a_broken_file_is_refused(tmp_path: Path) -> None:
    for name in ("tourney.js", "tourney-numbered.js"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    (tmp_path / "broken.js").write_text('newt={"divisions":[{"name":"A","players":[undefined,{"name":"X"', "utf-8")
    (tmp_path / "notes.txt").write_text("not a .js file, not read", "utf-8")
    done = run(tmp_path)
    assert done.returncode == 0, done.stderr
    got = figures(done.stdout)
    assert got["files read"] == 3 and got["files refused"] == 1
    assert "broken.js: refused: broken.js: not tsh's tourney.js" in done.stderr
    assert got["divisions"] == 5 and got["games paired"] > 0
    assert got["pairings agreeing with the independent check"] == got["games paired"]
    assert got["byes agreeing with the independent check"] == got["byes"] > 0
    assert got["inconsistencies in the files themselves"] == 0
    assert got["feed round-trips equal"] == 2
