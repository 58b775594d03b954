"""The full-screen SOS game: the app that holds the language and moves between screens."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual.app import App
from textual.binding import BindingType

from sosgame.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator
from sosgame.levels import HINT_LEVEL
from sosgame.record import Record
from sosgame.tui.cells import measure_spacing_marks
from sosgame.tui.screens.base import Translates
from sosgame.tui.screens.confirm import ConfirmDialog
from sosgame.tui.screens.game import GameScreen
from sosgame.tui.screens.puzzle import PuzzleScreen
from sosgame.tui.screens.replay import ReplayScreen
from sosgame.tui.screens.setup import Settings, SetupScreen
from sosgame.tui.screens.text import HelpScreen, RulesScreen
from sosgame.tui.session import Session
from sosgame.tui.widgets.keybar import hidden_bindings

if TYPE_CHECKING:
    from sosgame.ai import Player
    from sosgame.game import Action

__all__ = ["SosApp"]

_NAMES: Final[dict[str, str]] = {code: name for code, name in LANGUAGES.items()}


class SosApp(App[int]):
    """The game. Start it with a ``session`` to play at once, a ``record`` to replay, or
    neither to open the new-game screen (filled in from ``settings``).

    ``seed`` makes the computer players' choices reproducible; ``computer_delay`` is the least
    time, in seconds, a computer takes per move, so that people can follow its moves.
    """

    CSS_PATH = "sosgame.tcss"
    TITLE = "SOS"
    BINDINGS: ClassVar[list[BindingType]] = hidden_bindings(
        ("question_mark,f1", "help"),
        ("f2", "rules"),
        ("L,f3", "language"),
        ("f4", "puzzles"),
        ("q", "quit"),
    )

    def __init__(
        self,
        *,
        session: Session | None = None,
        record: Record | None = None,
        settings: Settings | None = None,
        language: str = DEFAULT_LANGUAGE,
        seed: int | None = None,
        seconds: float | None = None,
        computer_delay: float = 0.4,
        message: str = "",
    ) -> None:
        measure_spacing_marks()
        super().__init__()
        self.language = language
        self.t: Callable[..., str] = translator(language)
        self.seed = seed
        self.seconds = seconds
        self.computer_delay = computer_delay
        self.hint_level = HINT_LEVEL
        self.last_path: str | None = None
        self.settings = settings or Settings()
        self._first_session = session
        self._first_record = record
        self._first_message = message

    def on_mount(self) -> None:
        # What exists once the first screen is up (widgets, styles, Rich's tables) lives as
        # long as the game: taken out of the collector's sight, a full collection no longer
        # walks it, which otherwise costs a key press tens of milliseconds now and then.
        self.call_after_refresh(gc.freeze)
        if self._first_session is not None:
            self.start_session(self._first_session, self._first_message)
        elif self._first_record is not None:
            self.open_replay(self._first_record)
        else:
            self.push_screen(SetupScreen(self.settings))

    # ------------------------------------------------------------------------ screens

    def start_session(self, session: Session, message: str = "") -> None:
        """Play ``session`` on a new game screen, in place of every screen open now."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(GameScreen(session, message))

    @property
    def session(self) -> Session | None:
        """The game in play, if there is one (under any dialog or other screen)."""
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen.session
        return None

    def _unsaved(self, then: Session | None = None) -> bool:
        """Whether leaving the game in play for ``then`` (or for nothing) loses moves."""
        session = self.session
        if session is None or not session.unsaved:
            return False
        if then is None:
            return True
        kept = list(session.game.actions)
        # Playing on from the end of this very game (its replay, say) loses nothing.
        return list(then.game.actions[: len(kept)]) != kept or then.game.start != session.game.start

    def replace_session(self, session: Session, message: str = "") -> None:
        """Play ``session`` in place of the game in play; ask first if that loses moves
        that are not saved."""
        if not self._unsaved(session):
            self.start_session(session, message)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.start_session(session, message)

        self.push_screen(ConfirmDialog("tui.confirm_leave", "tui.yes_leave"), answered)

    async def action_quit(self) -> None:
        """Leave the game; ask first if the game in play has moves that are not saved."""
        if isinstance(self.screen, ConfirmDialog):
            return
        if not self._unsaved():
            self.exit(0)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.exit(0)

        self.push_screen(ConfirmDialog("tui.confirm_quit", "tui.yes_quit"), answered)

    def open_setup(self, session: Session | None = None) -> None:
        """Open the new-game screen over the game in progress (Escape goes back), filled in
        with that game's settings and players."""
        settings = self.settings
        if session is not None:
            game = session.game
            settings = Settings(
                rows=game.rows,
                cols=game.cols,
                mode=game.mode,
                players=game.players,
                names=session.names,
                kinds=[seat.kind for seat in session.seats],
                first=0 if game.start is None else game.start[1],
            )
        self.push_screen(SetupScreen(settings, can_go_back=True))

    def open_replay(
        self, record: Record, *, at_end: bool = False, saved: list[Action] | None = None
    ) -> None:
        """Replay ``record`` move by move, from its start or (``at_end``) from its end;
        ``saved`` is what a file holds of it (by default: the whole record)."""
        self.push_screen(ReplayScreen(record, at_end=at_end, saved=saved))

    def close_screen(self) -> None:
        """Close the current screen if there is one under it, else leave the game."""
        if len(self.screen_stack) > 2:
            self.pop_screen()
        else:
            self.exit(0)

    def action_help_quit(self) -> None:
        """Ctrl+C: say how to quit, in the game's language (Textual's own words are English)."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                how = self.t("tui.quit_how", shortcut=key)
                self.notify(how, title=self.t("tui.quit_title"), markup=False)
                return

    def action_puzzles(self) -> None:
        """Open the puzzle screen over the screen shown (Escape comes back)."""
        if not isinstance(self.screen, PuzzleScreen):
            self.push_screen(PuzzleScreen(seed=self.seed))

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen | RulesScreen):
            self.push_screen(HelpScreen())

    def action_rules(self) -> None:
        if not isinstance(self.screen, HelpScreen | RulesScreen):
            self.push_screen(RulesScreen())

    # ------------------------------------------------------------------------ language

    def set_language(self, language: str) -> None:
        """Show every screen in ``language`` (a code of :data:`sosgame.i18n.LANGUAGES`)."""
        self.t = translator(language)
        self.language = language
        for screen in self.screen_stack:
            if isinstance(screen, Translates):
                screen.retranslate()

    def action_language(self) -> None:
        codes: list[str] = list(LANGUAGES)
        self.set_language(codes[(codes.index(self.language) + 1) % len(codes)])
        if isinstance(self.screen, GameScreen):
            self.screen.say(Text(self.t("tui.language_set", name=_NAMES[self.language])))

    # ----------------------------------------------------------------- computer players

    def player(self, level: str) -> Player:
        """A computer player of ``level``.

        :raises ImportError: if this installation has no computer players.
        :raises SosError: for a level that is not available.
        """
        from sosgame.ai import make_player

        return make_player(level, seconds=self.seconds, seed=self.seed)

    def check_level(self, level: str) -> str:
        """Why a computer of ``level`` cannot play here, in the app's language, or ``""``."""
        try:
            self.player(level)
        except ImportError:
            return self.t("tui.ai_missing")
        except ValueError:
            return self.t("tui.level_missing", level=self.t(f"tui.level.{level}"))
        return ""
