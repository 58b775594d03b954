"""A kept sample of a proof too large to keep whole.

:func:`extract` takes random entries of a certificate (and every entry near the root), checks
each of them against the whole proof, and writes them with the claims their checks use, taken
from the whole proof, as ``assumed``. The sample's file then checks on its own: each kept entry
holds given the claims it uses, and the root's value follows from the claims of its children,
but the claims themselves are not proven there. ``sampled_from`` records the size of the
whole proof, so :func:`sosgame.certify.check` reports a kept sample as such, never as proven.
"""

from __future__ import annotations

import random
from typing import Any, Final

from sosgame.certify import FORMAT, CertificateError, _Checker, _Claim

__all__ = ["TOP_PLIES", "extract"]

TOP_PLIES: Final = 1
"""Entries within this many filled cells of the root are always kept, not sampled."""


class _Recorder(_Checker):
    """A checker of the whole proof that notes which boards' claims a check looks up."""

    def __init__(self, document: dict[str, Any]) -> None:
        super().__init__(document)
        self.used: set[str] = set()

    def _claims_of(self, text: str) -> tuple[_Claim, ...]:
        self.used.add(text)
        return super()._claims_of(text)


def extract(document: dict[str, Any], count: int, *, seed: int = 0) -> dict[str, Any]:
    """A certificate keeping ``count`` random entries of ``document`` (chosen by ``seed``).

    Entries within :data:`TOP_PLIES` of the root are kept as well. Every kept entry is
    checked against the whole proof first, so a sample is only written from a proof whose
    kept part holds.

    :raises CertificateError: if ``document`` is not a certificate, ``count`` is not a whole
        number of at least 1, or a kept entry does not hold.
    """
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise CertificateError(f"the sample size must be a whole number of at least 1: {count!r}")
    recorder = _Recorder(document)
    recorder.check_root()
    boards = sorted(recorder.entries)
    root_empty = recorder.position.count(".")
    kept = {text for text in boards if text.count(".") >= root_empty - TOP_PLIES}
    rest = [text for text in boards if text not in kept]
    kept.update(random.Random(seed).sample(rest, min(count, len(rest))))
    for text in sorted(kept):
        recorder.check_entry(text)
    assumed = {
        text: claim
        for text in recorder.used - kept
        for claims in (recorder.entries, recorder.assumed)
        if (claim := claims.get(text)) is not None
    }
    entries = [[text, *recorder.entries[text]] for text in sorted(kept)]
    return {
        "format": FORMAT,
        "version": document["version"],
        "rows": document["rows"],
        "cols": document["cols"],
        "mode": document["mode"],
        "position": recorder.position,
        "value": recorder.value,
        "sampled_from": document.get("sampled_from") or len(boards),
        "entries": entries,
        "assumed": [[text, lower, upper] for text, (lower, _, upper) in sorted(assumed.items())],
    }
