"""A second reader of tsh's `tourney.js`, written from tsh's format alone and sharing nothing with
tournament/pairings.py: a small recursive-descent reader of the JavaScript literal tsh writes (`newt=` then an
object of objects, arrays, strings, numbers, `undefined`, then `;`). The feed's tests read it back with both."""

from __future__ import annotations

from typing import Any

_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class TshSyntaxError(ValueError):
    pass


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def fail(self, what: str) -> TshSyntaxError:
        return TshSyntaxError(f"offset {self.i}: {what} (at {self.text[self.i:self.i + 20]!r})")

    def space(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t\r\n":
            self.i += 1

    def expect(self, token: str) -> None:
        self.space()
        if not self.text.startswith(token, self.i):
            raise self.fail(f"expected {token!r}")
        self.i += len(token)

    def value(self) -> Any:
        self.space()
        ch = self.text[self.i:self.i + 1]
        if ch == "{":
            return self.obj()
        if ch == "[":
            return self.arr()
        if ch == '"':
            return self.string()
        for word, val in (("undefined", None), ("null", None), ("true", True), ("false", False)):
            if self.text.startswith(word, self.i):
                self.i += len(word)
                return val
        return self.number()

    def obj(self) -> dict[str, Any]:
        self.expect("{")
        out: dict[str, Any] = {}
        self.space()
        if self.text[self.i] == "}":
            self.i += 1
            return out
        while True:
            self.space()
            key = self.string()
            self.expect(":")
            out[key] = self.value()
            self.space()
            if self.text[self.i] == ",":
                self.i += 1
                continue
            self.expect("}")
            return out

    def arr(self) -> list[Any]:
        self.expect("[")
        out: list[Any] = []
        self.space()
        if self.text[self.i] == "]":
            self.i += 1
            return out
        while True:
            out.append(self.value())
            self.space()
            if self.text[self.i] == ",":
                self.i += 1
                continue
            self.expect("]")
            return out

    def string(self) -> str:
        if self.text[self.i] != '"':
            raise self.fail("expected a string")
        self.i += 1
        chars = []
        while True:
            ch = self.text[self.i]
            if ch == '"':
                self.i += 1
                return "".join(chars)
            if ch == "\\":
                code = self.text[self.i + 1]
                if code == "u":
                    chars.append(chr(int(self.text[self.i + 2:self.i + 6], 16)))
                    self.i += 6
                    continue
                chars.append(_ESCAPES[code])
                self.i += 2
                continue
            chars.append(ch)
            self.i += 1

    def number(self) -> int | float:
        start = self.i
        while self.i < len(self.text) and self.text[self.i] in "+-0123456789.eE":
            self.i += 1
        token = self.text[start:self.i]
        if not token:
            raise self.fail("expected a value")
        return float(token) if any(c in token for c in ".eE") else int(token)


def read_tsh(text: str) -> dict[str, Any]:
    """`newt={...};` as a dict (comment lines before it allowed, as tsh's files have none but tests do)."""
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("//")]
    reader = _Reader("\n".join(lines))
    reader.expect("newt")
    reader.expect("=")
    data = reader.obj()
    reader.expect(";")
    reader.space()
    if reader.i != len(reader.text):
        raise reader.fail("text after the final ';'")
    if not isinstance(data, dict):
        raise TshSyntaxError("not an object")
    return data


def scores_of(data: dict[str, Any]) -> dict[tuple[str, int], list[Any]]:
    """(division name as written, player number) -> the player's `scores` list."""
    out = {}
    for d, division in enumerate(data["divisions"]):
        name = str(division.get("name", d))
        for n, player in enumerate(division["players"]):
            if player is not None:
                out[(name, n)] = list(player.get("scores") or [])
    return out
