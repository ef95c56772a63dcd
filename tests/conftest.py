"""Shared test fixtures: where ../shared lives, and skipping cleanly when it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only data folder beside the project; tests that need it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    return SHARED
