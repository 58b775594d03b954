"""Where the compiled kernels are kept, whether they are ready, and how they get built.

Compiling every kernel (:mod:`sosgame.kernel`, :mod:`sosgame.search`) takes a minute or more
of CPU, once per install and source. No person should wait for it, so a process never
compiles them on its own unless told to. When it finds the disk cache incomplete it runs its
kernels as plain Python, which answers within a move's time, and starts one build in the
background (:func:`start_build`): a low-priority process of its own session that compiles
everything into the cache and leaves a mark there. Each process started after the mark
appears loads the compiled kernels in about a second; a server replaces its worker processes
once it sees the mark (:func:`ready`).

Kept apart from the kernel so that reading the plan and the mark never loads numba.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final, Literal, NamedTuple

if TYPE_CHECKING:
    import subprocess

# hashlib, importlib.metadata, shutil, subprocess and tempfile are imported where they are
# used: the command line reads this module's names before every command, --help included.

__all__ = [
    "COMPILED_FOLDERS",
    "KERNELS_VARIABLE",
    "CachePlan",
    "Mode",
    "build_now",
    "choose_mode",
    "forget_other_digests",
    "numba_wanted",
    "plan",
    "plan_cache",
    "prepare",
    "ready",
    "ready_mark",
    "source_digest",
    "start_build",
]

KERNELS_VARIABLE: Final = "SOSGAME_KERNELS"
"""The environment variable that chooses how kernels run: ``auto`` (the default: compiled when
the cache is ready, else plain Python while it is built in the background), ``compiled``
(compile here whatever the cache lacks, however long it takes) or ``plain`` (never compile)."""

COMPILED_FOLDERS: Final = ("kernel", "search")
"""The package's folders whose modules hold compiled functions."""

Mode = Literal["compiled", "plain", "pending"]
"""How this process runs its kernels: compiled; plain Python for good (no numba, or chosen);
or plain Python while the compiled ones are built in the background."""


class CachePlan(NamedTuple):
    """Whether numba caches compiled kernels, and the folder to tell it (None: its own choice)."""

    enabled: bool
    folder: str | None


