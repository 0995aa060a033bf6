"""What the club code takes from disk or from the wire, made safe before it is used.

A file is read only once it is known to be a regular file of a bounded size
(a FIFO would hang the reader, a device or a huge file would eat its
memory), and text that came over MQTT is cleaned of control characters
before a person sees it on a page or in a log (a carriage return can forge
a log line, an escape sequence can repaint a terminal, a bidi override can
turn a name around).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from hardware.files import FileRefused, read_limited

__all__ = ["FileRefused", "clean", "clean_all", "read_bounded", "topic_trouble"]

CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                      "\ud800-\udfff\ufeff]")
"""C0 and C1 controls, line and paragraph separators, bidi marks and overrides, lone
surrogates and the byte order mark: none belongs in a name, a result or a log line."""
MQTT_TOPIC_MAX = 65535
"""An MQTT topic's length in UTF-8 bytes (a two-byte length prefix)."""
_NOT_IN_TOPIC = re.compile("[+#\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def read_bounded(path: str | Path, limit: int, follow: bool = True) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes (``follow=False``:
    and no symbolic link); the table's own reader, ``hardware.files.read_limited``."""
    return read_limited(path, limit, follow=follow)


def clean(text: object, limit: int = 200) -> str:
    """``text`` as a person may see it: control characters each shown as one space, at most
    ``limit`` characters (an ellipsis says more was cut)."""
    words = CONTROLS.sub(" ", str(text))
    return words if len(words) <= limit else words[:limit - 1] + "…"


def clean_all(data: object, limit: int = 2000) -> object:
    """``data`` (parsed JSON) with every string in it cleaned, keys too."""
    if isinstance(data, str):
        return clean(data, limit) if CONTROLS.search(data) or len(data) > limit else data
    if isinstance(data, dict):
        return {clean(k, limit): clean_all(v, limit) for k, v in data.items()}
    if isinstance(data, list):
        return [clean_all(v, limit) for v in data]
    return data


def topic_trouble(topic: object) -> str | None:
    """Why MQTT cannot carry ``topic`` as a message's topic, or None if it can: empty, a
    wildcard, a character the protocol (or mosquitto) refuses, more than 65535 bytes."""
    if not isinstance(topic, str) or not topic:
        return "its topic is empty or not text"
    bad = _NOT_IN_TOPIC.search(topic)
    if bad:
        return f"its topic holds {bad.group()!r}, which no MQTT message's topic may hold"
    size = len(topic.encode("utf-8"))
    if size > MQTT_TOPIC_MAX:
        return f"its topic is {size} bytes long, more than MQTT's {MQTT_TOPIC_MAX}"
    return None


class CleanFormatter(logging.Formatter):
    """A log line that is one line, whatever words from the wire it carries."""

    def format(self, record: logging.LogRecord) -> str:
        return clean(super().format(record), 4000)
