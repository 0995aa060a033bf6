"""Two real tables of a match and their real links, in-process, over a fake broker.

Each table is a game's table on the simulated sensors (``tests.support.tables``) behind a
stand-in service: its commands are carried out by the service's own runner
(``CommandRunner``) and followed up as the service's loop does, and a game set aside swaps
a fresh table in. Each link is ``firmware.match.link.Link`` itself, with two seams replaced
for the run (``in_process``): its MQTT client is a ``FakeClient`` of the ``FakeBroker``, and
the command socket it speaks to its table on is the stand-in service, found by its state
directory. The link reads the table's journal and sees its events as ``obelisk remote``
does; nothing of the link's own logic is written again here.

The fake broker keeps retained messages by topic, hands each subscriber what matches its
filters, and holds what it hands in a queue per client, so that a schedule may deliver,
drop, double or reorder any of them; it may restart, keeping its retained messages or not.
"""

from __future__ import annotations

import contextlib
import json
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from paho.mqtt.client import topic_matches_sub

from firmware.match import broker_side, table_side
from firmware.match.link import Link
from firmware.match.seat import Match
from firmware.readers.club.config import ClubConfig, parse_broker
from firmware.service import command_socket
from firmware.service.command_runner import CommandRunner
from firmware.service.commands import CommandRefused, parse
from firmware.service.table_maker import TableMaker
from hardware.profile import load_profile
from tests.support.tables import TableHarness, harness

CONNECTED = types.SimpleNamespace(is_failure=False, value=0)
"""What paho says of a welcome: the broker took the connection."""
LOST = types.SimpleNamespace(is_failure=True, value=7)
"""What paho says of a connection that ended without a goodbye."""


class Sent:
    """What paho's ``publish`` returns: here it is handed to the broker at once."""

    def wait_for_publish(self, timeout: float | None = None) -> None:
        return None


class FakeClient:
    """A link's MQTT client, as far as the link uses one, on the fake broker."""

    def __init__(self, broker: FakeBroker, client_id: str, will: str) -> None:
        self.broker = broker
        self.id = client_id
        self.will = will
        self.filters: list[str] = []
        self.connected = False
        self.inbox: list[tuple[str, bytes, bool]] = []  # (topic, payload, retained)
        self.on_connect: Callable[..., None] | None = None
        self.on_connect_fail: Callable[..., None] | None = None
        self.on_disconnect: Callable[..., None] | None = None
        self.on_message: Callable[..., None] | None = None
        self.on_pre_connect: Callable[..., None] | None = None

    def publish(self, topic: str, payload: Any, qos: int = 0, retain: bool = False) -> Sent:
        data = payload.encode() if isinstance(payload, str) else bytes(payload)
        if self.connected:  # (a client that is not connected sends nothing)
            self.broker.publish(topic, data, retain)
        return Sent()

    def subscribe(self, topic: str, qos: int = 0) -> None:
        if self.connected:
            self.broker.subscribe(self, topic)

    def disconnect(self) -> None:
        self.broker.leave(self, will=False)

    def loop_stop(self) -> None:
        return None

    def hand(self, index: int) -> bool:
        """The message in flight at ``index`` (of ``inbox``) handed to the link."""
        if not self.inbox or self.on_message is None:
            return False
        topic, payload, retained = self.inbox.pop(index % len(self.inbox))
        self.on_message(self, None, types.SimpleNamespace(topic=topic, payload=payload,
                                                          retain=retained))
        return True


class FakeBroker:
    """Retained messages by topic and a queue of what is in flight to each client."""

    def __init__(self) -> None:
        self.retained: dict[str, bytes] = {}
        self.clients: list[FakeClient] = []

    def client(self, config: ClubConfig, client_id: str, delays: Any, will: str,
               most: int | None = None) -> FakeClient:
        """``club_client`` for the links of the run: one of this broker's."""
        made = FakeClient(self, client_id, will)
        self.clients.append(made)
        return made

    def publish(self, topic: str, payload: bytes, retain: bool) -> None:
        if retain:
            if payload:
                self.retained[topic] = payload
            else:
                self.retained.pop(topic, None)
        for client in self.clients:
            if client.connected and any(topic_matches_sub(f, topic) for f in client.filters):
                client.inbox.append((topic, payload, False))

    def subscribe(self, client: FakeClient, topic_filter: str) -> None:
        client.filters.append(topic_filter)
        for topic, payload in self.retained.items():
            if topic_matches_sub(topic_filter, topic):
                client.inbox.append((topic, payload, True))

    def join(self, client: FakeClient) -> None:
        """The client (re)connects: the link's ``on_connect`` subscribes and says hello."""
        if client.connected:
            return
        client.connected, client.filters, client.inbox = True, [], []
        if client.on_connect is not None:
            client.on_connect(client, None, {}, CONNECTED, None)

    def leave(self, client: FakeClient, will: bool) -> None:
        """The client is gone (``will``: without a goodbye, so its last will is said)."""
        if not client.connected:
            return
        client.connected, client.filters, client.inbox = False, [], []
        if will:
            self.publish(client.will, b"offline", retain=True)
        if client.on_disconnect is not None:
            client.on_disconnect(client, None, {}, LOST, None)

    def restart(self, keep: bool) -> None:
        """Every client loses its connection; the retained messages stay if ``keep``."""
        for client in self.clients:
            self.leave(client, will=False)
        if not keep:
            self.retained = {}


