"""Subcommands of the `referee` console script; each module exposes `register(subparsers)`."""
