"""Game records: a table's game as standard GCG, written by the engine's GCG writer."""

from __future__ import annotations

from collections.abc import Callable

from game.game import WordList
from referee.journal import GameRow, Journal, JournalError
from referee.table.api import ControlError
from referee.table.machine import TableMachine
from referee.table.setup import SetupError, TableSetup


def game_gcg(machine: TableMachine) -> str:
    """The score sheet so far as GCG text (UTF-8), with the table, lexicon rules and variant as pragmas."""
    from game.gcg import write_gcg

    setup = machine.setup
    return write_gcg(list(setup.players), list(machine.game.events), gcg_pragmas(setup))


def gcg_pragmas(setup: TableSetup) -> dict[str, str]:
    """The pragmas of a table's game record, in the order written: the table's name as `#title`, the tiles,
    the variant (Scramble), the lexicon, and a note naming the challenge rule. Every one is a pragma Macondo's
    reader takes (docs/gcg.md). The director's record of the game writes the same ones (the director's sheet
    carries them: referee/director_sheets.py) and adds the event's."""
    pragmas = {"title": f"{setup.table}", "tile-distribution": setup.edition}
    if setup.scramble:
        pragmas["variant"] = setup.kind
    if setup.lexicon:
        pragmas["lexicon"] = setup.lexicon.rsplit("/", 1)[-1].removesuffix(".txt")
    pragmas["note"] = f"refereed by the table referee; challenge rule {setup.challenge}"
    return pragmas


def export_gcg(journal: Journal, game_id: int, lexicon: WordList | None = None) -> str:
    """Replay game `game_id` from the journal and write it as GCG.

    Challenges are journaled with their verdicts, so the replay needs a lexicon only for the "void" and
    "auto" rules (the lexicon judges every play at commit): then the table's own lexicon is loaded from
    the spec journaled with the game, or given here."""
    return game_gcg(replay_game(journal, game_id, lexicon))


def replay_game(journal: Journal, game_id: int, lexicon: WordList | None = None) -> TableMachine:
    """The table machine of game `game_id`, rebuilt from the journal (see `export_gcg` on the lexicon)."""
    from referee.table.rules import table_rules

    row = journal.game(game_id)
    setup = journaled_setup(journal, row)
    if lexicon is None:
        lexicon = journaled_lexicon(setup)
    machine = replay_events(journal, row, TableMachine(setup, table_rules(setup, lexicon)))[0]
    return machine


def journaled_lexicon(setup: TableSetup) -> WordList:
    """What a replay of a game set up as `setup` judges words with. Challenges are journaled with their verdicts,
    so it needs none (every word stands, `EveryWord`) but under the void and auto rules, where the lexicon judged
    every play at commit: then the lexicon the game journaled, opened as the table opened it
    (`lexicon_store.open_lexicon`). LexiconError when it names none or is not on this machine."""
    from game.errors import LexiconError
    from referee import lexicon_store
    from referee.table.rules import EveryWord

    if setup.challenge not in ("void", "auto"):
        return EveryWord()
    if not setup.lexicon:
        raise LexiconError("this game judged every play with its lexicon (void or auto challenge) and the journal "
                           "names none: give the lexicon to replay it")
    return lexicon_store.open_lexicon(setup.lexicon)


def journaled_setup(journal: Journal, row: GameRow) -> TableSetup:
    """The setup journaled with game `row`, checked as a configuration is (JournalError naming the game)."""
    try:
        return TableSetup.from_journal(row.setup)
    except SetupError as exc:
        raise JournalError(f"{journal.path}: game {row.id}: its setup is damaged: {exc}; call the director "
                           "(move the journal aside to start afresh)") from None


# What a journaled event whose data no table could have written raises inside the machine (a clock's player
# "zz", a board's cells that are a string): the event is damaged, and so is the replayed game.
_DAMAGE = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)


def replay_events(journal: Journal, row: GameRow, machine: TableMachine, *,
                  warn: Callable[[str], None] | None = None) -> tuple[TableMachine, int]:
    """Apply game `row`'s journaled events to `machine`; returns it and how many events were read.

    An event the table refuses now (a rule changed since) is skipped, and said to `warn`. An event that
    cannot be applied at all raises JournalError naming the game and the event: replaying past it would make
    some other game than the one played."""
    replayed = 0
    for seq, ev in journal.numbered_events(row.id):
        try:
            machine.apply(ev)
        except ControlError as exc:
            if warn is not None:
                warn(f"game {row.id}: journaled {ev.kind} event {seq} no longer applies: {exc}")
        except _DAMAGE as exc:
            detail = " ".join(str(exc).split())[:120]
            raise JournalError(f"{journal.path}: game {row.id}: event {seq} ({ev.kind}) cannot be replayed "
                               f"({type(exc).__name__}: {detail}); the journal is damaged: call the director "
                               "(move the journal aside to start afresh)") from None
        replayed += 1
    return machine, replayed

