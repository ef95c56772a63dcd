"""Devices on the Pi's pins (LED timer, buttons, buzzer, displays), each behind a factory with a mock backend."""
