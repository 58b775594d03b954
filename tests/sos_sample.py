"""Parameters of which the fast tier (``make check``) runs a sample: the others are marked
``slow``, so that ``make test`` still runs every one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest


def sampled(values: Iterable[Any], fast: Iterable[Any], *, several: bool = False) -> list[Any]:
    """``values`` as parameters, those not in ``fast`` marked ``slow``; ``several``: each
    value is a tuple of several arguments."""
    chosen = list(fast)
    return [
        pytest.param(
            *(value if several else (value,)), marks=() if value in chosen else pytest.mark.slow
        )
        for value in values
    ]
