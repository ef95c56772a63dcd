"""Helpers for tests and benchmarks that need a real broker (also useful to try a hall on a laptop)."""
