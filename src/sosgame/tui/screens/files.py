"""The dialogs that ask for a record file: to save the game, or to open one."""

from __future__ import annotations

from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label

from sosgame.tui.screens.base import TranslatedModal
from sosgame.tui.widgets.keybar import hidden_bindings

__all__ = ["DEFAULT_FILE", "LoadDialog", "SaveDialog"]

DEFAULT_FILE: Final = "sos-game.json"


class _FileDialog(TranslatedModal):
    """A title, a file name and buttons; Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = hidden_bindings(("escape", "cancel"))
    TITLE_KEY = ""
    BUTTONS: tuple[tuple[str, str], ...] = ()

    def __init__(self, path: str | None = None) -> None:
        super().__init__()
        self.path = path or DEFAULT_FILE

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(id="dialog-title")
            yield Label(id="file-label")
            yield Input(self.path, id="file")
            with Horizontal(classes="buttons"):
                for name, _ in self.BUTTONS:
                    yield Button(id=name, variant="primary" if name != "cancel" else "default")

    def on_mount(self) -> None:
        self.retranslate()
        self.query_one("#file", Input).focus()

    def retranslate(self) -> None:
        self.query_one("#dialog-title", Label).update(self.t(self.TITLE_KEY))
        self.query_one("#file-label", Label).update(self.t("tui.file"))
        for name, key in self.BUTTONS:
            self.query_one(f"#{name}", Button).label = self.t(key)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.choose(self.BUTTONS[0][0])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.choose(event.button.id or "cancel")

    def action_cancel(self) -> None:
        self.dismiss(None)

    def choose(self, button: str) -> None:
        """Answer with the file name and the button pressed (``cancel``: no answer)."""
        path = self.query_one("#file", Input).value.strip()
        if button == "cancel":
            self.dismiss(None)
        elif path:
            self.dismiss(self.answer(path, button))

    def answer(self, path: str, button: str) -> object:
        """What the dialog returns for ``path`` and ``button``."""
        return path


class SaveDialog(_FileDialog):
    """Asks where to save the game; answers with the file name."""

    TITLE_KEY = "tui.save_title"
    BUTTONS = (("save", "tui.save"), ("cancel", "tui.cancel"))


class LoadDialog(_FileDialog):
    """Asks which record to open; answers ``(path, "continue" or "replay")``."""

    TITLE_KEY = "tui.load_title"
    BUTTONS = (("continue", "tui.continue"), ("replay", "tui.replay"), ("cancel", "tui.cancel"))

    def answer(self, path: str, button: str) -> object:
        return (path, button)
