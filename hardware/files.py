"""Reading a file the table was given: a regular file, no bigger than its kind can be.

``/dev/zero`` named as a profile would be read for ever, a FIFO blocks whoever
opens it, and a journal swapped for a huge file would take a Pi Zero's memory.
So every file the table reads is opened without blocking, checked on the open
descriptor to be a regular file, and read no further than its kind's limit.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

KIB = 1024
MIB = 1024 * KIB


class FileRefused(OSError):
    """Not a regular file, or larger than its kind allows. Its text (``str`` and
    ``strerror``) says which, in words that read after the file's name."""

    def __str__(self) -> str:
        return str(self.strerror)


def _size_words(limit: int) -> str:
    if limit >= MIB:
        return f"{limit // MIB} MiB"
    return f"{limit // KIB} KiB" if limit >= KIB else f"{limit} bytes"


def _kind(mode: int) -> str:
    for test, words in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
                        (stat.S_ISBLK, "a disk device")):
        if test(mode):
            return words
    return "something else"


def _open_regular(path: str | Path, follow: bool) -> int:
    """A descriptor on ``path`` opened without blocking (a FIFO would wait for a writer)
    and checked to be a regular file; FileRefused when it is something else."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise FileRefused(errno.ELOOP, "it is a symbolic link, not a regular file",
                              str(path)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(errno.EINVAL, f"it is {_kind(mode)}, not a regular file",
                              str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_limited(path: str | Path, limit: int, *, follow: bool = True) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes; FileRefused (an
    OSError) when it is something else, the OSError of the open otherwise (a missing file,
    a permission). ``follow=False`` refuses a symbolic link too (a file in a folder others
    may write to, such as the club's outbox)."""
    fd = _open_regular(path, follow)
    too_big = FileRefused(errno.EFBIG, f"it is larger than such a file can be (at most "
                          f"{_size_words(limit)}): is it the right file?", str(path))
    try:
        if os.fstat(fd).st_size > limit:
            raise too_big
        chunks, left = [], limit + 1  # it may have grown since the fstat
        while left > 0 and (chunk := os.read(fd, min(left, 1 * MIB))):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > limit:
        raise too_big
    return raw


def read_tail(path: str | Path, count: int) -> bytes:
    """The last ``count`` bytes of ``path`` (fewer if it is shorter), a regular file of any
    size: what a file ends with, checked the way ``read_limited`` checks a file."""
    fd = _open_regular(path, follow=True)
    try:
        size = os.fstat(fd).st_size
        return os.pread(fd, count, max(0, size - count))
    finally:
        os.close(fd)
