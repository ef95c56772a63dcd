"""Every relative link and anchor in README.md and docs/ leads somewhere (issue 25 item 5).

Links into docs/performance.md#speech and #tournament-network pointed at headings that did not exist: a
reader followed them to the top of a long page. Anchors are GitHub's: a heading lower-cased, punctuation
other than `-` and `_` dropped, spaces as `-`, and `-1`, `-2` for repeated headings; an explicit
`<a id="...">` counts too. External links (http, mailto) are not fetched: the tests use no network.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]

_FENCE = re.compile(r"^(```|~~~)")
_LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?\s*\)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)(?:\s+\"[^\"]*\")?\s*$", re.MULTILINE)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ANCHOR_TAG = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def _prose(text: str, *, inline: bool = False) -> str:
    """The page without its fenced code blocks and (unless `inline`) inline code: a `[x](y)` in code is no
    link, but a heading's inline code is part of its anchor."""
    out, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line.strip()):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else line if inline else re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"<[^>]+>", "", heading)  # tags
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link keeps its words
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    text = page.read_text(encoding="utf-8")
    found.update(_ANCHOR_TAG.findall(text))
    for line in _prose(text, inline=True).splitlines():
        m = _HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return frozenset(found)


def links(page: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link and image in the page's prose."""
    out = []
    for number, line in enumerate(_prose(page.read_text(encoding="utf-8")).splitlines(), start=1):
        for pattern in (_LINK, _IMAGE, _REFERENCE):
            out.extend((number, target) for target in pattern.findall(line))
    return out


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the page's links, one line each, named by file and line from `root`."""
    problems = []
    for number, target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        where = f"{page.relative_to(root)}:{number}: {target}"
        if not dest.exists():
            problems.append(f"{where}: no such file {dest.relative_to(root) if dest.is_relative_to(root) else dest}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where}: {dest.name} has no heading #{anchor}")
    return problems


def test_the_slug_is_githubs() -> None:
    assert slug("Speech (espeak-ng)") == "speech-espeak-ng"
    assert slug("The `referee hall` command") == "the-referee-hall-command"
    assert slug("Step 2: the broker") == "step-2-the-broker"


def test_a_missing_file_and_a_missing_anchor_are_found(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Top\n\n## Two words\n\n[ok](#two-words) [bad](#nowhere) [gone](b.md)\n"
                                   "```\n[not a link](c.md)\n```\n", encoding="utf-8")
    assert broken(tmp_path / "a.md", tmp_path) == ["a.md:5: #nowhere: a.md has no heading #nowhere",
                                                   "a.md:5: b.md: no such file b.md"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_leads_somewhere(page: Path) -> None:
    assert broken(page) == []
