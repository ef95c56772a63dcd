"""The sensor board: wire protocol, firmware, emulator and the host link."""
