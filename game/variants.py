"""The variant registry: a name (a GCG `#variant` value, a `--tiles` choice) -> a rule set.

Records and the command line name a game by variant; the engine needs a `RuleSet` and,
for variants with their own turn mechanics, a `Game` subclass. Variants register here
instead of being `if variant == ...` branches:

    register_variant("scramble", scramble_rules, game_class=ScrambleGame)

A module of `game` that defines variants registers them when it is imported. The modules
listed in `VARIANT_MODULES` are imported on the first lookup, when they exist, so a variant
module plugs in by adding its name there (one line) or by being imported before the lookup.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.errors import UnknownVariantError
from game.rules import RuleSet, classic_english, german, naspa, polish

if TYPE_CHECKING:
    from game.game import Game

# Modules imported (when present) before the first lookup; each registers its variants.
VARIANT_MODULES: tuple[str, ...] = ("game.scramble",)


@dataclass(frozen=True)
class Variant:
    """A registered variant: how to build its rules, and which game class plays it (None: `Game`)."""

    name: str
    rules: Callable[[], RuleSet]
    game_class: type[Game] | None = None
    description: str = ""


_REGISTRY: dict[str, Variant] = {}
_loaded = False


def register_variant(
    name: str, rules: Callable[[], RuleSet], game_class: type[Game] | None = None, description: str = ""
) -> None:
    """Make `name` (case-insensitive) resolve to these rules; registering a name again replaces it."""
    _REGISTRY[name.lower()] = Variant(name.lower(), rules, game_class, description)


def _load_modules() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in VARIANT_MODULES:
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)


def get_variant(name: str) -> Variant:
    """The variant registered under `name`; UnknownVariantError lists the known ones."""
    _load_modules()
    try:
        return _REGISTRY[name.strip().lower()]
    except KeyError:
        raise UnknownVariantError(f"unknown variant {name!r} (known: {', '.join(variant_names())})", name=name,
                                  known=", ".join(variant_names())) from None


def variant_names() -> list[str]:
    _load_modules()
    return sorted(_REGISTRY)


register_variant("english", classic_english, description="English edition, rules of the Hasbro manuals [ONYX][PC]")
register_variant("classic", naspa, description="the standard game as Woogles/NASPA play it (GCG `#variant classic`)")
register_variant("naspa", naspa, description="North American tournament rules [NASPA]")
register_variant("german", german, description="German edition [DE]")
register_variant("polish", polish, description="Polish tiles, tournament rules")
