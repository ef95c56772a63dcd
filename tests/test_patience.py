"""REFEREE_TEST_PATIENCE: the factor `make pi-check` stretches the tests' safety nets by under qemu."""

from __future__ import annotations

import pytest

from .patience import _factor


def test_unset_or_empty_is_a_pc() -> None:
    assert _factor(None) == 1.0
    assert _factor("  ") == 1.0


def test_a_factor_is_taken_as_given() -> None:
    assert _factor("15") == 15.0
    assert _factor("2.5") == 2.5


@pytest.mark.parametrize("text", ["fast", "0.5", "0", "-3", "1e6", "nan"])
def test_a_wrong_factor_is_refused_naming_the_variable(text: str) -> None:
    with pytest.raises(ValueError, match=r"REFEREE_TEST_PATIENCE="):
        _factor(text)
