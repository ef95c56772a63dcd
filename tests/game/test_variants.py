from __future__ import annotations

import pytest

from game import variants
from game.errors import UnknownVariantError
from game.rules import RuleSet, classic_english
from game.variants import get_variant, register_variant, variant_names


def test_builtin_variants() -> None:
    assert {"english", "classic", "naspa", "german", "polish"} <= set(variant_names())
    assert get_variant("German").rules().tiles.name == "german"
    assert get_variant(" CLASSIC ").rules().end_racks.value == "double"


def test_unknown_variant_lists_the_known() -> None:
    with pytest.raises(UnknownVariantError, match=r"unknown variant 'chess' \(known: .*english"):
        get_variant("chess")


def test_register_a_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(variants, "_REGISTRY", dict(variants._REGISTRY))  # leave the registry as it was

    def mini() -> RuleSet:
        return classic_english().with_options(name="mini-test", bingo_bonus=20)

    register_variant("Mini-Test", mini, description="for this test")
    variant = get_variant("mini-test")
    assert variant.rules().bingo_bonus == 20 and variant.game_class is None
