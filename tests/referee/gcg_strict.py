"""A strict GCG checker: the line patterns of the GCG spec (poslfit.com/scrabble/gcg, v1.2) as
Macondo's reader (gcgio/gcg.go, which Woogles uses) matches them, anchored to the whole line.

Macondo searches each line with these patterns unanchored and refuses a file with a line that none
matches; this checker is stricter: a line must be one pattern, start to end. Two deliberate
allowances, written down here and in docs/gcg.md: the rack field may be empty (written as two spaces,
as Macondo's own writer leaves it) on a pass and an exchange of unknown tiles, because a table with
real tiles cannot know a rack it never saw (Macondo wants a rack there); and `#variant`, which the
project's reader uses for Scramble (a game no other reader plays), is a pragma here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NICK = r"(?P<nick>[^\s:]+)"
LETTERS = r"(?:[^\W\d_]|\?)+"  # letters of any alphabet, blanks as ?
RACK = rf"(?P<rack>{LETTERS})"
END = r"\s+(?P<total>-?\d+)"

EVENT_PATTERNS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern) for name, pattern in {
        "move": rf">{NICK}: {RACK} (?P<pos>\d{{1,2}}[A-Za-z]|[A-Za-z]\d{{1,2}}) (?P<play>[\w.]+) \+(?P<score>\d+){END}",
        "phony_returned": rf">{NICK}: {RACK} -- -(?P<score>\d+){END}",
        "pass": rf">{NICK}: (?:{RACK})? - \+0{END}",
        "exchange": rf">{NICK}: (?:{RACK})? -(?P<tiles>{LETTERS}|\d) \+0{END}",
        "challenge_bonus": rf">{NICK}: (?:{RACK})? \(challenge\) \+(?P<score>\d+){END}",
        "time_penalty": rf">{NICK}: (?:{RACK})? \(time\) -(?P<score>\d+){END}",
        "end_rack_points": rf">{NICK}: \((?P<tiles>{LETTERS})\) \+(?P<score>\d+){END}",
        "last_rack_penalty": rf">{NICK}: {RACK} \((?P<tiles>{LETTERS})\) -(?P<score>\d+){END}",
    }.items()
}

PRAGMA_PATTERNS = [
    re.compile(r"#character-encoding UTF-8"),
    re.compile(r"#player(?P<number>[1-4]) (?P<nick>[^\s:]+) (?P<name>\S.*)"),
    # Macondo's pragmas (gcgio: title, description, id, note, lexicon, game-type, tile-set, game-board,
    # board-layout, tile-distribution, incomplete, continuation), and the project's #variant
    re.compile(r"#(title|description|id|note|lexicon|game-type|tile-set|game-board|board-layout|"
               r"tile-distribution|incomplete|variant)( \S.*)?"),
    re.compile(r"#- .*"),
    re.compile(rf"#rack[1-4] {LETTERS}"),
]


@dataclass
class StrictReport:
    event_lines: int = 0
    matched: int = 0
    problems: list[str] | None = None


def event_kind(line: str) -> str | None:
    """The pattern a `>` line matches in full, or None."""
    for name, pattern in EVENT_PATTERNS.items():
        if pattern.fullmatch(line):
            return name
    return None


def check_strictly(text: str) -> StrictReport:
    """Every line of a record against the patterns; problems name the line number and what is wrong."""
    report = StrictReport(problems=[])
    assert report.problems is not None
    nicks: list[str] = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if line.startswith(">"):
            report.event_lines += 1
            kind = event_kind(line)
            if kind is None:
                report.problems.append(f"line {number}: no GCG event pattern matches {line!r}")
                continue
            nick = line[1:].split(":", 1)[0]
            if nick not in nicks:
                report.problems.append(f"line {number}: {nick!r} is not a #player nickname")
                continue
            if kind == "last_rack_penalty":
                m = EVENT_PATTERNS[kind].fullmatch(line)
                assert m is not None
                if m.group("rack") != m.group("tiles"):
                    report.problems.append(f"line {number}: the rack and the tiles lost differ in {line!r}")
                    continue
            report.matched += 1
        elif line.startswith("#"):
            m = next((p.fullmatch(line) for p in PRAGMA_PATTERNS if p.fullmatch(line)), None)
            if m is None:
                report.problems.append(f"line {number}: not a GCG pragma: {line!r}")
                continue
            if line.startswith("#player"):
                if m.group("nick") in nicks:
                    report.problems.append(f"line {number}: the nickname {m.group('nick')!r} is taken")
                nicks.append(m.group("nick"))
        else:
            report.problems.append(f"line {number}: neither a pragma nor an event: {line!r}")
    return report


def count_matching(text: str) -> tuple[int, int]:
    """(event lines, of those matching a reader's pattern in full) of a record."""
    report = check_strictly(text)
    return report.event_lines, report.matched
