"""The ``status`` command's answer: what the table is doing, and which commands make sense now.

The page draws its buttons from ``can``; ``obelisk`` commands typed with no state
directory find the running table by it.
"""

from __future__ import annotations

from typing import Any

from engine.record import options_to_dict
from firmware.match.commands import match_of
from firmware.service.game_choices import games
from firmware.service.game_commands import bonus_earners, set_out, takeback_owners, why_no_hint
from firmware.service.table_maker import solo_of


def status(table: Any) -> dict:
    """What the table is doing, and which commands make sense now."""
    solo = solo_of(table)
    seat = match_of(table)
    waits = seat is not None and (seat.asking.mine or seat.asking.theirs) is not None
    choose = None
    if table.choice_waiting():
        choose = {"player": table.chooser.value, "pick": table.pick,
                  "candidates": table.choosing.words()}
    return {"ok": True, "game": table.game.id, "options": options_to_dict(table.game.options),
            "state": table.state, "problem": table.problem, "can": {
                # while an ask of a match waits, only its answer: another would be refused
                "pause": table.may_pause() and not waits,
                "resume": table.may_resume() and not waits,
                "decline": bonus_earners(table), "takeback": takeback_owners(table),
                "choose": choose,
                "start": set_out(table), "end": table.game_on() and not waits,
                "new": table.between_games(), "hint": not why_no_hint(table),
                "answer": seat is not None and seat.asking.theirs is not None,
                "claim": seat is not None and seat.claimable and table.game_on()},
            "solo": solo.to_dict() if solo is not None and solo.journal_key == "solo" else None,
            "remote": solo.to_dict() if solo is not None and solo.journal_key == "remote"
            else None, "games": games()}
