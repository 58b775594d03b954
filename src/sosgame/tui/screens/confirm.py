"""A question before something that cannot be taken back: quitting, leaving or overwriting."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from sosgame.tui.screens.base import TranslatedModal
from sosgame.tui.widgets.keybar import hidden_bindings

__all__ = ["ConfirmDialog"]


class ConfirmDialog(TranslatedModal):
    """Asks ``question`` (a catalog key, with ``values``); answers True for the button
    ``yes`` (a catalog key) and False for Cancel or Escape. Cancel has the focus, so that a
    stray Enter loses nothing."""

    BINDINGS: ClassVar[list[BindingType]] = hidden_bindings(("escape", "answer(False)"))

    def __init__(self, question: str, yes: str, **values: object) -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.values = values

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(id="question")
            with Horizontal(classes="buttons"):
                yield Button(id="yes", variant="error")
                yield Button(id="no", variant="primary")

    def on_mount(self) -> None:
        self.retranslate()
        self.query_one("#no", Button).focus()

    def retranslate(self) -> None:
        self.query_one("#question", Label).update(self.t(self.question, **self.values))
        self.query_one("#yes", Button).label = self.t(self.yes)
        self.query_one("#no", Button).label = self.t("tui.cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
