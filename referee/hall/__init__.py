"""A hall in one command: `referee hall init` writes every file (kit.py, sheets.py), `referee hall start`
runs the broker and the director for a trial on one machine (start.py)."""
