"""`benchmarks/director.py --help` prints its usage and starts nothing (it used to run the whole benchmark:
a broker, 500 tables and Chromium) (issue 24 row 16)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_director_benchmark_prints_its_usage() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "director.py"), "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: benchmarks/director.py") and "DIRECTOR_BENCH_TABLES" in done.stdout


def test_the_venues_benchmark_prints_its_usage_and_starts_nothing() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "venues.py"), "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: venues.py") and "--venues" in done.stdout and "--down" in done.stdout
