"""What every screen of the game shares: the app's words, in its current language."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from sosgame.record import Record
from sosgame.tui.layout import least_size
from sosgame.tui.session import Session

if TYPE_CHECKING:
    from sosgame.ai import Player
    from sosgame.game import Action

__all__ = ["GameApp", "TranslatedModal", "TranslatedScreen", "Translates"]


class GameApp(Protocol):
    """What the screens ask of the game's app, :class:`sosgame.tui.app.SosApp` (which imports
    every screen)."""

    language: str
    last_path: str | None
    computer_delay: float
    hint_level: str
    t: Callable[..., str]

    def replace_session(self, session: Session, message: str = "") -> None: ...

    def open_setup(self, session: Session | None = None) -> None: ...

    def open_replay(
        self, record: Record, *, at_end: bool = False, saved: list[Action] | None = None
    ) -> None: ...

    def close_screen(self) -> None: ...

    def set_language(self, language: str) -> None: ...

    def player(self, level: str) -> Player: ...

    def check_level(self, level: str) -> str: ...


class Translates:
    """A screen that shows text in the app's language and redraws it when that changes."""

    @property
    def sos(self) -> GameApp:
        """The game's app."""
        return cast(GameApp, cast(Screen[Any], self).app)

    def t(self, key: str, **values: object) -> str:
        """The text of ``key`` in the app's language."""
        return self.sos.t(key, **values)

    def retranslate(self) -> None:
        """Show every text again in the app's (new) language."""


class TranslatedScreen(Translates, Screen[None]):
    """A full screen of the game."""

    def check_room(self, width: int, height: int, players: int) -> bool:
        """Whether a game of ``players`` can be drawn on a ``width`` x ``height`` terminal; if
        not, the screen's ``#too-small`` text says so in place of the rest."""
        least_width, least_height = least_size(players)
        small = width < least_width or height < least_height
        self.set_class(small, "too-small")
        if small:
            text = self.t(
                "tui.too_small", width=least_width, height=least_height, now=f"{width}x{height}"
            )
            self.query_one("#too-small", Static).update(text)
        return not small


class TranslatedModal(Translates, ModalScreen[Any]):
    """A dialog over another screen."""
