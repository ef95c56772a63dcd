"""The topic tree: names built and parsed back, and anything outside it refused with the reason."""

from __future__ import annotations

import pytest

from tournament import topics


def test_every_table_topic_parses_back() -> None:
    for leaf in topics.TABLE_LEAVES:
        name = topics.table_topic("open-2026", 12, leaf)
        assert name == f"scrabble/open-2026/table/12/{leaf}"
        assert topics.parse(name) == topics.ParsedTopic("open-2026", 12, leaf)
    assert topics.parse(topics.all_command("open-2026")) == topics.ParsedTopic("open-2026", None, "cmd")


def test_subscription_filter_covers_every_table() -> None:
    assert topics.all_tables("e1", "events") == "scrabble/e1/table/+/events"


@pytest.mark.parametrize("event", ["", "a/b", "a+b", "#", "x" * 65, "é"])
def test_event_ids_that_could_break_the_tree_are_refused(event: str) -> None:
    with pytest.raises(topics.TopicError, match="event id"):
        topics.events(event, 1)


@pytest.mark.parametrize("table", [0, -1, 10000, True, "3"])
def test_table_numbers_out_of_range_are_refused(table: object) -> None:
    with pytest.raises(topics.TopicError, match="table number"):
        topics.events("e", table)  # type: ignore[arg-type]


@pytest.mark.parametrize("topic", ["scrabble/e/table/x/events", "scrabble/e/table/1/other", "other/e/table/1/events",
                                   "scrabble/e/all/events"])
def test_foreign_topics_are_refused(topic: str) -> None:
    with pytest.raises(topics.TopicError, match="topic"):
        topics.parse(topic)
