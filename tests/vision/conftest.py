"""Fixtures of the camera tests: the shipped classifiers, built once per session without touching ~/.cache."""

from __future__ import annotations

import pytest

from vision.classifier import TileClassifier
from vision.shipped import build_shipped


@pytest.fixture(scope="session")
def german_model() -> TileClassifier:
    return build_shipped("german")


@pytest.fixture(scope="session")
def english_model() -> TileClassifier:
    return build_shipped("english")
