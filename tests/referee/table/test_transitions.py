"""The table's transition table (referee/table/machine.py): complete, and the only dispatch there is."""

from __future__ import annotations

import pytest

from referee.sim.table import default_setup
from referee.table import controls
from referee.table.actions import MACHINE_ACTIONS
from referee.table.api import ControlError
from referee.table.machine import DIRECTOR, EVERY_STATE, REFUSALS, REPORTS, TRANSITIONS, TableMachine
from referee.table.rules import EveryWord, table_rules
from referee.table.state import Event, TableState
from tournament.payloads import COMMANDS

ACTIONS = {"start", "pause", "resume", "blank", "exchange", "pass", "challenge", "accept", "racks", "correct", "roll"}


def test_the_machines_actions_are_the_schemas() -> None:
    """The action schema (referee/table/actions.py) names what the page offers and checks; the machine takes
    exactly those, and its refusal of any other lists them in the schema's order."""
    assert set(MACHINE_ACTIONS) == set(REFUSALS) == ACTIONS
    setup = default_setup()
    with pytest.raises(ControlError) as caught:
        TableMachine(setup, table_rules(setup, EveryWord())).apply(Event("control", 0, {"action": "fly"}))
    assert str(caught.value) == f"unknown action 'fly'; the actions are {', '.join(MACHINE_ACTIONS)}"
    assert caught.value.text("de").endswith(f"die Aktionen sind {', '.join(MACHINE_ACTIONS)}")


def test_every_command_of_the_director_network_has_its_entry() -> None:
    """`DIRECTOR` names what each director's command does; `replay` is the table's link's own (it sends the
    journal again), and a command nobody names is refused."""
    assert set(DIRECTOR) == set(COMMANDS) - {"replay"}
    setup = default_setup()
    m = TableMachine(setup, table_rules(setup, EveryWord()))
    with pytest.raises(ControlError, match="unknown director command 'dance'"):
        m.apply(Event("director", 0, {"cmd": "dance", "args": {}}))
    with pytest.raises(ControlError, match="unknown director command '_on_tick'"):  # no method is reached by name
        m.apply(Event("director", 0, {"cmd": "_on_tick", "args": {}}))


def test_every_state_has_a_row_and_every_entry_is_an_event_the_table_knows() -> None:
    assert set(TRANSITIONS) == set(TableState)
    assert set(REFUSALS) == ACTIONS
    for state, row in TRANSITIONS.items():
        unknown = set(row) - ACTIONS - REPORTS
        assert not unknown, f"{state}: {unknown}"
        for handler in row.values():  # the machine's own readings of the board, or a player's control
            home = controls if handler.__module__ == controls.__name__ else TableMachine
            assert getattr(home, handler.__name__) is handler
    assert set(EVERY_STATE) <= REPORTS


def test_every_action_is_taken_somewhere_and_pause_everywhere_a_game_runs() -> None:
    taken = {action for row in TRANSITIONS.values() for action in row}
    assert taken >= ACTIONS
    running = set(TableState) - {TableState.WAITING, TableState.PAUSED, TableState.ENDED}
    assert {s for s, row in TRANSITIONS.items() if "pause" in row} == running


@pytest.mark.parametrize("action", sorted(ACTIONS - set(TRANSITIONS[TableState.WAITING])))
def test_an_action_the_state_does_not_list_is_refused_and_changes_nothing(action: str) -> None:
    setup = default_setup()
    m = TableMachine(setup, table_rules(setup, EveryWord()))
    before = m.snapshot()
    params = {"square": "H8", "letter": "E", "player": 1, "count": 2, "tiles": "AB", "letters": "AB"}
    with pytest.raises(ControlError):
        m.apply(Event("control", 0, {"action": action, "params": params}))
    assert m.snapshot() == before and m.state is TableState.WAITING


def test_an_unknown_action_and_an_unknown_event_are_named() -> None:
    setup = default_setup()
    m = TableMachine(setup, table_rules(setup, EveryWord()))
    with pytest.raises(ControlError, match="unknown action 'fly'"):
        m.apply(Event("control", 0, {"action": "fly"}))
    with pytest.raises(ControlError, match="unknown event kind 'control_'"):
        m.apply(Event("control_", 0, {}))
    with pytest.raises(ControlError, match="unknown action 'clock'"):  # a report is not a control action
        m.apply(Event("control", 0, {"action": "clock"}))
