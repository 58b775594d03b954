"""Reading and writing the program's files: records, certificates and puzzle sets.

Every file the program reads goes through :func:`read_text`: a regular file only (never a
folder, a pipe or a device such as ``/dev/zero``, which would never end), at most a given
size (decompressed, for a ``.gz`` file), UTF-8 text with no binary data, and JSON nested no
deeper than the kind of file ever needs. The depth is checked before the JSON parser sees the
text (:func:`check_text`), because Python's parser recurses once per level: a few kilobytes of
``[`` would otherwise end in a ``RecursionError`` deep inside it. Text that comes from
elsewhere (an upload) goes through :func:`check_text` alone.

Every file the program writes goes through :func:`write_file`: the data goes to a temporary
file in the target's folder, flushed to the disk, then renamed over the target, so that a
reader (or a crash) sees the old file or the new one, never half of one. A symbolic link is
written through, to the file it names; a path that is a folder, a pipe, a device or a socket
is refused, never replaced.

Errors are :class:`~sosgame.errors.FileError`, whose message names the file and says what
is wrong with it in one line.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import zlib
from itertools import accumulate
from pathlib import Path
from typing import Final

from sosgame.errors import FileError

__all__ = [
    "bracket_depth",
    "check_text",
    "check_value",
    "check_writable",
    "gunzip",
    "nesting",
    "outside_strings",
    "read_bytes",
    "read_text",
    "write_file",
]

# A string, closed or not. The repeats are possessive and an unclosed string runs to the end
# of the text, so the scan never comes back to look again at a character it has passed.
_STRING: Final = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]++")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
_CHUNK: Final = 1024 * 1024
_GZIP: Final = 16 + zlib.MAX_WBITS


def outside_strings(text: str) -> str:
    """The JSON ``text`` with every string (closed or not) made a space, in one pass."""
    return _STRING.sub(" ", text)


def bracket_depth(outside: str) -> int:
    """How deep the brackets of ``outside`` (JSON text without its strings) nest."""
    brackets = _NOT_BRACKET.sub("", outside)
    return max(accumulate(map(_STEP.__getitem__, brackets), initial=0))


def nesting(text: str) -> int:
    """How deep the arrays and objects in the JSON ``text`` nest (brackets inside strings,
    closed or not, do not count)."""
    return bracket_depth(outside_strings(text))


def check_text(data: bytes | str, *, depth: int) -> str:
    """``data`` as text fit for the JSON parser: UTF-8 with no binary data, its arrays and
    objects nested at most ``depth`` deep.

    :raises FileError: saying what is wrong (without a path: the caller knows where the text
        came from).
    """
    if isinstance(data, bytes):
        if b"\0" in data:
            raise FileError("it holds binary data, not text", code="file_binary")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise FileError("it is not UTF-8 text", code="file_not_utf8") from None
    elif "\0" in data:
        raise FileError("it holds binary data, not text", code="file_binary")
    if nesting(data) > depth:
        raise FileError(
            f"it nests lists or objects more than {depth} deep",
            code="file_too_deep",
            values={"most": depth},
        )
    return data


def gunzip(data: bytes, *, most: int) -> bytes:
    """The gzip-compressed ``data`` decompressed, if that is at most ``most`` bytes.

    :raises FileError: saying what is wrong (without a path).
    """
    inflater = _Gunzip(most)
    whole = inflater.feed(data)
    inflater.end()
    return whole


def check_value(value: object, *, depth: int) -> None:
    """Check that the lists and objects of a parsed JSON ``value`` nest at most ``depth``
    deep, as :func:`check_text` checks its text (for JSON another parser has read).

    :raises FileError: if they nest deeper.
    """
    level = [value]
    for _ in range(depth + 1):
        level = [
            item
            for container in level
            if isinstance(container, list | dict)
            for item in (container.values() if isinstance(container, dict) else container)
        ]
        if not level:
            return
    raise FileError(
        f"it nests lists or objects more than {depth} deep",
        code="file_too_deep",
        values={"most": depth},
    )


def read_bytes(path: str | Path, *, most: int, gzipped: bool = False) -> bytes:
    """The bytes of the regular file at ``path``, at most ``most`` of them (once
    decompressed, if ``gzipped``).

    :raises FileError: naming the file and what is wrong.
    """
    try:
        data = _read(path, most, gzipped)
    except OSError as error:
        raise _error("read", path, error.strerror or str(error), error.errno) from None
    except FileError as error:
        raise _error("read", path, error) from None
    return data


def read_text(path: str | Path, *, most: int, depth: int, gzipped: bool = False) -> str:
    """The text of the JSON file at ``path``, read by :func:`read_bytes` and checked by
    :func:`check_text`.

    :raises FileError: naming the file and what is wrong.
    """
    data = read_bytes(path, most=most, gzipped=gzipped)
    try:
        return check_text(data, depth=depth)
    except FileError as error:
        raise _error("read", path, error) from None


def write_file(path: str | Path, data: bytes) -> None:
    """Write ``data`` to the file at ``path`` whole, or leave what was there.

    A symbolic link is written through to its target; a folder, pipe, device or socket at
    ``path`` is refused. The new file keeps the permissions of the one it replaces.

    :raises FileError: naming the file and what is wrong (nothing is left behind then).
    """
    try:
        _write(path, data)
    except OSError as error:
        raise _error("write", path, error.strerror or str(error), error.errno) from None
    except FileError as error:
        raise _error("write", path, error) from None


def _error(verb: str, path: str | Path, reason: object, number: int | None = None) -> FileError:
    return FileError(
        f"cannot {verb} {str(path)!r}: {reason}",
        code=f"file_{verb}",
        values={"path": str(path), "reason": reason, "errno": number},
    )


def _special() -> FileError:
    return FileError(
        "it is a device, a pipe or a socket, not a regular file", code="file_not_regular"
    )


def _read(path: str | Path, most: int, gzipped: bool) -> bytes:
    # Without O_NONBLOCK, opening a pipe no one writes to would wait for ever.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    handle = os.open(path, flags)
    try:
        kind = os.fstat(handle).st_mode
        if stat.S_ISDIR(kind):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(kind):
            raise _special()
        gunzip = _Gunzip(most) if gzipped else None
        pieces = []
        taken = 0
        # Counted as it comes, not by the size the system gives: a file may grow as it is read.
        while chunk := os.read(handle, _CHUNK):
            taken += len(chunk)
            if taken > most:
                raise _too_large(most)
            pieces.append(chunk if gunzip is None else gunzip.feed(chunk))
    finally:
        os.close(handle)
    if gunzip is not None:
        gunzip.end()
    return b"".join(pieces)


class _Gunzip:
    """Decompresses gzip data fed to it a piece at a time, to at most ``most`` bytes."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.size = 0
        self.inflater = zlib.decompressobj(_GZIP)
        self.inside = False  # within a gzip member (an empty file is not gzip data either)
        self.members = 0

    def feed(self, data: bytes) -> bytes:
        parts = []
        try:
            while data:
                self.inside = True
                part = self.inflater.decompress(data, self.most + 1 - self.size)
                parts.append(part)
                self.size += len(part)
                if self.size > self.most:
                    raise _too_large(self.most)
                data = self.inflater.unconsumed_tail
                if self.inflater.eof:  # another member may follow
                    data = self.inflater.unused_data + data
                    self.inflater = zlib.decompressobj(_GZIP)
                    self.inside = False
                    self.members += 1
        except zlib.error:
            raise _not_gzip() from None
        return b"".join(parts)

    def end(self) -> None:
        if self.inside or not self.members:
            raise _not_gzip()


