"""One name for one thing in every language: the words around a game's mode read the same in
every title that names it (the game's, the analysis', the terminal's)."""

from __future__ import annotations

import re

import pytest

from sosgame.i18n import LANGUAGES, translator

TITLES = ("title", "tui.header", "web.game_title", "web.analysis_title")
MODE_PHRASE = re.compile(r"([^\s,.:;·]+ )?\{mode\}( [^\s,.:;·{]+)?")


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_mode_is_named_alike_in_every_title(language: str) -> None:
    t = translator(language)
    values = {"mode": "{mode}", "rows": 5, "cols": 5, "names": "Ann, Bao"}
    phrases = {key: MODE_PHRASE.search(t(key, **values)) for key in TITLES}
    assert all(phrases.values()), phrases
    found = {key: match.group(0) for key, match in phrases.items() if match}
    assert len(set(found.values())) == 1, found
