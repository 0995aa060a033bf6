"""What a power cut can leave of a journal line: the start of one JSON object, no more.

The journal (``firmware.store.journal``) appends one JSON object and a newline at a time and
fsyncs each; a power cut in the middle of an append leaves a last line cut short anywhere
in it, never a wrong byte. ``begins_an_entry`` tells such a line from damage: a whole entry
whose newline became another byte holds a confirmed action, and is not to be dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

_BLANK = frozenset(b" \t\r")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_ESCAPES = frozenset(b'"\\/bfnrt')
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_START = re.compile(rb"-|-?(?:0|[1-9][0-9]*)(?:\.[0-9]*|(?:\.[0-9]+)?[eE][+-]?[0-9]*)?")
_NUMBER_RUN = re.compile(rb"[-+0-9.eE]+")
_WORDS = (b"true", b"false", b"null", b"NaN", b"Infinity", b"-Infinity")
_WORD_RUN = re.compile(rb"-?[A-Za-z]+")


def begins_an_entry(raw: bytes) -> bool:
    """Whether ``raw`` is the start of a JSON object cut anywhere: all that a power cut in
    the middle of an append leaves of a journal line (the object not closed, no newline).

    A recogniser of JSON's prefixes: containers, strings (escapes cut short too), numbers
    and words, each allowed to stop at the end of ``raw`` and nowhere else. Every entry
    begins with its brace (the journal writes no blank before it).
    """
    if not raw.startswith(b"{"):
        return False
    stack, want, i = [ord("{")], "key_or_close", 1
    while i < len(raw):
        if raw[i] in _BLANK:
            i += 1
        elif want == "done":
            return False  # something after the whole object
        else:
            i, want = _STEPS[want](raw, i, stack)
            if i < 0:
                return i == CUT
    return want != "done"  # a whole object here is one that json refused: damaged


CUT, BAD = -1, -2
"""What a step of ``begins_an_entry`` found instead of where its token ends: the end of the
bytes inside the token (a write cut short there), or bytes no JSON has there."""
Step = tuple[int, str]


def _close(raw: bytes, i: int, stack: list[int]) -> Step:
    """A closing bracket: it must close the innermost open one ("{" + 2 is "}")."""
    if stack.pop() != raw[i] - 2:
        return BAD, ""
    return i + 1, ("after_value" if stack else "done")


def _after_value(raw: bytes, i: int, stack: list[int]) -> Step:
    if raw[i] in b"}]":
        return _close(raw, i, stack)
    if raw[i] != ord(","):
        return BAD, ""
    return i + 1, ("key" if stack[-1] == ord("{") else "value")


def _key(raw: bytes, i: int, stack: list[int], first: bool = False) -> Step:
    if first and raw[i] == ord("}"):
        return _close(raw, i, stack)
    if raw[i] != ord('"'):
        return BAD, ""
    return _string_end(raw, i), "colon"


def _colon(raw: bytes, i: int, stack: list[int]) -> Step:
    return (i + 1, "value") if raw[i] == ord(":") else (BAD, "")


def _value(raw: bytes, i: int, stack: list[int], first: bool = False) -> Step:
    c = raw[i]
    if first and c == ord("]"):
        return _close(raw, i, stack)
    if c in b"{[":
        stack.append(c)
        return i + 1, ("key_or_close" if c == ord("{") else "value_or_close")
    end = _string_end(raw, i) if c == ord('"') else _scalar_end(raw, i)
    return end, "after_value"


_STEPS: dict[str, Callable[[bytes, int, list[int]], Step]] = {
    "key_or_close": partial(_key, first=True), "key": _key, "colon": _colon,
    "value_or_close": partial(_value, first=True), "value": _value,
    "after_value": _after_value}
"""What to read next (``want``) -> the step that reads it: where its token ends, and what
comes after."""


def _string_end(raw: bytes, i: int) -> int:
    """Where the string opening at ``i`` ends (CUT: cut short inside it; BAD)."""
    i += 1
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == ord('"'):
            return i + 1
        if c < 0x20:
            return BAD  # json takes no control byte inside a string
        if c == ord("\\"):
            if i + 1 >= n:
                return CUT
            if raw[i + 1] == ord("u"):
                digits = raw[i + 2:i + 6]
                if not all(d in _HEX for d in digits):
                    return BAD
                if len(digits) < 4:
                    return CUT
                i += 6
                continue
            if raw[i + 1] not in _ESCAPES:
                return BAD
            i += 2
            continue
        i += 1
    return CUT


def _scalar_end(raw: bytes, i: int) -> int:
    """Where the number or word starting at ``i`` ends (CUT: cut short inside it; BAD)."""
    word = _WORD_RUN.match(raw, i)
    if word is not None:
        text = word.group()
        if word.end() == len(raw):
            return CUT if any(w.startswith(text) for w in _WORDS) else BAD
        return word.end() if text in _WORDS else BAD
    run = _NUMBER_RUN.match(raw, i)
    if run is None:
        return BAD
    if run.end() == len(raw):
        return CUT if _NUMBER_START.fullmatch(run.group()) else BAD
    return run.end() if _NUMBER.fullmatch(run.group()) else BAD
