"""The asks between two tables as a pure protocol (``firmware.match.negotiation``): where an
ask waits, when it is offered or lapses, who decides, what is recorded and sent again."""

from __future__ import annotations

import pytest

from firmware.match.negotiation import Negotiation, Step, place, unfit
from firmware.match.negotiation_values import (
    Acknowledged,
    Adopted,
    Asked,
    AskId,
    AskKind,
    AskOutcome,
    AskUnfit,
    CarryOut,
    Decided,
    GamePlace,
    NothingAsked,
    Offer,
    PlacedAsk,
    Standing,
    Told,
    Withdrawn,
)


def at(actions: int, takebacks: int = 0, game: int = 1, paused: bool = False,
       over: bool = False) -> Standing:
    return Standing(game, GamePlace(takebacks, actions), paused, over)


def asked(step: Step) -> Asked:
    (message,) = step.sends
    assert isinstance(message, Asked)
    return message


def decided(step: Step) -> Decided:
    found = [m for m in step.sends if isinstance(m, Decided)]
    assert len(found) == 1, step.sends
    return found[0]


def test_an_ask_ahead_of_the_answering_table_waits_then_is_offered() -> None:
    """The towers case of issue 47: A took back its placement before B made it."""
    a, b = Negotiation("A"), Negotiation("B")
    ask = asked(a.ask(at(5), AskKind.TAKEBACK, to=4))
    waiting = b.received(ask, at(4))
    assert waiting.effects == () and waiting.records == () and waiting.sends == ()
    assert waiting.state.theirs == ask.ask and not waiting.state.offered
    reached = waiting.state.moved(at(5))
    assert reached.effects == (Offer(ask.ask),) and reached.state.offered


def test_an_ask_the_answering_table_moved_past_lapses_and_the_asker_learns_it() -> None:
    a, b = Negotiation("A"), Negotiation("B")
    step = a.ask(at(5), AskKind.END)
    lapsed = b.received(asked(step), at(6))
    decision = decided(lapsed).decision
    assert decision.outcome is AskOutcome.LAPSED
    assert decision.why == "the game moved on since it was asked"
    assert lapsed.records == (Decided(decision),)
    adopted = step.state.received(Decided(decision), at(6))
    assert adopted.records == (Adopted(decision),) and adopted.state.mine == ()
    assert adopted.effects == (Told(decision),)


def test_a_pause_is_bound_to_the_line_not_to_the_count() -> None:
    """A paused table makes no move, so the tables may pause one action apart (a move on its
    way when the pause was agreed): a pause or play on asked at another count of the same
    line is offered; one asked before a takeback agreed since lapses."""
    a, b = Negotiation("A"), Negotiation("B")
    pause = asked(a.ask(at(5), AskKind.PAUSE))
    assert b.received(pause, at(4)).effects == (Offer(pause.ask),)  # A's 5th not made here
    assert b.received(pause, at(6)).effects == (Offer(pause.ask),)  # B's 6th not there yet
    later = b.received(pause, at(3, takebacks=1))
    assert decided(later).decision.why == "the game moved on since it was asked"
    play_on = asked(a.ask(at(5, paused=True), AskKind.RESUME))
    assert b.received(play_on, at(4, paused=True)).effects == (Offer(play_on.ask),)
    assert b.received(play_on, at(4, takebacks=-1, paused=True)).effects == ()  # waits


def test_a_paused_table_asks_and_grants_only_play_on() -> None:
    """A paused table records no move, so an ask bound to a later count would wait there for
    ever: it lapses, and the person here is told to play on first."""
    with pytest.raises(AskUnfit, match="the game is paused: ask to play on first"):
        Negotiation("A").ask(at(3, paused=True), AskKind.END)
    end = asked(Negotiation("A").ask(at(4), AskKind.END))
    step = Negotiation("B").received(end, at(3, paused=True))
    assert decided(step).decision.outcome is AskOutcome.LAPSED
    assert decided(step).decision.why == "the game is paused: ask to play on first"


def test_play_on_in_a_game_the_answering_table_finished_is_agreed_by_the_table() -> None:
    """B paused before A's last move reached it; A's game is over. B must play on to make
    that move, and nothing changes at A: A's table agrees by itself (else B stood paused in
    a game A had left, for ever)."""
    play_on = asked(Negotiation("B").ask(at(4, paused=True), AskKind.RESUME))
    for here in (at(5, over=True), at(0, game=2)):
        step = Negotiation("A").received(play_on, here)
        assert decided(step).decision.outcome is AskOutcome.AGREED
        assert decided(step).decision.why == "the game is over at this table"
        assert not step.state.offered


