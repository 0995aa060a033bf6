"""What the fault benches count: per class of fault, tries and losses, and a note per loss."""

from __future__ import annotations

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
