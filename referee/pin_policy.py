"""What makes a table PIN strong enough to guard a game on a club's open Wi-Fi.

The page slows down every source that guesses, and all of them together (tournament/pagekit/guards.py), but a
limit only buys time: 1,100 loopback addresses found a four-digit PIN in 2.1 s before the global limit
existed, and a PIN everyone knows (0000, 1234, the one printed in the example file) needs no guessing at
all. So the referee refuses, at start, a PIN that is short, made of a pattern, or published.
"""

from __future__ import annotations

import itertools
import re

MIN_DIGITS = 6
MAX_DIGITS = 12

# The PIN printed in systemd/referee.example.toml and the docs: anyone can read it.
EXAMPLE_PIN = "583016"
# The simulated table's and the demo's PIN (referee.sim.parts.SIM_PIN): printed in the README, on the terminal
# of every demo, and in this project's tests. Fine on 127.0.0.1 for a demo; on a real table it guards nothing.
DEMO_PIN = "390217"

# The most common six-digit choices (after the runs and repeats caught below), from published PIN studies.
_COMMON = frozenset({
    "123123", "121212", "112233", "123321", "159753", "147258", "789456", "696969", "520520", "131313",
    "232323", "101010", "202020", "100100", "110110", "123654", "147852", "258369", "741852", "963852",
    "102030", "010203", "112112", "200000", "000001", "999999", "198719", "199119", "200020",
})

_ASCII_DIGITS = re.compile(r"[0-9]+")


def _run(pin: str) -> bool:
    """Digits that step by the same amount each time (123456, 654321, 135791, 000000)."""
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
    return len(steps) == 1


def _repeats(pin: str) -> bool:
    """A short group said again and again (121212, 123123, 112112)."""
    return any(len(pin) % n == 0 and pin == pin[:n] * (len(pin) // n) for n in (1, 2, 3, 4))


def weak_pin_reason(pin: str) -> str | None:
    """Why `pin` must not guard a table, or None when it may."""
    if not _ASCII_DIGITS.fullmatch(pin):
        return (f"must be {MIN_DIGITS} to {MAX_DIGITS} digits 0-9 in quotes (no letters, spaces or other "
                "scripts' digits), e.g. a random one from `python3 -c \"import secrets; "
                "print(secrets.randbelow(10**6))\"`")
    if len(pin) < MIN_DIGITS:
        return (f"is {len(pin)} digits: a table PIN needs at least {MIN_DIGITS} (a short one is guessed in "
                "seconds by many phones at once)")
    if len(pin) > MAX_DIGITS:
        return f"is {len(pin)} digits: at most {MAX_DIGITS}"
    if pin == EXAMPLE_PIN:
        return "is the example file's PIN, which anyone can read: choose your own"
    if pin == DEMO_PIN:
        return "is the demo's PIN, printed in the README and by every `referee demo`: choose your own"
    if _run(pin) or _repeats(pin) or pin in _COMMON:
        return f"{pin!r} is one of the first PINs anyone tries (a run, a repeat or a common one): choose another"
    return None
