"""What the fault benches count: per class of fault, tries and losses, and a note per loss."""

from __future__ import annotations

import argparse
from collections.abc import Callable


class Tally:
    """Tries and losses of each class (``names``: class number -> a few words)."""

    def __init__(self, names: dict[int, str]) -> None:
        self.names = names
        self.tried = dict.fromkeys(names, 0)
        self.lost = dict.fromkeys(names, 0)
        self.notes: list[str] = []

    def check(self, kind: int, held: bool, what: str) -> None:
        self.tried[kind] += 1
        if not held:
            self.lost[kind] += 1
            self.notes.append(f"class {kind}: {what}")

    def scenario(self, kind: int, what: str, trial: Callable[[], object]) -> None:
        """``trial()`` run once: held when it raises nothing."""
        try:
            trial()
        except Exception as exc:  # whatever it was, that try lost something
            self.check(kind, False, f"{what}: {exc!r}"[:300])
        else:
            self.check(kind, True, what)

    def rows(self) -> list[dict]:
        return [{"class": k, "name": self.names[k], "tried": self.tried[k],
                 "held": self.tried[k] - self.lost[k], "lost": self.lost[k]}
                for k in self.names]


def report(bench: str, rows: list[dict]) -> None:
    """One line per class, then the bench's total: what every fault bench prints."""
    for row in rows:
        print(f"class {row['class']:<2} {row['name']:<26} tried={row['tried']:<4} "
              f"held={row['held']:<4} lost={row['lost']}", flush=True)
    print(f"{bench}: tried={sum(r['tried'] for r in rows)} "
          f"held={sum(r['held'] for r in rows)} lost={sum(r['lost'] for r in rows)}")


def bench_main(bench: str, doc: str, run: Callable[[int], list[dict]]) -> None:
    """A fault bench's command line: ``--rounds N`` (3 by default), then its report."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    report(bench, run(parser.parse_args().rounds))
