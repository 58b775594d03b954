"""The help and rules screens: a page of text over the game; any closing key returns."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from sosgame.tui.screens.base import TranslatedModal
from sosgame.tui.screens.replay import REPLAY_KEYS
from sosgame.tui.widgets.keybar import hidden_bindings

__all__ = ["HelpScreen", "RulesScreen"]

_MORE_KEYS: Final = (
    ("←↑↓→ hjkl", "tui.key.move"),
    ("s o", "tui.key.write"),
    ("u", "tui.key.undo"),
    ("r", "tui.key.redo"),
    ("x", "tui.key.resign"),
    ("i", "tui.key.hint"),
    ("m", "tui.key.last_move"),
    ("ctrl+s", "tui.key.save"),
    ("ctrl+o", "tui.key.load"),
    ("p", "tui.key.replay"),
    ("n", "tui.key.new"),
    ("L F3", "tui.key.language"),
    ("? F1", "tui.key.help"),
    ("F2", "tui.key.rules"),
    ("F4", "tui.key.puzzles"),
    ("q", "tui.key.quit"),
)


class _Page(TranslatedModal):
    BINDINGS: ClassVar[list[BindingType]] = hidden_bindings(("escape,q,enter,space", "close"))
    TITLE_KEY = ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Label(id="page-title")
            with VerticalScroll(id="page-body"):
                yield Static(id="page-text")
            yield Label(id="page-close")

    def on_mount(self) -> None:
        self.retranslate()

    def retranslate(self) -> None:
        self.query_one("#page-title", Label).update(Text(self.t(self.TITLE_KEY), "bold"))
        self.query_one("#page-text", Static).update(self.body())
        self.query_one("#page-close", Label).update(Text(self.t("tui.close_page"), "dim"))

    def body(self) -> Text:
        """The page's text."""
        return Text()

    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(_Page):
    """Every key of the game and of the replay."""

    TITLE_KEY = "tui.help_title"

    def body(self) -> Text:
        text = Text()
        width = max(len(key) for key, _ in (*_MORE_KEYS, *REPLAY_KEYS))
        for heading, keys in (("tui.help_game", _MORE_KEYS), ("tui.help_replay", REPLAY_KEYS)):
            text.append(self.t(heading) + "\n", "bold underline")
            for key, label in keys:
                text.append(f"  {key:<{width}}  ", "bold")
                text.append(self.t(label) + "\n")
            text.append("\n")
        text.append(self.t("tui.help_mouse"))
        return text


class RulesScreen(_Page):
    """The rules, as the line-mode game tells them."""

    TITLE_KEY = "tui.rules_title"

    def body(self) -> Text:
        return Text("\n\n".join(self.t("rules").splitlines()))
