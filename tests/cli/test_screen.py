"""The terminal's screen (a demo's output, ``obelisk watch``): each board once when it
changed, what is wrong once when it changed; the hints name the command as it was typed."""

from __future__ import annotations

import os

from firmware import typed
from firmware.readers.terminal.screen import Screen


def _board(observation: dict) -> str:
    return f"board {observation['n']}"


def test_a_board_is_shown_again_only_once_it_changed():
    """The README's first command once printed about 2,300 lines for one game of towers: the
    whole board again after every event, often the same board twice in a row."""
    screen = Screen(_board)
    one, two = {"n": 1}, {"n": 2}
    shown = [screen.show(event) for event in (
        {"event": "accepted", "player": "A", "text": "a block", "observation": one},
        {"event": "timer", "player": "B", "state": "started", "seconds": 60, "left": 60},
        {"event": "accepted", "player": "B", "text": "a block", "observation": one},
        {"event": "accepted", "player": "A", "text": "a block", "observation": two})]
    boards = [text.count("board ") for text in shown if text is not None]
    assert [text.splitlines()[-1] for text in shown if text is not None][-1] == "board 2"
    assert boards == [1, 0, 0, 1]


def test_what_is_wrong_is_said_once_until_it_changes_or_clears():
    screen = Screen(_board)
    refused = {"event": "refused", "kind": "rule", "message": "the block does not fit"}
    first, again = screen.show(refused), screen.show(refused)
    assert first is not None and first.count("!! the block does not fit") == 1
    assert again is not None and "!!" not in again
    screen.show({"event": "accepted", "player": "A", "text": "a block"})  # put right
    third = screen.show(refused)
    assert third is not None and "!! the block does not fit" in third


def test_a_hint_names_the_command_as_it_was_typed(tmp_path, monkeypatch):
    """The README runs `.venv/bin/obelisk`; the demo's last line said `obelisk games ...`,
    which a person without the venv on their PATH cannot run."""
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert typed.obelisk(".venv/bin/obelisk") == ".venv/bin/obelisk"
    assert typed.obelisk("obelisk") == "obelisk"
    assert typed.obelisk("/usr/lib/python3/dist-packages/firmware/cli.py") == "obelisk"
    (tmp_path / "bin").mkdir()
    on_path = tmp_path / "bin" / "obelisk"
    on_path.write_text("#!/bin/sh\n")
    assert typed.obelisk(str(on_path)) == "obelisk"  # found on the PATH: typed plainly
    elsewhere = tmp_path / "venv" / "bin" / "obelisk"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("#!/bin/sh\n")
    monkeypatch.chdir(tmp_path)
    assert typed.obelisk(str(elsewhere)) == os.path.join("venv", "bin", "obelisk")


def test_a_takeback_on_offer_is_said_in_words_not_by_its_kind():
    """What happened once read "player B may take back 1 action (takeback)"."""
    line = Screen(_board).show({"event": "offer", "kind": "takeback", "players": ["B"],
                                "candidates": ["take back 1 action"]})
    assert line == "--- player B may take back 1 action: each presses their button to agree"


def test_who_begins_says_how_it_was_decided_where_chance_decided_it():
    """Issue 48: "player B begins" after a press never said it was the coin toss, so a person
    who pressed A read it as the table ignoring them."""
    from firmware.readers.terminal.screen import headline

    def start(game: str, first: str) -> str:
        return headline({"event": "start", "game": game, "options": {}, "players": {},
                         "first": first, "observation": {}})

    assert start("towers", "B") == "a new game of towers: the coin toss says player B begins"
    assert start("highrise", "A") == ("a new game of highrise: the draw for the first turn "
                                      "says player A begins")
    assert start("stones", "A") == "a new game of stones: player A begins"