def test_an_offered_ask_lapses_when_the_game_here_moves_on() -> None:
    b = Negotiation("B").received(asked(Negotiation("A").ask(at(2), AskKind.END)), at(2)).state
    assert b.offered
    moved = b.moved(at(3))
    assert decided(moved).decision.outcome is AskOutcome.LAPSED
    assert moved.state.theirs is None and not moved.state.offered


def test_only_an_agreement_is_carried_out_and_it_is_recorded_first() -> None:
    step = Negotiation("A").ask(at(3), AskKind.TAKEBACK, to=2)
    b = Negotiation("B").received(asked(step), at(3)).state
    agreed = b.answer(at(3), agree=True)
    decision = decided(agreed).decision
    assert agreed.records == (Decided(decision),)
    assert agreed.effects == (CarryOut(decision), Told(decision))
    declined = b.answer(at(3), agree=False)
    assert decided(declined).decision.outcome is AskOutcome.DECLINED
    assert declined.effects == (Told(decided(declined).decision),)


def test_the_asking_table_adopts_a_decision_once() -> None:
    step = Negotiation("A").ask(at(0), AskKind.END)
    b = Negotiation("B").received(asked(step), at(0)).state
    decision = decided(b.answer(at(0), agree=True)).decision
    first = step.state.received(Decided(decision), at(0))
    assert first.effects == (CarryOut(decision), Told(decision))
    again = first.state.received(Decided(decision), at(0))
    assert again == Step(first.state)


def test_a_decision_is_sent_again_after_the_next_game_until_acknowledged() -> None:
    """The end case of issue 47: B agreed, set the game aside and set up the next one; its
    answer still reaches A, whatever game B plays."""
    step = Negotiation("A").ask(at(7), AskKind.END)
    b = Negotiation("B").received(asked(step), at(7)).state
    b = b.answer(at(7), agree=True).state
    b = b.moved(at(0, game=2)).state  # the next game
    again = b.again(2)
    assert Decided(b.made[0]) in again
    acknowledged = b.received(Acknowledged(1, "A", 1), at(0, game=2)).state
    assert acknowledged.made == () and not any(isinstance(m, Decided) for m in
                                               acknowledged.again(2))


def test_the_asking_table_acknowledges_only_what_it_adopted() -> None:
    a = Negotiation("A")
    first = a.ask(at(1), AskKind.PAUSE)
    second = first.state.ask(at(1), AskKind.END)
    assert Acknowledged(1, "A", 0) in second.state.again(1)
    decision = Negotiation("B").received(asked(second), at(1)).state.answer(at(1), False)
    adopted = second.state.received(decided(decision), at(1)).state
    assert Acknowledged(1, "A", 0) in adopted.again(1)  # the first is still waiting


def test_an_ask_that_comes_again_gets_its_decision_again_never_a_second() -> None:
    step = Negotiation("A").ask(at(2), AskKind.PAUSE)
    b = Negotiation("B").received(asked(step), at(2)).state
    answered = b.answer(at(2), agree=True)
    restarted = Negotiation.restored("B", answered.records)
    repeat = restarted.received(asked(step), at(2, paused=True))
    assert repeat.sends == (decided(answered),) and repeat.records == ()
    assert repeat.state.theirs is None


def test_a_restarted_asking_table_keeps_its_ask_and_its_number() -> None:
    first = Negotiation("A").ask(at(2), AskKind.PAUSE)
    second = first.state.ask(at(2), AskKind.END)
    restarted = Negotiation.restored("A", first.records + second.records)
    assert restarted.mine == second.state.mine
    assert {asked(first), asked(second)} <= set(restarted.again(1))
    third = asked(restarted.ask(at(2), AskKind.TAKEBACK, to=1)).ask
    assert third.id == AskId(1, "A", 3)


def test_two_asks_that_cross_both_lapse() -> None:
    a_step = Negotiation("A").ask(at(4), AskKind.PAUSE)
    b_step = Negotiation("B").ask(at(4), AskKind.END)
    at_b = b_step.state.received(asked(a_step), at(4))
    at_a = a_step.state.received(asked(b_step), at(4))
    for step in (at_a, at_b):
        decision = decided(step).decision
        assert decision.outcome is AskOutcome.LAPSED and "both tables asked at once" in \
            decision.why