def _not_gzip() -> FileError:
    return FileError("it is not whole gzip-compressed data", code="file_not_gzip")


def _too_large(most: int) -> FileError:
    return FileError(
        f"it is larger than {most:,} bytes", code="file_too_large", values={"most": f"{most:,}"}
    )


def check_writable(path: str | Path) -> None:
    """Check, before long work whose result goes there, that :func:`write_file` would not
    refuse ``path`` for what it is (a folder, a pipe, a device).

    :raises FileError: naming the file and what is wrong.
    """
    try:
        _target(path)
    except OSError as error:
        raise _error("write", path, error.strerror or str(error), error.errno) from None
    except FileError as error:
        raise _error("write", path, error) from None


def _target(path: str | Path) -> tuple[Path, os.stat_result | None]:
    """The file a write to ``path`` replaces (through a symbolic link), and its state if it
    exists; a folder or a special file is refused."""
    target = Path(path)
    if not target.name:  # "/": a folder, never a file's name
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    try:
        before: os.stat_result | None = target.stat()
    except FileNotFoundError:
        before = None
    if before is not None and stat.S_ISDIR(before.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if before is not None and not stat.S_ISREG(before.st_mode):
        raise _special()
    return target, before


def _write(path: str | Path, data: bytes) -> None:
    target, before = _target(path)
    partial = target.with_name(f".{target.name}.{secrets.token_hex(4)}.partial")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    handle = os.open(partial, flags, 0o666 if before is None else stat.S_IMODE(before.st_mode))
    try:
        with os.fdopen(handle, "wb") as file:
            if before is not None:
                os.chmod(file.fileno(), stat.S_IMODE(before.st_mode))
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, target)
    except BaseException:  # a full disk, or Ctrl-C while it wrote: the old file stays
        partial.unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Flush the folder's entry for the renamed file to the disk, where the system allows."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