class TableAtDesk:
    """One real table of the match behind a stand-in service, its link beside it."""

    def __init__(self, game_id: str, state_dir: Path, match: Match, broker: FakeBroker,
                 name: str) -> None:
        self.game_id, self.dir, self.match, self.broker, self.name = \
            game_id, state_dir, match, broker, name
        self.up = True
        self.h: TableHarness = self._made()
        self.runner = CommandRunner(self, TableMaker(load_profile("sim"), self.h.journal,
                                                     solo=match))
        self.heard = 0  # the events of the table's stream the link has seen
        self.link_now = 0.0  # the link's clock (its own process: apart from the table's)
        self.link = self._linked()

    # ---------------------------------------------------------------- the service

    @property
    def table(self) -> Any:
        return self.h.table

    def swap_table(self, table: Any, view_of: Any, now: float) -> None:
        """As the service swaps a fresh table in (a game set aside)."""
        self.h.table = table

    def do(self, command: dict[str, Any]) -> dict[str, Any]:
        """One command, as the command socket carries it out (a refusal as its answer)."""
        if not self.up:
            raise command_socket.ControlUnavailable(f"no table runs on {self.dir}")
        try:
            said = self.runner.carry_out(parse(json.dumps(command)), self.h.now)
        except CommandRefused as exc:
            said = {"ok": False, "error": str(exc)}
        self.follow_up()
        return said

    def follow_up(self) -> None:
        """What the service's loop does after any input (a command, a press, a reading): a
        match's game set aside once the two tables agreed to end it."""
        if self.up:
            self.runner.follow_up(self.h.now)

    def _made(self) -> TableHarness:
        from firmware.match.seat import MatchSeat

        return harness(self.game_id, self.dir, solo=MatchSeat(self.match, self.game_id))

    def crash(self) -> None:
        self.up = False

    def boot(self) -> None:
        """A new table over the same state directory, as ``obelisk play`` resumes; the link
        follows its stream again from what stands (``opening``)."""
        now = self.h.now
        self.h = self._made()
        self.h.now = now
        self.runner = CommandRunner(self, TableMaker(load_profile("sim"), self.h.journal,
                                                     solo=self.match))
        self.up = True
        self.heard = len(self.h.events)
        for event in self.table.opening(now):
            self.link.broker.heard(event)

    # ---------------------------------------------------------------- the link

    def _linked(self) -> Link:
        config = ClubConfig(broker=parse_broker("mqtt://broker.test"), table=self.name)
        link = Link(config, self.dir)
        link.read_journal()
        return link

    @property
    def client(self) -> FakeClient:
        client: FakeClient = self.link.broker.client
        return client

    def relink(self) -> None:
        """The link stopped (cleanly, saying offline) and started again: all it held in
        memory is gone; it reads the journal and the table's standing events afresh."""
        self.link.broker.close()
        self.link = self._linked()
        self.heard = len(self.h.events)
        if self.up:
            for event in self.table.opening(self.h.now):
                self.link.broker.heard(event)
        self.broker.join(self.client)

    def step(self) -> None:
        """One turn of the link's loop: the table's new events, then the journal and the
        other table's next action."""
        if self.up:
            events = self.h.events[self.heard:]
            self.heard = len(self.h.events)
            self.link.read_journal()
            for event in events:
                self.link.broker.heard(event)
        self.link.step(self.link_now)


@contextlib.contextmanager
def in_process(broker: FakeBroker, desks: dict[Path, TableAtDesk]) -> Iterator[None]:
    """The links of the run speak to ``broker`` and to the tables in ``desks`` (by state
    directory) instead of a real broker and command sockets."""

    def send(directory: str | Path, command: dict, timeout: float = 0.0) -> dict:
        desk = desks.get(Path(directory))
        if desk is None:
            raise command_socket.ControlUnavailable(f"no table runs on {directory}")
        return desk.do(command)

    sockets = types.SimpleNamespace(send=send,
                                    ControlUnavailable=command_socket.ControlUnavailable)
    with mock.patch.object(broker_side, "club_client", broker.client), \
            mock.patch.object(table_side, "command_socket", sockets):
        yield
