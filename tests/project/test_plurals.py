"""Every count a person reads is in its singular or its plural, never "action(s)"."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from tests.support import ROOT

BRACKETED_S = re.compile(r"[a-z]\(s\)(?!\s*=>)")


def _words_in(path: Path) -> list[tuple[int, str]]:
    """The lines of a source file that may hold words a person reads: a Python module's
    strings, each line of a script or page (a call like ``f(s)`` is no word)."""
    text = path.read_text("utf-8")
    if path.suffix != ".py":
        return list(enumerate(text.splitlines(), 1))
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [(tok.start[0], tok.string) for tok in tokens if tok.type == tokenize.STRING]


def test_no_count_a_person_reads_is_written_with_an_s_in_brackets():
    """"1 action(s)": every count the table, the page, the terminal and the logs say is in
    its singular or its plural, never both at once."""
    sources = [p for layer in ("engine", "firmware", "hardware") for p in
               (ROOT / layer).rglob("*") if p.suffix in (".py", ".js", ".html")]
    found = [f"{p.relative_to(ROOT)}:{n}: {words.strip()}" for p in sources
             for n, words in _words_in(p) if BRACKETED_S.search(words)]
    assert not found, "\n".join(found)
