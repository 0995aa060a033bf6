"""Laying out a rules sheet: what every game's ``rules_text`` shares."""

from __future__ import annotations

import textwrap


def layout_sheet(sections: list[tuple[str, list[str]]], width: int = 78) -> str:
    """Titled sections of paragraphs, wrapped to ``width``.

    The first title is underlined with "=", the others with "-". A paragraph
    that starts with "-" or "1." hangs under its marker; one that starts
    with "--" (an option) is indented by two.
    """
    out: list[str] = []
    for title, paragraphs in sections:
        out += [title, "=" * len(title) if not out else "-" * len(title)]
        for para in paragraphs:
            marker = para.split(" ", 1)[0]
            bullet = marker == "-" or (marker[:-1].isdigit() and marker.endswith("."))
            indent = " " * (len(marker) + 1) if bullet else "  " if marker[:2] == "--" else ""
            out.append(textwrap.fill(para, width=width, subsequent_indent=indent))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
