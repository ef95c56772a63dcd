"""One table's game: the state machine, its views, the live (journaled, locked) table and its words.

Modules, from the inside out::

    state      TableState (the states), Alert, LastPlay, TableTime, Event: the small values the machine holds
    setup      TableSetup: the game-relevant part of the configuration, journaled with each game
    rules      TableRules: the engine's rule set and lexicon for a table
    picture    Cell, Picture: what the sensors say lies on the board now
    anomalies  what is wrong on the board (a tile moved, the board lost): codes and squares, derived
    actions    ACTIONS: the control actions and their parameters, one schema for the page and the machine
    messages   the words the table says to players, in English and German
    clocks     the game clocks and turn timer a table runs, and how they follow its state
    director   a tournament director's commands (`DIRECTOR` names them beside `TRANSITIONS`)
    machine    TableMachine: pure; events in, state out; its transition table is the rules of the table
    view       what a machine shows: alerts, board rows, score sheet, snapshot
    api        the contract with the views: Snapshot, TableView, TableControl, ControlError
    live       LiveTable: machine + journal + lock + listeners + table time; the one way in for the service
    reading    TableReading: what `with table.reading() as r:` lets the service read
    records    the game as GCG (written live, or replayed from the journal)

The package imports the engine (`game`) and itself; of the rest of `referee` only the journal (live, records),
the journaled lexicon (records) and the words (messages): tests/test_layering.py holds it to that. The service,
the page and the tests build on it.
"""