def _writable(folder: Path) -> bool:
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _private(base: Path) -> bool:
    """Whether ``base`` (in a folder other users write to) is this user's alone: compiled code
    loaded from a folder another user could write would run their code."""
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        facts = base.stat()
    except OSError:
        return False
    uid = getattr(os, "getuid", lambda: facts.st_uid)()
    return facts.st_uid == uid and not facts.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def source_digest(package: Path) -> str:
    """A short digest of the source of every module in :data:`COMPILED_FOLDERS` of ``package``.

    numba keys a cached function on its own file alone, so an edit to a helper that it inlines
    from another file would leave the old machine code in use; caching under this digest
    compiles every kernel afresh after any change to any of those files.
    """
    import hashlib

    digest = hashlib.sha256()
    for folder in COMPILED_FOLDERS:
        for path in sorted((package / folder).glob("*.py")):
            digest.update(f"{folder}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def plan_cache(package: Path, environ: Mapping[str, str]) -> CachePlan:
    """Where kernels compiled from the modules of folder ``package`` are cached.

    ``NUMBA_CACHE_DIR`` when set; else the package's ``__pycache__/numba`` when it is
    writable; else the user cache folder; else a private folder of this user's in the
    system's temporary folder, so that a read-only install with no writable home still keeps
    its kernels; else (nothing writable at all) no cache. The folder named is a subfolder of
    that one, named by :func:`source_digest`.
    """
    digest = source_digest(package)
    chosen = environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return CachePlan(True, str(Path(chosen) / f"sosgame-{digest}"))
    user_cache = environ.get("XDG_CACHE_HOME")
    if user_cache:
        user_base = Path(user_cache)
    else:
        user_base = Path(environ.get("HOME") or "~").expanduser() / ".cache"
    for base in (package / "__pycache__" / "numba", user_base / "sosgame" / "numba"):
        if _writable(base / digest):
            return CachePlan(True, str(base / digest))
    import tempfile

    temporary = Path(environ.get("TMPDIR") or tempfile.gettempdir())
    shared = temporary / f"sosgame-{getattr(os, 'getuid', lambda: 0)()}"
    if _private(shared) and _writable(shared / "numba" / digest):
        return CachePlan(True, str(shared / "numba" / digest))
    return CachePlan(False, None)


def forget_other_digests(folder: Path) -> None:
    """Delete the caches of earlier source beside ``folder`` (what :func:`plan_cache` named).

    Only in the package's or the user's cache folder, whose subfolders are all digests; a
    cache another process is still reading is simply compiled again there.
    """
    import shutil

    for other in folder.parent.iterdir():
        if other != folder and other.is_dir() and len(other.name) == len(folder.name):
            shutil.rmtree(other, ignore_errors=True)


_PACKAGE: Final = Path(__file__).parent


@cache
def plan() -> CachePlan:
    """This process's cache plan: :func:`plan_cache` of the installed package."""
    return plan_cache(_PACKAGE, os.environ)


def _numba_version() -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        return None


def ready_mark(folder: str | Path) -> Path:
    """The mark a finished build leaves in cache ``folder``: named by numba's and Python's
    versions, since code compiled by one is not loaded by another."""
    python = f"{sys.version_info.major}{sys.version_info.minor}"
    return Path(folder) / f"ready-numba{_numba_version()}-py{python}"


def ready() -> bool:
    """Whether every kernel is compiled in this process's cache (never loads numba)."""
    folder = plan().folder
    return folder is not None and ready_mark(folder).exists()


def choose_mode(have_jit: bool, cache_plan: CachePlan, environ: Mapping[str, str]) -> Mode:
    """How a process runs its kernels: see :data:`KERNELS_VARIABLE` and :data:`Mode`.

    ``have_jit``: numba is installed and not disabled. Without any cache folder, compiled
    code would be lost with each process, so such a process compiles for itself as before.
    """
    chosen = environ.get(KERNELS_VARIABLE, "auto")
    if not have_jit or chosen == "plain":
        return "plain"
    if chosen == "compiled" or not cache_plan.enabled or cache_plan.folder is None:
        return "compiled"
    return "compiled" if ready_mark(cache_plan.folder).exists() else "pending"


def _build(wait: bool) -> tuple[list[str], dict[str, str]]:
    """The build's command line and environment (it compiles what it lacks)."""
    command = [sys.executable, "-m", "sosgame.ai.build", *(["--wait"] if wait else [])]
    return command, dict(os.environ, **{KERNELS_VARIABLE: "compiled"})


_started: list[subprocess.Popen[bytes]] = []


def start_build() -> None:
    """Start the background build of the compiled kernels, once per process.

    It runs in a session of its own (a Ctrl-C or the end of this program leaves it to
    finish), at low priority, and quits at once when another build holds its lock.
    """
    import subprocess

    if _started:
        return
    folder = plan().folder
    with contextlib.ExitStack() as stack, contextlib.suppress(OSError):
        log: int | IO[bytes] = subprocess.DEVNULL
        if folder is not None:
            # What went wrong, if anything, is kept beside the cache rather than shown.
            Path(folder).mkdir(parents=True, exist_ok=True)
            log = stack.enter_context(open(Path(folder) / "build.log", "wb"))
        command, environment = _build(wait=False)
        _started.append(
            subprocess.Popen(
                command,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                close_fds=True,
            )
        )


def prepare() -> None:
    """Start the background build now if this install will want it (numba installed and
    enabled, the cache incomplete), without loading numba: for a server, whose searches run
    in worker processes that should find the kernels ready as soon as can be."""
    if numba_wanted() and choose_mode(True, plan(), os.environ) == "pending":
        start_build()


def numba_wanted() -> bool:
    """Whether numba is installed and not disabled, found without loading it."""
    import importlib.util

    try:
        found = importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        found = False
    return found and os.environ.get("NUMBA_DISABLE_JIT", "0") != "1"


def build_now() -> int:
    """Build the compiled kernels now, or wait for a build under way; the build's exit status.

    For programs that need compiled kernels before they start (a test session, a benchmark).
    """
    import subprocess

    command, environment = _build(wait=True)
    return subprocess.run(command, env=environment, check=False).returncode
