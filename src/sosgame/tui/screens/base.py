"""What every screen of the game shares: the app's words, in its current language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.screen import ModalScreen, Screen

if TYPE_CHECKING:
    from sosgame.tui.app import SosApp

__all__ = ["TranslatedModal", "TranslatedScreen", "Translates"]


class Translates:
    """A screen that shows text in the app's language and redraws it when that changes."""

    @property
    def sos(self) -> SosApp:
        """The game's app."""
        return cast("SosApp", cast(Screen[Any], self).app)

    def t(self, key: str, **values: object) -> str:
        """The text of ``key`` in the app's language."""
        return self.sos.t(key, **values)

    def retranslate(self) -> None:
        """Show every text again in the app's (new) language."""


class TranslatedScreen(Translates, Screen[None]):
    """A full screen of the game."""


class TranslatedModal(Translates, ModalScreen[Any]):
    """A dialog over another screen."""
