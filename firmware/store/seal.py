"""Sealed journal entries: hidden game facts on disk that a reader cannot see.

High Rise must keep its hidden values (and what is inside each stack) in
the journal, or a restart could not resume the game; but anyone reading the
journal before the end must learn nothing from it. So those entries are
sealed: encrypted with a key kept in a separate file of the state
directory, readable only by the service's user, and authenticated, so a
changed byte is refused rather than misread.

The cipher is HMAC-SHA256 in counter mode (a keyed pseudo-random stream,
XORed with the text) plus an HMAC tag over the result: both from the
standard library, nothing to install on the Pi.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from firmware.store.state_dir import StateDirError, disk_advice, sync_dir, write_all
from hardware.files import KIB, read_limited

KEY_FILE = "seal.key"
_NONCE = 16
_TAG = 16
_PUT_IT_BACK = ("put back the seal.key that was there when those games were played (it is "
                "the only key that opens them)")


class SealError(StateDirError):
    """A sealed entry that cannot be opened (missing key, or changed bytes)."""


class Sealer:
    """Seals and opens JSON values with the key of one state directory."""

    def __init__(self, state_dir: str | Path) -> None:
        self.path = Path(state_dir) / KEY_FILE
        self._key: bytes | None = None

    @classmethod
    def of_key(cls, key: bytes) -> Sealer:
        """A sealer with a key given, not kept in a file (two tables of a match seal what
        crosses the broker with a key both derive from their game's seed)."""
        sealer = cls(".")
        sealer._key = key
        return sealer

    def check(self, journal_is_sealed: bool) -> None:
        """Refuse early, with the fix, what would make sealed entries unreadable.

        A key that cannot be read is an error whatever the journal holds; a
        missing key is an error while the journal keeps sealed entries (a new
        key would never open them, and the old one, put back, would not open
        the new game). Missing with nothing sealed is a first game: ``seal``
        makes the key.
        """
        if not self.path.exists() and not self.path.is_symlink() and not journal_is_sealed:
            return
        try:
            self._load(create=False)
        except SealError as exc:
            if journal_is_sealed and not self.path.exists():
                raise SealError(f"{self.path} is missing, but the journal beside it keeps "
                                f"sealed High Rise entries: {_PUT_IT_BACK}. To give up on "
                                "them, start afresh with --new-game (an unfinished game is "
                                "kept in an archived journal) or move journal.jsonl "
                                "aside") from None
            raise exc from None

    def _load(self, create: bool) -> bytes:
        if self._key is None:
            try:
                text = read_limited(self.path, 4 * KIB).decode("ascii").strip()
            except FileNotFoundError:
                if not create:
                    raise SealError(f"{self.path} is missing, so the hidden facts of this "
                                    f"game cannot be opened: {_PUT_IT_BACK}") from None
                self._key = self._create()
                return self._key
            except (OSError, UnicodeDecodeError) as exc:
                why = exc.strerror if isinstance(exc, OSError) else "not a text file"
                raise SealError(f"{self.path} cannot be read ({why}): {_PUT_IT_BACK}") from None
            try:
                key = bytes.fromhex(text)
            except ValueError:
                raise SealError(f"{self.path} is damaged (not a hex key): "
                                f"{_PUT_IT_BACK}") from None
            if len(key) != 32:
                raise SealError(f"{self.path} holds a key of the wrong length: {_PUT_IT_BACK}")
            self._key = key
        return self._key

    def _create(self) -> bytes:
        """A new key, written whole and never over an existing one."""
        key = secrets.token_bytes(32)
        tmp = self.path.with_name(f".{KEY_FILE}.new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                write_all(fd, key.hex().encode("ascii") + b"\n")
                os.fsync(fd)
            finally:
                os.close(fd)
            os.link(tmp, self.path)  # fails if a key appeared meanwhile: never replace one
            tmp.unlink()
            sync_dir(self.path.parent)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            if isinstance(exc, FileExistsError):
                raise SealError(f"{self.path} appeared while a new key was made: start "
                                "again") from None
            raise SealError(f"cannot make the seal key: {disk_advice(exc, self.path)}") from None
        return key

    def seal(self, value: object) -> str:
        """``value`` as JSON, encrypted and tagged, in printable text."""
        key = self._load(create=True)
        nonce = secrets.token_bytes(_NONCE)
        plain = json.dumps(value, separators=(",", ":")).encode("utf-8")
        body = bytes(a ^ b for a, b in zip(plain, _stream(key, nonce, len(plain)), strict=True))
        tag = hmac.new(key, b"tag" + nonce + body, hashlib.sha256).digest()[:_TAG]
        return base64.b64encode(nonce + body + tag).decode("ascii")

    def unseal(self, text: str) -> object:
        """The value sealed in ``text``; SealError if the key or the bytes are wrong."""
        key = self._load(create=False)
        try:
            raw = base64.b64decode(text.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            raise SealError("a sealed journal entry is not valid base64") from None
        nonce, body, tag = raw[:_NONCE], raw[_NONCE:-_TAG], raw[-_TAG:]
        if len(raw) < _NONCE + _TAG or not hmac.compare_digest(
                tag, hmac.new(key, b"tag" + nonce + body, hashlib.sha256).digest()[:_TAG]):
            raise SealError("a sealed journal entry was changed or sealed with another key")
        plain = bytes(a ^ b for a, b in zip(body, _stream(key, nonce, len(body)), strict=True))
        return json.loads(plain)


def _stream(key: bytes, nonce: bytes, length: int) -> bytes:
    blocks = (length + 31) // 32
    return b"".join(hmac.new(key, nonce + n.to_bytes(8, "big"), hashlib.sha256).digest()
                    for n in range(blocks))[:length]
