"""A line of keys and what they do, in the interface's language (Textual's footer is not)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widget import Widget

__all__ = ["KeyBar", "hidden_bindings", "keys_text"]

_GAP = "  "


def hidden_bindings(*pairs: tuple[str, str]) -> list[BindingType]:
    """Bindings of (keys, action) pairs kept out of Textual's footer, which cannot be
    translated: a :class:`KeyBar` shows the keys instead."""
    return [Binding(keys, action, show=False) for keys, action in pairs]


def keys_text(
    keys: Sequence[tuple[str, str]], translate: Callable[..., str], width: int = 0
) -> Text:
    """``keys`` as pairs of (key, catalog key of what it does), wrapped between pairs only
    to lines of ``width`` cells (0: one line)."""
    text = Text(no_wrap=True, overflow="crop", end="")
    used = 0
    for number, (key, label) in enumerate(keys):
        words = translate(label)
        # Terminals differ on the width of Devanagari vowel signs: count every character as at
        # least one cell, so that a Hindi line never runs past the edge.
        pair = f" {key}  {words}"
        size = max(cell_len(pair), len(pair))
        if number and width and used + len(_GAP) + size > width:
            text.append("\n")
            used = 0
        elif number:
            text.append(_GAP)
            used += len(_GAP)
        text.append(f" {key} ", "bold reverse")
        text.append(f" {words}")
        used += size
    return text


class KeyBar(Widget):
    """The keys of the current screen; on a narrow terminal it wraps between keys."""

    DEFAULT_CSS = """
    KeyBar {
        height: auto;
    }
    """

    def __init__(self, keys: Sequence[tuple[str, str]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys = list(keys)
        self._translate: Callable[..., str] = lambda key, **values: key

    def translate(self, translate: Callable[..., str]) -> None:
        """Show the keys in the language of ``translate``."""
        if translate != self._translate:
            self._translate = translate
            self.refresh(layout=True)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(keys_text(self.keys, self._translate, width).plain.split("\n"))

    def render(self) -> Text:
        return keys_text(self.keys, self._translate, self.content_size.width)
