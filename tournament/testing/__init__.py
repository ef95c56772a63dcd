"""Helpers for tests and benchmarks: a real broker (`broker.py`, also useful to try a hall on a laptop) and
simulated tables that speak the tournament contract (`simhall.py`)."""
