"""One table's game: the state machine, its views, the live (journaled, locked) table and its words.

Modules, from the inside out::

    state     TableState (the states), Alert, LastPlay, TableTime: the small values the machine holds
    setup     TableSetup: the game-relevant part of the configuration, journaled with each game
    rules     TableRules: the engine's rule set and lexicon for a table
    picture   Cell, Picture: what the sensors say lies on the board now
    messages  the words the table says to players, in English and German
    machine   TableMachine: pure; events in, state out; its transition table is the rules of the table
    view      what a machine shows: alerts, board rows, score sheet, snapshot
    api       the contract with the views: Snapshot, TableView, TableControl, ControlError
    live      LiveTable: machine + journal + lock + listeners + table time; the one way in for the service
    records   the game as GCG (written live, or replayed from the journal)

The package imports nothing of `referee` outside it but `referee.config` (the setup's source) and
`referee.journal` (the events and their store), so the service, the page and the tests build on it.
"""
