"""Game records: a table's game as standard GCG, written by the engine's GCG writer."""

from __future__ import annotations

from referee.table_machine import TableMachine


def game_gcg(machine: TableMachine) -> str:
    """The score sheet so far as GCG text (UTF-8), with the table, lexicon rules and variant as pragmas."""
    from game.gcg import write_gcg

    setup = machine.setup
    pragmas = {"title": f"{setup.table}", "tile-distribution": setup.edition}
    if setup.scramble:
        pragmas["variant"] = setup.kind
    pragmas["note"] = f"refereed by the table referee; challenge rule {setup.challenge}"
    return write_gcg(list(setup.players), list(machine.game.events), pragmas)
