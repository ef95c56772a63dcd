"""Firmware for the Pico (MicroPython); wire.py and scanner.py also run on the host."""
