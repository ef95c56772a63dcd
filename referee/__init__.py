"""The table referee service: ties sensors, clocks and the rules engine into a game players can trust."""

__version__ = "0.1.0"