def test_a_newer_ask_replaces_an_older_one_in_either_order() -> None:
    first = Negotiation("A").ask(at(1), AskKind.PAUSE)
    second = first.state.ask(at(1), AskKind.END)
    b = Negotiation("B")
    in_order = b.received(asked(first), at(1)).state.received(asked(second), at(1))
    assert decided(in_order).decision.ask == asked(first).ask
    assert decided(in_order).decision.why == "a newer ask of the other table replaced it"
    assert in_order.state.theirs == asked(second).ask
    late = b.received(asked(second), at(1)).state.received(asked(first), at(1))
    assert decided(late).decision.ask == asked(first).ask
    assert late.state.theirs == asked(second).ask


def test_a_withdrawal_is_decided_by_the_answering_table() -> None:
    step = Negotiation("A").ask(at(3), AskKind.PAUSE)
    gone = step.state.withdraw(asked(step).ask.id)
    assert gone.records == gone.sends == (Withdrawn(asked(step).ask.id),)
    assert gone.state.mine == step.state.mine  # still waiting for the decision
    b = Negotiation("B").received(asked(step), at(3)).state
    lapsed = b.received(Withdrawn(asked(step).ask.id), at(3))
    assert decided(lapsed).decision.why == "the other table took it back"
    agreed = b.answer(at(3), agree=True)
    late = agreed.state.received(Withdrawn(asked(step).ask.id), at(3, paused=True))
    assert late.sends == (decided(agreed),) and late.records == ()


def test_a_claim_is_answered_by_the_table_itself() -> None:
    step = Negotiation("A").ask(at(6), AskKind.CLAIM)
    answered = Negotiation("B").received(asked(step), at(6))
    decision = decided(answered).decision
    assert decision.outcome is AskOutcome.AGREED
    assert not any(isinstance(e, Offer) for e in answered.effects)
    assert CarryOut(decision) in answered.effects


def test_an_ask_of_a_game_set_aside_lapses() -> None:
    step = Negotiation("A").ask(at(6), AskKind.PAUSE)
    lapsed = Negotiation("B").received(asked(step), at(0, game=2))
    assert decided(lapsed).decision.why == "that game is over"
    ahead = Negotiation("B").received(asked(step), at(6, over=True))
    assert decided(ahead).decision.why == "the game is over"


def test_a_game_is_set_aside_only_once_its_asks_are_decided() -> None:
    step = Negotiation("A").ask(at(6), AskKind.TAKEBACK, to=5)
    assert not step.state.settled(1) and step.state.settled(0)
    decision = Negotiation("B").received(asked(step), at(7))
    assert step.state.received(decided(decision), at(7)).state.settled(1)


def test_the_person_here_is_told_why_an_ask_cannot_be_made() -> None:
    with pytest.raises(AskUnfit, match="the game is not paused"):
        Negotiation("A").ask(at(3), AskKind.RESUME)
    with pytest.raises(AskUnfit, match="there are not 4 actions to take back"):
        Negotiation("A").ask(at(3), AskKind.TAKEBACK, to=-1)
    b = Negotiation("B").received(asked(Negotiation("A").ask(at(3), AskKind.PAUSE)), at(3)).state
    with pytest.raises(AskUnfit, match="the other table asked to pause the game first"):
        b.ask(at(3), AskKind.END)
    with pytest.raises(NothingAsked, match="the other table asks nothing now"):
        Negotiation("B").answer(at(3), agree=True)
    with pytest.raises(NothingAsked):
        Negotiation("A").withdraw(AskId(1, "A", 1))
    with pytest.raises(AskUnfit, match="seat A or B"):
        Negotiation("C")


@pytest.mark.parametrize(("kind", "here", "why"), [
    (AskKind.PAUSE, at(2, paused=True), "the game is paused already"),
    (AskKind.RESUME, at(2), "the game is not paused"),
    (AskKind.END, at(2, over=True), "the game is over"),
    (AskKind.CLAIM, at(2), ""),
    (AskKind.TAKEBACK, at(2), ""),
])
def test_what_each_kind_needs(kind: AskKind, here: Standing, why: str) -> None:
    ask = PlacedAsk(AskId(1, "A", 1), kind, here.at, 1)
    assert unfit(ask, here) == why


def test_the_place_of_an_ask_orders_takebacks_before_actions() -> None:
    ask = PlacedAsk(AskId(1, "A", 1), AskKind.PAUSE, GamePlace(1, 3))
    assert place(ask, at(9, takebacks=0)) is None  # an earlier line: the ask waits
    assert place(ask, at(2, takebacks=2)) == "the game moved on since it was asked"
    assert place(ask, at(3, takebacks=1)) == ""
    assert place(ask, at(0, game=0)) is None  # a game not reached yet
