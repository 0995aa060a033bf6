"""What a link follows (``firmware.match.playing``): the journal's game of the match, also
once it is over and the table that played it has gone."""

from __future__ import annotations

from firmware.match.playing import Playing
from firmware.store.journal import Journal
from tests.support.remote import sealed_by


def test_a_finished_game_is_still_the_matchs_while_the_table_is_set_up_for_that_match(
        tmp_path):
    """The start entry also counts the game of the match; the table's setup (its status
    answer) does not. The maze's whole match stalled on it: the winner's table ended, its
    link took the finished game for another match's and said 0 actions, so the loser's
    table never got the last move."""
    journal = Journal(tmp_path)
    journal.append({"t": "start", "game": "maze", "options": {}, "seed": 5,
                    "remote": {"match": "derby", "seat": "A", "game": 1}})
    journal.append({"t": "action", "n": 1, "action": {"a": "pass"}})
    journal.append({"t": "over", "result": {}})
    playing = Playing(journal)
    playing.take(playing.read())
    playing.setup = {"match": "derby", "seat": "A"}  # what the table says it is set up for
    game = playing.current()
    assert game is not None and len(game.actions) == 1
    assert playing.name() == "derby" and playing.seat() == "A"


class _Told:
    """The link's side toward its table, as far as words go: what it told, in order."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []

    def tell(self, state: str, words: str) -> None:
        self.said.append((state, words))


def test_a_table_whose_opponent_began_first_says_so_and_stops_saying_it_once_it_starts(
        tmp_path):
    """Issue 47: B was not told that A had started or moved until B pressed its own button.
    Nothing of A's game reaches B's table before B's game starts, so B's link says it (each
    count once), and says the tables play together once B's game is on."""
    from firmware.match.guard import Guard
    from firmware.match.other_table import OtherTable

    playing = Playing(Journal(tmp_path))
    playing.setup = {"match": "derby", "seat": "B"}  # set up, its game not started
    told = _Told()
    other = OtherTable(playing, told, Guard("tb"), lambda match, table: None)  # type: ignore[arg-type]
    hello = {"match": "derby", "table": "ta", "seat": "A", "n": 0}
    other.take("ta", "hello", hello)
    assert told.said == [("linked", "playing the table 'ta' (seat A)")]  # not begun there
    setup = {"game": "stones", "options": {}, "extras": None, "seed": "c0ffee"}
    for n in (0, 0, 1):
        other.take("ta", "hello", {**hello, "n": n, "game_setup": setup})
    assert [words for _, words in told.said[1:]] == [
        "the other table (player A) has started the game: press a player button here to "
        "start it too; its moves are lit here for you to make with the pieces",
        "the other table (player A) has started the game, 1 action made there so far: press "
        "a player button here to start it too; its moves are lit here for you to make with "
        "the pieces"]
    assert {state for state, _ in told.said[1:]} == {"waiting"}
    journal = Journal(tmp_path)  # B's player pressed: its game starts, the same as A's
    journal.append({"t": "start", "game": "stones", "options": {}, "seed": 77,
                    "remote": {"match": "derby", "seat": "B", "game": 1}})
    playing.take(playing.read())
    game = playing.current()
    assert game is not None
    sealed = sealed_by(game, "ta", "hello", {"seat": "A", "n": 1, "agreed": 0, "seq": 1})
    other.take("ta", "hello", {**hello, "n": 1, "game_setup": game.fingerprint(),
                               "sealed": sealed})
    assert told.said[-1] == ("linked", "playing the table 'ta' (seat A): the game is on at "
                                       "both tables")


def test_the_other_tables_game_set_aside_here_is_not_said_to_have_begun(tmp_path):
    """After an agreed end, B set the game aside while A's hello still showed it (A had not
    taken in the agreement yet): B's page said "the other table has started the game, 9
    actions made there". Only a later game of the match than the one set aside here has
    begun there."""
    from firmware.match.guard import Guard
    from firmware.match.other_table import OtherTable

    journal = Journal(tmp_path)
    journal.append({"t": "start", "game": "stones", "options": {}, "seed": 77,
                    "remote": {"match": "derby", "seat": "B", "game": 1}})
    playing = Playing(journal)
    playing.setup = {"match": "derby", "seat": "B"}
    playing.take(playing.read())
    playing.take(None)  # the game set aside here: the journal starts afresh
    told = _Told()
    other = OtherTable(playing, told, Guard("tb"), lambda match, table: None)  # type: ignore[arg-type]
    setup = {"game": "stones", "options": {}, "extras": None, "seed": "c0ffee"}
    hello = {"match": "derby", "table": "ta", "seat": "A", "game_setup": setup}
    other.take("ta", "hello", {**hello, "n": 9, "match_game": 1})
    assert not any("has started" in words for _, words in told.said)
    other.take("ta", "hello", {**hello, "n": 0, "match_game": 2})
    assert told.said[-1][1].startswith("the other table (player A) has started the game: ")
    other.take("ta", "hello", {"match": "derby", "table": "ta", "seat": "A", "n": 0})
    assert told.said[-1] == ("linked", "the other table (player A) is linked")


def test_words_a_repeated_hello_brings_are_said_once(tmp_path):
    """A link says its hello again every few seconds: a table that also claims this seat
    was said on the page each time (a line of What happened every 5 s)."""
    from firmware.match.guard import Guard
    from firmware.match.other_table import OtherTable

    playing = Playing(Journal(tmp_path))
    playing.setup = {"match": "derby", "seat": "B"}
    told = _Told()
    other = OtherTable(playing, told, Guard("tb"), lambda match, table: None)  # type: ignore[arg-type]
    for _ in range(3):
        other.take("tx", "hello", {"match": "derby", "table": "tx", "seat": "B", "n": 0})
    assert told.said == [("waiting", "table 'tx' also claims seat B in this match: one of "
                                     "the two must play the other seat")]


def test_a_first_hello_of_a_table_that_began_leaves_its_words_standing(tmp_path):
    """The first hello this link hears may come from a table whose game has begun: "playing
    the table ..." must not replace, at once, the words that tell the person to start."""
    from firmware.match.guard import Guard
    from firmware.match.other_table import OtherTable

    playing = Playing(Journal(tmp_path))
    playing.setup = {"match": "derby", "seat": "B"}
    told = _Told()
    other = OtherTable(playing, told, Guard("tb"), lambda match, table: None)  # type: ignore[arg-type]
    setup = {"game": "stones", "options": {}, "extras": None, "seed": "c0ffee"}
    other.take("ta", "hello", {"match": "derby", "table": "ta", "seat": "A", "n": 2,
                               "game_setup": setup})
    assert told.said[-1][1].startswith("the other table (player A) has started the game")
