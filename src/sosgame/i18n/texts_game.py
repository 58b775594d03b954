"""The line-mode game's texts and those every interface shares (modes, results).

In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, plural, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text("mode.general", "general"),
    text("mode.simple", "simple"),
    text("title", "SOS, {mode} mode, on a {rows}x{cols} board. Players: {names}."),
    text("to_move", "{name} to move."),
    text("to_move_again", "{name} to move again: extra turn!"),
    text("scores", "Scores: {scores}"),
    text("moves", "Moves: {moves}"),
    text("no_moves", "(none yet)"),
    plural(
        "extra_turn",
        "{name} made {count} SOS ({lines}) and moves again.",
        "{name} made {count} SOS ({lines}) and moves again.",
    ),
    plural(
        "scored",
        "{name} made {count} SOS ({lines}).",
        "{name} made {count} SOS ({lines}).",
    ),
    text("occupied", "Cell {cell} already holds a letter. Choose an empty cell."),
    text("off_board", "Cell {cell} is not on this {rows}x{cols} board."),
    text(
        "not_understood",
        "'{text}' is neither a move nor a command. Type a move such as Sb2, or help.",
    ),
    text("game_over", "The game is over. Type undo, save FILE or quit."),
    text("game_over_final", "The game is over. Type save FILE or quit."),
    text("winner", "{name} wins: {reason}."),
    text("draw", "A draw between {names}: {reason}."),
    text("reason.full-board", "the board is full"),
    text("reason.sos", "the first SOS"),
    text("reason.resignation", "every other player resigned"),
    text("reason.timeout", "the others ran out of time or resigned"),
    text("reason.agreement", "the players agreed"),
    text("reason.abandoned", "a player left the game"),
    text("reason.aborted", "the game was aborted"),
    text("aborted", "The game was aborted: nobody wins."),
    text("resigned", "{name} resigns."),
    text("already_resigned", "{name} has already resigned."),
    text("no_such_player", "There is no player {text}: give a number from 1 to {most}."),
    text("no_argument", "'{command}' takes nothing after it, not '{text}'."),
    text("undone", "Took back {action}."),
    text("resign_action", "resign {seat}"),
    text("nothing_to_undo", "There is nothing to take back."),
    text("saved", "Saved the game to {path}."),
    text("save_failed", "Could not save the game: {error}"),
    text("save_needs_file", "Say where to save: save FILE"),
    text("goodbye", "Goodbye."),
    text("computer_played", "{name} plays {move}."),
    text(
        "confirm_quit",
        "The moves since the game was last saved would be lost. Quit anyway? Type {yes} to "
        "quit, anything else to play on.",
    ),
    text("answer_yes", "yes"),
    text(
        "help",
        "Type a move as the letter, then the cell: Sb2 writes S in column b, row 2.\n"
        "Commands:\n"
        "  undo        take back the last move\n"
        "  resign      the player to move resigns (resign N: player N resigns)\n"
        "  save FILE   save the game as a record file\n"
        "  moves       list the moves so far\n"
        "  rules       explain the rules\n"
        "  help        show this help\n"
        "  quit        leave the game",
    ),
    text(
        "rules",
        "SOS is a pencil-and-paper game for two or more players on a grid of squares.\n"
        "On your turn, write an S or an O in any empty square; you choose the "
        "letter each time.\n"
        "Three squares in a straight row, across, down or diagonally, that read "
        "S-O-S make an SOS.\n"
        "Each SOS you complete scores one point, and one letter can complete "
        "several at once.\n"
        "Completing an SOS earns another move at once, for as long as you keep "
        "scoring; otherwise the turn passes to the next player.\n"
        "General mode: when the grid is full, the player with the most SOSs "
        "wins; a tie for the most is a draw.\n"
        "Simple mode: the first player to complete an SOS wins at once; a full "
        "grid without one is a draw.",
    ),
    text("player", "Player {number}"),
]
