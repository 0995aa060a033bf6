"""JSON sent from outside, nested deeper than any message, is refused alike on every Python
(``firmware.sent_json``): by a page's request, a command, another table and a club's broker.

Python 3.11 gives up near a thousand levels with a RecursionError and 3.13 reads on, so each
depth below is tried: one that either Python reads, and one past 3.11's limit.
"""

from __future__ import annotations

import pytest

from firmware.match.messages import json_object
from firmware.readers.club.viewer import Club
from firmware.sent_json import MAX_DEPTH, NestedTooDeep, read_sent
from firmware.service.commands import CommandRefused, _command_object


def nested(levels: int) -> bytes:
    return b'{"command": "pause", "x": ' + b"[" * (levels - 1) + b"]" * (levels - 1) + b"}"


DEPTHS = [MAX_DEPTH + 1, 200, 5000]


def test_a_message_as_deep_as_the_limit_is_read():
    assert read_sent(nested(MAX_DEPTH))["command"] == "pause"
    assert read_sent(b'{"a": {"b": [1, [2, {"c": 3}]]}}') == {"a": {"b": [1, [2, {"c": 3}]]}}
    assert read_sent("7") == 7


@pytest.mark.parametrize("levels", DEPTHS)
def test_json_nested_too_deep_is_refused_as_bad_json(levels):
    with pytest.raises(NestedTooDeep, match=f"more than {MAX_DEPTH} levels"):
        read_sent(nested(levels))
    with pytest.raises(ValueError):  # what every caller catches
        read_sent(nested(levels))


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_command_nested_too_deep_is_refused_in_words(levels):
    with pytest.raises(CommandRefused, match="one JSON object a line"):
        _command_object(nested(levels))


@pytest.mark.parametrize("levels", DEPTHS)
def test_another_tables_message_nested_too_deep_is_no_message(levels):
    assert json_object(nested(levels)) is None
    assert json_object(nested(MAX_DEPTH)) is not None


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_club_message_nested_too_deep_is_passed_over(levels):
    club = Club()
    club.take("obelisk/t1/state", nested(levels))  # no RecursionError out of the message
    assert "t1" not in club.tables
    club.take("obelisk/t1/state", b'{"game": "towers"}')
    assert "t1" in club.tables
