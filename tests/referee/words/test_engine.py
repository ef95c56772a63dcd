"""Every error of the rules engine has an English and a German text, made from its code and fields.

The error classes are discovered (every module of `game`), not listed: a new class or a new reason
without a text fails here, and so does a raise site that names other fields than its class declares.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import game
from game.errors import NotInBagError, RefereeError
from game.game import Game, first_player
from game.play import Play, placements_from_str
from game.rules import classic_english, german
from game.scramble import ScrambleGame, scramble_rules
from game.scramble.dice import Face
from game.squares import Position, Square
from game.tiles import Tile, load_tile_set, rack_counter
from game.timers import Countdown, TurnTimer, TurnTimerConfig
from referee.words import LANGUAGES, say, template_fields
from referee.words.engine import DERIVED, TEXTS

GAME_DIR = Path(game.__file__).parent


def _game_error_classes() -> list[type[RefereeError]]:
    for info in pkgutil.iter_modules([str(GAME_DIR)]):
        importlib.import_module(f"game.{info.name}")

    def walk(cls: type[RefereeError]) -> Iterator[type[RefereeError]]:
        for sub in cls.__subclasses__():
            if sub.__module__.startswith("game."):
                yield sub
            yield from walk(sub)

    return sorted(set(walk(RefereeError)) | {RefereeError}, key=lambda c: c.__name__)


ERROR_CLASSES = _game_error_classes()


def test_discovery_finds_the_engine_errors() -> None:
    names = {c.__name__ for c in ERROR_CLASSES}
    assert {"GapError", "RollError", "ClockError", "LexiconError", "GCGError"} <= names
    assert len(ERROR_CLASSES) >= 30


def test_every_class_has_its_own_stable_snake_case_code() -> None:
    codes: dict[str, str] = {}
    for cls in ERROR_CLASSES:
        assert "code" in vars(cls), f"{cls.__name__} has no code of its own"
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", cls.code), f"{cls.__name__}.code {cls.code!r} is not snake_case"
        assert cls.code not in codes, f"{cls.__name__} and {codes[cls.code]} share the code {cls.code!r}"
        codes[cls.code] = cls.__name__


@pytest.mark.parametrize("cls", [c for c in ERROR_CLASSES if c is not RefereeError], ids=lambda c: c.__name__)
def test_every_reason_has_an_english_and_a_german_text_naming_only_carried_fields(cls: type[RefereeError]) -> None:
    for reason, names in cls.forms.items():
        key = f"{cls.code}.{reason}" if reason else cls.code
        if key not in TEXTS:
            # a base class that is never raised on its own declares the empty form only
            assert reason == "" and not names and not _raised(cls), f"no text for {key} ({cls.__name__})"
            continue
        derived = set(DERIVED[key][0]) if key in DERIVED else set()
        for lang in LANGUAGES:
            assert TEXTS[key].get(lang), f"{key}: no {lang} text"
            unknown = template_fields(TEXTS[key][lang]) - set(names) - derived
            assert not unknown, f"{key} ({lang}) names {sorted(unknown)}, which {cls.__name__} does not carry"


def test_no_text_is_left_for_a_reason_no_class_declares() -> None:
    declared = {f"{c.code}.{r}" if r else c.code for c in ERROR_CLASSES for r in c.forms}
    assert set(TEXTS) - declared == set()


def _raise_sites() -> Iterator[tuple[str, int, str, list[str], set[str]]]:
    """(file, line, class name, the reasons it may give, the field names it passes) of each raise in game/ (its
    subpackages too: game/scramble/)."""
    for path in sorted(GAME_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and isinstance(node.exc.func, ast.Name)):
                continue
            reasons = [""]
            names: set[str] = set()
            for kw in node.exc.keywords:
                if kw.arg == "form":
                    reasons = [c.value for c in ast.walk(kw.value)
                               if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                elif kw.arg is not None:
                    names.add(kw.arg)
                else:
                    names.add("**")
            yield str(path.relative_to(GAME_DIR)), node.lineno, node.exc.func.id, reasons, names


def _raised(cls: type[RefereeError]) -> bool:
    return any(name == cls.__name__ for _, _, name, _, _ in _raise_sites())


def test_every_raise_site_gives_a_declared_reason_and_exactly_its_fields() -> None:
    by_name = {c.__name__: c for c in ERROR_CLASSES}
    checked = 0
    for file, line, name, reasons, names in _raise_sites():
        cls = by_name.get(name)
        if cls is None:
            continue
        for reason in reasons:
            assert reason in cls.forms, f"game/{file}:{line}: {name} has no reason {reason!r}"
            assert names == set(cls.forms[reason]), (
                f"game/{file}:{line}: {name}({reason!r}) passes {sorted(names)}, declares {cls.forms[reason]}")
        checked += 1
    assert checked > 100


def _sample_errors() -> Iterator[RefereeError]:
    """Real errors, raised by the engine through its public API."""
    en = classic_english()
    triggers: list[Callable[[], object]] = [
        lambda: Square.from_str("Z99x"),
        lambda: Square.from_str("H0"),
        lambda: Position.from_str("8"),
        lambda: Tile.from_str("ß"),
        lambda: Tile.from_str("12"),
        lambda: rack_counter("AB1"),
        lambda: Play.from_str("8D"),
        lambda: load_tile_set("klingon"),
        lambda: first_player(["AB"]),
        lambda: Face("q", 3),
        lambda: Face.from_str("Q"),
        lambda: Countdown(float("inf"), lambda: 0.0),
        lambda: TurnTimerConfig(seconds=0),
        lambda: TurnTimer(TurnTimerConfig.standard(), lambda: 0.0).pause(),
        lambda: Game(en, ["Anna"]),
        lambda: Game(en, ["Anna", "Ben"]).play("8D CAT", player=1),
        lambda: Game(en, ["Anna", "Ben"]).play("8A CAT"),
        lambda: Game(en, ["Anna", "Ben"]).play("8H C"),
        lambda: Game(en, ["Anna", "Ben"]).play("8D C.T"),
        lambda: Game(en, ["Anna", "Ben"]).play("8D (C"),
        lambda: Game(en, ["Anna", "Ben"]).play("8N CATS"),
        lambda: Game(en, ["Anna", "Ben"]).play("8H QQ"),
        lambda: Game(en, ["Anna", "Ben"]).play("8H C.T"),
        lambda: Game(en, ["Anna", "Ben"]).play("8D Q?"),
        lambda: Game(en, ["Anna", "Ben"]).challenge(1),
        lambda: Game(en, ["Anna", "Ben"]).exchange(0),
        lambda: Game(german(), ["Anna", "Ben"]).play("8H ÄH"),
        lambda: ScrambleGame(scramble_rules(), ["Anna", "Ben"]).exchange("AB"),
    ]
    for trigger in triggers:
        try:
            trigger()
        except RefereeError as err:
            yield err
    racked = Game(en, ["Anna", "Ben"])
    racked.set_rack(0, "CATSXYZ")
    for move in ("8H DOG", "8H CATTT", "8H QQ"):
        try:
            racked.play(move)
        except RefereeError as err:
            yield err
    played = Game(en, ["Anna", "Ben"])
    played.play("8H CAT")
    for move in ("8H DOG", "1A DOG", "I7 OX", "8K S", "8H QQQ"):
        try:
            played.play(move)
        except RefereeError as err:
            yield err
    for chars in ("J9=A K9=B", "J9=A J9=B", "H8=X", "I9=?"):
        try:
            played.play(placements_from_str(chars))
        except RefereeError as err:
            yield err


SAMPLES = list(_sample_errors())


def test_the_samples_cover_many_kinds() -> None:
    assert len({e.message_key for e in SAMPLES}) >= 20


@pytest.mark.parametrize("err", SAMPLES, ids=lambda e: e.message_key)
def test_english_renders_the_engine_text_word_for_word(err: RefereeError) -> None:
    assert err.message_key in TEXTS
    assert said(err, "en") == str(err)


@pytest.mark.parametrize("err", SAMPLES, ids=lambda e: e.message_key)
def test_german_is_rendered_from_the_fields(err: RefereeError) -> None:
    german_text = said(err, "de")
    assert german_text != str(err)
    for value in err.fields.values():
        if isinstance(value, str) and re.fullmatch(r"[A-O]\d{1,2}(, [A-O]\d{1,2})*", value):
            assert value in german_text  # the squares are named as the English names them


def test_unseen_tiles_in_german() -> None:
    game_ = Game(classic_english(), ["Anna", "Ben"])
    with pytest.raises(NotInBagError) as caught:
        game_.play("8D QQZZZ")
    assert said(caught.value, "en") == str(caught.value) == "8D QQZZZ: only 1 Q, only 1 Z left unseen"
    assert said(caught.value, "de") == "8D QQZZZ: nur noch 1 Q, nur noch 1 Z ungesehen"


def test_clock_states_are_words_in_german() -> None:
    timer = TurnTimer(TurnTimerConfig.standard(), lambda: 0.0)
    with pytest.raises(RefereeError) as caught:
        timer.resume()
    assert said(caught.value, "de") == "die Zugzeituhr kann nicht weiterlaufen: sie ist nicht gestartet, " \
                                               "nicht angehalten"


def test_an_error_from_outside_the_engine_keeps_its_own_message() -> None:
    class TableError(RefereeError):
        pass

    assert said(TableError("the table is busy"), "de") == "the table is busy"


def test_nested_engine_error_is_rendered_in_german_too() -> None:
    inner = SAMPLES[0]
    from game.errors import GameOverError

    try:
        try:
            raise inner
        except RefereeError as exc:
            raise GameOverError(f"cannot score the racks at the end: {exc}", form="end_racks",
                                detail=str(exc)) from exc
    except GameOverError as outer:
        assert said(outer, "en") == str(outer)
        assert said(outer, "de").endswith(said(inner, "de"))


def test_errors_pickle_and_copy_with_their_fields() -> None:
    import copy
    import pickle

    err = next(e for e in SAMPLES if e.fields)
    for clone in (pickle.loads(pickle.dumps(err)), copy.deepcopy(err)):
        assert str(clone) == str(err) and clone.message_key == err.message_key and clone.fields == err.fields


def said(err: BaseException, lang: str) -> str:
    """An engine error as the table says it: a field of another phrase (the `engine` refusal is its own words)."""
    return say("refusals", "engine", lang, error=err)
