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
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

KEY_FILE = "seal.key"
_NONCE = 16
_TAG = 16


class SealError(RuntimeError):
    """A sealed entry that cannot be opened (missing key, or changed bytes)."""


class Sealer:
    """Seals and opens JSON values with the key of one state directory."""

    def __init__(self, state_dir: str | Path) -> None:
        self.path = Path(state_dir) / KEY_FILE
        self._key: bytes | None = None

    def _load(self, create: bool) -> bytes:
        if self._key is None:
            try:
                self._key = bytes.fromhex(self.path.read_text("ascii").strip())
            except FileNotFoundError:
                if not create:
                    raise SealError(
                        f"{self.path} is missing, so this game's hidden facts cannot be "
                        "opened: put the key file back, or start a new game") from None
                self._key = self._create()
            except ValueError:
                raise SealError(f"{self.path} is damaged (not a hex key): put the original "
                                "back, or start a new game") from None
            if len(self._key) != 32:
                raise SealError(f"{self.path} holds a key of the wrong length: put the "
                                "original back, or start a new game")
        return self._key

    def _create(self) -> bytes:
        key = secrets.token_bytes(32)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, key.hex().encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
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
