"""The rules engine: pure Python, standard library only, no I/O, no clocks.

Nothing here imports another package of the project; the referee, the simulator and the
record checker all drive the same engine.
"""
