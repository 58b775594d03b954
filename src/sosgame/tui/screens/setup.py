"""The new-game screen: board size, mode, the players (people or computer levels), who starts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar, Final, cast

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from sosgame.errors import InvalidSettingsError, SosError
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, MODES, Game, Mode
from sosgame.i18n import LANGUAGES, default_name, error_text, is_default_name
from sosgame.levels import LEVELS
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_LONG_SIDE, BOARD_MIN_SIDE, RECORD_MAX_NAME
from sosgame.notation import check_size
from sosgame.record import Start, starting_game
from sosgame.settings import check_names
from sosgame.table import PERSON, Seat
from sosgame.tui.screens.base import TranslatedScreen
from sosgame.tui.seats import seat_key
from sosgame.tui.session import Session
from sosgame.tui.widgets.keybar import KeyBar

__all__ = ["SETUP_KEYS", "Settings", "SetupScreen"]

SETUP_KEYS: Final = (
    ("Tab", "tui.key.next_field"),
    ("Enter", "tui.key.start_game"),
    ("F3", "tui.key.language"),
    ("F1", "tui.key.help"),
    ("ctrl+q", "tui.key.quit"),
    ("Esc", "tui.key.return"),
)
_KINDS: Final = (PERSON, *LEVELS)


@dataclass
class Settings:
    """What the new-game screen starts with (the command line may fill it in)."""

    rows: int = 5
    cols: int = 5
    mode: Mode = "general"
    players: int = 2
    names: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    first: int = 0


class TickBox(Checkbox):
    """A check box that shows a tick only when it is checked (an empty box otherwise)."""

    def __init__(self, *, value: bool, id: str) -> None:
        super().__init__(value=value, id=id, compact=True)
        self.BUTTON_INNER = self._inner()

    def _inner(self) -> str:
        return "✓" if self.value else " "

    def watch_value(self) -> None:
        super().watch_value()
        self.BUTTON_INNER = self._inner()


class SetupScreen(TranslatedScreen):
    """Chooses the settings and starts the game; Escape goes back to a game in progress.

    Enter starts the game from any field (an open list of choices takes it to choose);
    the first field is the board size."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        Binding("f3", "app.language", show=False),
        Binding("enter", "start", show=False, priority=True),
    ]

    def __init__(self, settings: Settings, *, can_go_back: bool = False) -> None:
        super().__init__()
        self.settings = settings
        self.can_go_back = can_go_back
        self._problem: Callable[[], str] | None = None
        """What is wrong with the settings, as last said."""

    def compose(self) -> ComposeResult:
        s = self.settings
        yield Static(id="title")
        with VerticalScroll(id="setup"):
            with Horizontal(classes="field"):
                yield Label(id="size-label", classes="field-label")
                yield Input(str(s.rows), id="rows", type="integer", max_length=2, compact=True)
                yield Label("x", id="by")
                yield Input(str(s.cols), id="cols", type="integer", max_length=2, compact=True)
                yield TickBox(id="rectangular", value=s.rows != s.cols)
            with Horizontal(classes="field"):
                yield Label(id="mode-label", classes="field-label")
                yield Select(
                    self._mode_options(), id="mode", value=s.mode, allow_blank=False, compact=True
                )
            with Horizontal(classes="field"):
                yield Label(id="players-label", classes="field-label")
                yield Select(
                    [(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
                    id="players",
                    value=s.players,
                    allow_blank=False,
                    compact=True,
                )
            with Vertical(id="seats"):
                for seat in range(MAX_PLAYERS):
                    with Horizontal(classes="seat", id=f"seat-{seat}"):
                        yield Label(
                            Text.assemble(seat_key(seat), f"  {seat + 1}"),
                            classes="seat-badge",
                        )
                        yield Input(
                            self._default_name(seat),
                            id=f"name-{seat}",
                            max_length=RECORD_MAX_NAME,
                            compact=True,
                            classes="seat-name",
                        )
                        yield Select(
                            self._kind_options(),
                            id=f"kind-{seat}",
                            value=self._kind(seat),
                            allow_blank=False,
                            compact=True,
                            classes="seat-kind",
                        )
            with Horizontal(classes="field"):
                yield Label(id="first-label", classes="field-label")
                yield Select(
                    [
                        (f"{seat + 1}. {self._default_name(seat)}", seat)
                        for seat in range(s.players)
                    ],
                    id="first",
                    value=s.first if s.first < s.players else 0,
                    allow_blank=False,
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label(id="lang-label", classes="field-label")
                yield Select(
                    [(name, code) for code, name in LANGUAGES.items()],
                    id="lang",
                    value=self.sos.language,
                    allow_blank=False,
                    compact=True,
                )
            yield Static(id="setup-error")
            yield Button(id="start", variant="success")
        yield KeyBar(SETUP_KEYS if self.can_go_back else SETUP_KEYS[:-1], id="keys")

    def _default_name(self, seat: int) -> str:
        s = self.settings
        if seat < len(s.names):
            return s.names[seat]
        return default_name(self.t, seat, computer=self._kind(seat) != PERSON)

    def _mode_options(self) -> list[tuple[str, str]]:
        return [(self.t(f"mode.{mode}"), mode) for mode in MODES]

    def _kind_options(self) -> list[tuple[str, str]]:
        return [(self.t(f"tui.kind.{name}"), name) for name in _KINDS]

    def _kind(self, seat: int) -> str:
        kinds = self.settings.kinds
        return kinds[seat] if seat < len(kinds) else PERSON

    def on_mount(self) -> None:
        self.retranslate()
        self._show_seats()
        self.query_one("#rows", Input).focus()

    def retranslate(self) -> None:
        self.query_one("#title", Static).update(Text(self.t("tui.new_game"), "bold"))
        for name, key in (
            ("size", "tui.size"),
            ("mode", "tui.mode"),
            ("players", "tui.players"),
            ("first", "tui.first"),
            ("lang", "tui.language"),
        ):
            self.query_one(f"#{name}-label", Label).update(self.t(key))
        self.query_one("#rectangular", Checkbox).label = self.t("tui.rectangular")
        self._set_options("mode", self._mode_options())
        for seat in range(MAX_PLAYERS):
            self._set_options(f"kind-{seat}", self._kind_options())
            current = self.query_one(f"#kind-{seat}", Select).value
            field = self.query_one(f"#name-{seat}", Input)
            if is_default_name(field.value, seat):
                field.value = default_name(self.t, seat, computer=current != PERSON)
        self._first_options()
        self.query_one("#start", Button).label = self.t("tui.start")
        if self._problem is not None:
            self._error(self._problem)
        self.query_one("#keys", KeyBar).translate(self.sos.t)
        lang = self.query_one("#lang", Select)
        if lang.value != self.sos.language:
            lang.value = self.sos.language

    def _set_options(self, select_id: str, options: Sequence[tuple[str, object]]) -> None:
        _replace_options(self.query_one(f"#{select_id}", Select), options)

    def _first_options(self) -> None:
        players = self._players()
        names = [self.query_one(f"#name-{seat}", Input).value for seat in range(players)]
        first: Select[int] = self.query_one("#first", Select)
        value = first.value if first.value != Select.BLANK else self.settings.first
        options = [(f"{seat + 1}. {name}", seat) for seat, name in enumerate(names)]
        _replace_options(first, options, value if isinstance(value, int) else 0)

    def _players(self) -> int:
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else self.settings.players

    def _show_seats(self) -> None:
        players = self._players()
        for seat in range(MAX_PLAYERS):
            self.query_one(f"#seat-{seat}").display = seat < players
        rectangular = self.query_one("#rectangular", Checkbox).value
        self.query_one("#cols", Input).disabled = not rectangular
        if not rectangular:
            self.query_one("#cols", Input).value = self.query_one("#rows", Input).value

    def on_select_changed(self, event: Select.Changed) -> None:
        self.call_after_refresh(self._recheck)
        select_id = event.select.id or ""
        if select_id == "players":
            self._show_seats()
            self._first_options()
        elif select_id == "lang" and event.value != self.sos.language:
            self.sos.set_language(str(event.value))
        elif select_id.startswith("kind-"):
            seat = int(select_id.removeprefix("kind-"))
            name = self.query_one(f"#name-{seat}", Input)
            if is_default_name(name.value, seat):
                name.value = default_name(self.t, seat, computer=event.value != PERSON)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._show_seats()
        self._recheck()
        if event.value:  # a rectangle: on to the number of columns
            self.call_after_refresh(self.query_one("#cols", Input).focus)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # The row of the field with the focus is marked too (its label in reverse video).
        for row in self.query(".field, .seat"):
            row.set_class(row in event.widget.ancestors, "focused")

    def on_input_changed(self, event: Input.Changed) -> None:
        self._recheck()
        if event.input.id == "rows":
            self._show_seats()
        elif (event.input.id or "").startswith("name-"):
            self._first_options()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter chooses from an open list of choices rather than start the game.
        return action != "start" or not any(select.expanded for select in self.query(Select))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def action_back(self) -> None:
        if self.can_go_back:
            self.sos.close_screen()

    def _error(self, text: Callable[[], str]) -> None:
        """Say what is wrong; ``text`` gives it in the current language, again after F3."""
        self._problem = text
        self.query_one("#setup-error", Static).update(Text(text(), "bold red"))

    def _board_size(self) -> tuple[int, int] | None:
        """The board size typed in, if the rules allow it."""
        square = not self.query_one("#rectangular", Checkbox).value
        fields = ("rows",) if square else ("rows", "cols")
        sides = [self.query_one(f"#{name}", Input).value.strip() for name in fields]
        if not all(side.isdigit() for side in sides):
            return None
        rows, cols = int(sides[0]), int(sides[-1])
        try:
            check_size(rows, cols)  # the engine's own limits, not a copy
        except SosError:
            return None
        return rows, cols

    def _seats(self) -> list[Seat]:
        """The seats as filled in."""
        return [
            Seat(
                self.query_one(f"#name-{seat}", Input).value.strip(),
                str(self.query_one(f"#kind-{seat}", Select).value),
            )
            for seat in range(self._players())
        ]

    def _problem_now(self) -> tuple[Callable[[], str], Input | None] | None:
        """What is wrong with the settings as they stand, and the field to correct, if any."""
        if self._board_size() is None:
            bad_board = partial(
                self.t, "tui.bad_board", low=BOARD_MIN_SIDE, high=BOARD_MAX_SIDE,
                line=BOARD_MIN_LONG_SIDE,
            )  # fmt: skip
            return bad_board, self.query_one("#rows", Input)
        seats = self._seats()
        for seat, chosen in enumerate(seats):
            field = self.query_one(f"#name-{seat}", Input)
            if not chosen.name:
                return partial(self.t, "tui.bad_name", number=seat + 1, most=RECORD_MAX_NAME), field
            try:  # the core's checks: no control characters, no name at two seats
                check_names([taken.name for taken in seats[: seat + 1]])
            except InvalidSettingsError as error:
                if error.code != "name_same":
                    return partial(error_text, self.t, error), field
                other = int(str(error.values.get("first", 0))) - 1
                same = partial(
                    self.t, "tui.same_name", first=other + 1, second=seat + 1, name=chosen.name
                )
                return same, field
        for chosen in seats:
            if chosen.is_computer and self.sos.check_level(chosen.kind):
                return partial(self.sos.check_level, chosen.kind), None
        return None

    def _recheck(self) -> None:
        """Once what was found wrong is corrected, take the message away."""
        if self._problem is not None and self._problem_now() is None:
            self._problem = None
            self.query_one("#setup-error", Static).update("")

    def action_start(self) -> None:
        """Check the settings and start the game, or say what is wrong."""
        problem = self._problem_now()
        if problem is not None:
            text, field = problem
            self._error(text)
            if field is not None:
                field.focus()
            return
        rows, cols = self._board_size() or (0, 0)
        players = self._players()
        first = self.query_one("#first", Select).value
        first = first if isinstance(first, int) and first < players else 0
        mode: Mode = "simple" if self.query_one("#mode", Select).value == "simple" else "general"
        try:
            game = new_game(rows, cols, players=players, mode=mode, first=first)
        except SosError as error:
            self._error(partial(str, error))
            return
        self.sos.replace_session(Session(game, self._seats()))


def _replace_options(
    select: Select[Any], options: Sequence[tuple[str, Any]], value: object = None
) -> None:
    """Give ``select`` new option texts, keeping its value (or choosing ``value``), and show
    the text of the value chosen, even where the value stays the same."""
    keep = select.value if value is None else value
    select.set_options(options)
    if any(option == keep for _, option in options):
        select.value = keep
    # Select redraws its current text only when the value changes: make it redraw now.
    select.mutate_reactive(cast("Any", Select).value)


def new_game(rows: int, cols: int, *, players: int, mode: Mode, first: int = 0) -> Game:
    """A new game in which seat ``first`` moves first (every seat keeps its number).

    :raises SosError: (from the engine) for settings the rules do not allow.
    """
    # Another seat than the first to move: an empty starting board with that seat's turn.
    start = Start("/".join(["." * cols] * rows), first) if first else None
    return starting_game(rows, cols, players=players, mode=mode, start=start)
