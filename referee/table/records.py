"""Game records: a table's game as standard GCG, written by the engine's GCG writer."""

from __future__ import annotations

import contextlib

from referee.journal import Journal
from referee.table.api import ControlError
from referee.table.machine import TableMachine
from referee.table.setup import TableSetup


def game_gcg(machine: TableMachine) -> str:
    """The score sheet so far as GCG text (UTF-8), with the table, lexicon rules and variant as pragmas."""
    from game.gcg import write_gcg

    setup = machine.setup
    pragmas = {"title": f"{setup.table}", "tile-distribution": setup.edition}
    if setup.scramble:
        pragmas["variant"] = setup.kind
    if setup.lexicon:
        pragmas["lexicon"] = setup.lexicon.rsplit("/", 1)[-1].removesuffix(".txt")
    pragmas["note"] = f"refereed by the table referee; challenge rule {setup.challenge}"
    return write_gcg(list(setup.players), list(machine.game.events), pragmas)


def export_gcg(journal: Journal, game_id: int, lexicon: object | None = None) -> str:
    """Replay game `game_id` from the journal and write it as GCG.

    Challenges are journaled with their verdicts, so the replay needs a lexicon only for the "void" and
    "auto" rules (the lexicon judges every play at commit): then the table's own lexicon is loaded from
    the spec journaled with the game, or given here."""
    return game_gcg(replay_game(journal, game_id, lexicon))


def replay_game(journal: Journal, game_id: int, lexicon: object | None = None) -> TableMachine:
    """The table machine of game `game_id`, rebuilt from the journal (see `export_gcg` on the lexicon)."""
    from referee.table.rules import EveryWord, table_rules

    row = journal.game(game_id)
    setup = TableSetup.from_dict(row.setup)
    if lexicon is None:
        lexicon = EveryWord()
        if setup.challenge in ("void", "auto"):
            lexicon = _load_lexicon(setup.lexicon)
    machine = TableMachine(setup, table_rules(setup, lexicon))  # type: ignore[arg-type]
    for ev in journal.events(game_id):
        with contextlib.suppress(ControlError):
            machine.apply(ev)
    return machine


def _load_lexicon(spec: str) -> object:
    from pathlib import Path

    from game.errors import LexiconError
    from game.lexicon import Lexicon
    from referee import lexicon_store

    if not spec:
        raise LexiconError("this game judged every play with its lexicon (void or auto challenge) and the journal "
                           "names none: give the lexicon to replay it")
    path = Path(spec)
    if path.is_file():
        return Lexicon.from_word_list(path.read_bytes(), name=path.stem)[0]
    return lexicon_store.load_installed(spec)
