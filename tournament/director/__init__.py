"""The director: every table of a hall from the broker, on one page, with the director's commands.

`store` keeps the director's own SQLite copy of every game; `hall` turns what the broker carries into the
tiles the page shows; `link` is the MQTT side; `app` the HTTP side (page, event stream, commands, exports);
`config` reads DIRECTOR.toml. `referee director` (referee/commands/director.py) wires them together.
"""
