"""Shared test fixtures: where ../shared lives, and skipping cleanly when it does not; the one browser."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from .patience import FACTOR

# On an emulated machine (REFEREE_TEST_PATIENCE above 1, `make pi-check`) drawing the examples is as slow
# as everything else: that is the machine, not a strategy that draws too much, so Hypothesis is told so.
settings.register_profile("patient", suppress_health_check=[HealthCheck.too_slow], deadline=None)
if FACTOR > 1:
    settings.load_profile("patient")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
# Debian's Chromium; REFEREE_CHROMIUM names another build (or a missing path, to check the clean skip).
CHROMIUM = os.environ.get("REFEREE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only data folder beside the project; tests that need it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    return SHARED


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright, one for the whole run; the browser tests skip cleanly
    without it. One only: Playwright's sync API keeps an event loop on the main thread while it is open, so a
    second one (another folder's fixture) could not start."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"chromium is not installed ({CHROMIUM})")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()
