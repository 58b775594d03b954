"""Every text the interfaces show, in English, the source language of the catalogs.

Each entry is marked for extraction: ``make catalogs`` reads them with Babel into
``locale/sosgame.pot`` (the key is the message context, the English text the message id),
merges that into each language's ``.po`` file and compiles the ``.mo`` files read at run time.
Placeholders such as ``{name}`` are filled in by :func:`sosgame.i18n.translator`; a
:func:`plural` text is chosen by its ``{count}`` under each language's plural rule.
"""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, plural, text

__all__ = ["TEXTS"]

TEXTS: Final[dict[str, Source]] = dict(
    [
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
        text("winner", "{name} wins: {reason}."),
        text("draw", "A draw between {names}: {reason}."),
        text("reason.full-board", "the board is full"),
        text("reason.sos", "the first SOS"),
        text("reason.resignation", "every other player resigned"),
        text("resigned", "{name} resigns."),
        text("already_resigned", "{name} has already resigned."),
        text("no_such_player", "There is no player {text}: give a number from 1 to {most}."),
        text("no_argument", "'{command}' takes nothing after it, not '{text}'."),
        text("undone", "Took back {action}."),
        text("nothing_to_undo", "There is nothing to take back."),
        text("saved", "Saved the game to {path}."),
        text("save_failed", "Could not save the game: {error}"),
        text("save_needs_file", "Say where to save: save FILE"),
        text("goodbye", "Goodbye."),
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
        text("tui.header", "SOS · {mode} mode · {rows}x{cols} board"),
        text("tui.new_game", "New game"),
        text("tui.size", "Board size"),
        text("tui.rectangular", "Rectangular"),
        text("tui.mode", "Mode"),
        text("tui.players", "Players"),
        text("tui.first", "Who starts"),
        text("tui.language", "Language"),
        text("tui.start", "Start the game"),
        text("tui.kind.person", "Person"),
        text("tui.kind.random", "Computer: random"),
        text("tui.kind.easy", "Computer: easy"),
        text("tui.kind.medium", "Computer: medium"),
        text("tui.kind.hard", "Computer: hard"),
        text("tui.kind.perfect", "Computer: perfect"),
        text("tui.level.random", "computer, random"),
        text("tui.level.easy", "computer, easy"),
        text("tui.level.medium", "computer, medium"),
        text("tui.level.hard", "computer, hard"),
        text("tui.level.perfect", "computer, perfect"),
        text("tui.computer", "Computer {number}"),
        text("tui.bad_size", "Each side of the board must be a whole number from {low} to {high}."),
        text("tui.bad_name", "Player {number} needs a name (at most {most} characters)."),
        text(
            "tui.ai_missing",
            "This installation has no computer players: every seat must be a person.",
        ),
        text("tui.level_missing", "This computer level is not available yet: {level}."),
        text("tui.scores_heading", "Scores"),
        text("tui.moves_heading", "Moves"),
        text("tui.extra_turn", "EXTRA TURN"),
        text("tui.thinking", "{name} is thinking…"),
        text("tui.game_over", "The game is over. Press u to undo, n for a new game, q to quit."),
        text("tui.wait_computer", "Please wait: {name} (the computer) is to move."),
        text("tui.computer_failed", "{name} could not choose a move: {error}"),
        text("tui.choose_letter", "Cell {cell}: press s or o, or click Write S or Write O."),
        text("tui.write", "Write {letter}"),
        text("tui.redone", "Played again: {action}."),
        text("tui.nothing_to_redo", "There is nothing to redo."),
        text("tui.hint", "Hint: {move} (marked on the board)."),
        text("tui.hint_thinking", "Looking for a hint…"),
        text("tui.no_hint", "No hint is available: {error}"),
        text(
            "tui.board_too_big",
            "This board needs a terminal of {width}x{height} characters: scroll to "
            "see the rest, or enlarge the terminal.",
        ),
        text("tui.resigned_tag", "(resigned)"),
        text("tui.save_title", "Save the game as a record file"),
        text("tui.load_title", "Open a record file"),
        text("tui.file", "File name"),
        text("tui.save", "Save"),
        text("tui.cancel", "Cancel"),
        text("tui.continue", "Continue playing"),
        text("tui.replay", "Replay"),
        plural(
            "tui.loaded",
            "Opened {path} ({count} move).",
            "Opened {path} ({count} moves).",
        ),
        text("tui.load_failed", "Could not open the record: {error}"),
        text("tui.replay_title", "Replay · move {ply} of {total}"),
        text("tui.replay_at_start", "The start of the game: press → to step forward."),
        text("tui.help_title", "Keys"),
        text("tui.help_game", "Playing"),
        text("tui.help_replay", "Replaying a record"),
        text("tui.help_mouse", "With the mouse: click a cell, then click Write S or Write O."),
        text("tui.rules_title", "Rules"),
        text("tui.close_page", "Press Esc to close."),
        text("tui.language_set", "Language: {name}"),
        text("tui.key.move", "move the cursor"),
        text("tui.key.write", "write S or O"),
        text("tui.key.undo", "undo"),
        text("tui.key.redo", "redo"),
        text("tui.key.resign", "resign"),
        text("tui.key.hint", "hint"),
        text("tui.key.save", "save the game"),
        text("tui.key.load", "open a record"),
        text("tui.key.replay", "replay this game"),
        text("tui.key.new", "new game"),
        text("tui.key.language", "change the language"),
        text("tui.key.help", "help"),
        text("tui.key.rules", "rules"),
        text("tui.key.quit", "quit"),
        text("tui.key.back", "one move back"),
        text("tui.key.forward", "one move forward"),
        text("tui.key.start", "to the start"),
        text("tui.key.end", "to the end"),
        text("tui.key.continue", "play on from here"),
        text("tui.key.close", "close"),
        text("tui.key.next_field", "next field"),
        text("tui.key.start_game", "start"),
        text("tui.key.return", "back to the game"),
        text("tui.confirm_resign", "Press x again to resign for {name}."),
        text(
            "tui.bad_board",
            "Each side of the board is a whole number from {low} to {high}, and the longer side"
            " at least {line}.",
        ),
        text(
            "tui.same_name",
            "Players {first} and {second} are both called {name}: give each player a different"
            " name.",
        ),
        text("tui.confirm_quit", "This game has moves that are not saved. Quit anyway?"),
        text(
            "tui.confirm_leave",
            "This game has moves that are not saved. Leave it for another game?",
        ),
        text("tui.confirm_overwrite", "The file {path} already exists. Save over it?"),
        text("tui.yes_quit", "Quit"),
        text("tui.yes_leave", "Leave the game"),
        text("tui.yes_overwrite", "Save over it"),
        text(
            "tui.not_a_terminal", "not a terminal, so the line-mode game starts (as with --plain)."
        ),
        text(
            "tui.no_textual",
            "sosgame play needs the tui extra: pip install 'sosgame[tui]' (or play with --plain).",
        ),
        text("web.title", "SOS"),
        text("web.language", "Language"),
        text("web.new_game", "New game"),
        text("web.rows", "Rows"),
        text("web.cols", "Columns"),
        text("web.mode", "Mode"),
        text("web.kind", "Where"),
        text("web.kind.local", "Everyone at this screen"),
        text("web.kind.online", "Online with friends"),
        text("web.seats", "Players"),
        text("web.seat_name", "Name of player {number}"),
        text("web.seat_player", "Who plays seat {number}"),
        text("web.player.human", "person"),
        text("web.player.random", "computer, random"),
        text("web.player.easy", "computer, easy"),
        text("web.player.medium", "computer, medium"),
        text("web.player.hard", "computer, hard"),
        text("web.player.perfect", "computer, perfect"),
        text("web.clock", "Play with a clock"),
        text("web.clock_minutes", "Minutes per player"),
        text("web.clock_increment", "Seconds added per move"),
        text("web.start", "Start the game"),
        text("web.open_games", "Games waiting for players"),
        text("web.no_open_games", "No game is waiting for players."),
        text("web.join_seat", "Play as {name}"),
        text("web.archive", "Finished games"),
        text("web.no_archive", "No game has finished yet."),
        text("web.replay", "Replay"),
        text("web.download", "Download the record"),
        text("web.upload", "Open a record"),
        text("web.upload_file", "Record file (to replay or continue)"),
        text("web.upload_failed", "This record cannot be opened: {message}"),
        text("web.rules", "Rules"),
        text("web.home", "Start page"),
        text("web.connecting", "Connecting…"),
        text("web.reconnecting", "The connection was lost. Reconnecting…"),
        text("web.no_game", "There is no such game."),
        text("web.game_title", "SOS, {mode} mode, {rows}x{cols}"),
        text("web.board", "SOS board, {rows} rows by {cols} columns"),
        text("web.cell_empty", "{cell}, empty"),
        text("web.cell_letter", "{cell}, {letter}"),
        text("web.pick_letter", "Write in {cell}:"),
        text("web.cancel", "Cancel"),
        text("web.extra_turn", "SOS! {name} scored and moves again."),
        text("web.players", "Players"),
        text("web.moves", "Moves"),
        plural(
            "web.points",
            "{name}: {count} point",
            "{name}: {count} points",
        ),
        text("web.you", "you"),
        text("web.resigned", "resigned"),
        text("web.thinking", "thinking…"),
        text("web.connected", "connected"),
        text("web.not_connected", "away"),
        text("web.free_seat", "free seat"),
        text("web.spectators", "Watching: {count}"),
        text("web.waiting", "Waiting for every player to take a seat."),
        text("web.undo", "Undo"),
        text("web.redo", "Redo"),
        text("web.hint", "Hint"),
        text("web.hint_is", "Hint: {move}"),
        text("web.resign", "Resign"),
        text("web.resign_confirm", "Resign this game?"),
        text("web.rematch", "Rematch"),
        text("web.rematch_offered", "A rematch has started: open it"),
        text("web.invite", "Invite links"),
        text("web.invite_seat", "Player {number} ({name})"),
        text("web.spectator_link", "Spectators"),
        text("web.copy", "Copy"),
        text("web.copied", "Copied"),
        text("web.join_title", "Take seat {number} in this game"),
        text("web.your_name", "Your name"),
        text("web.take_seat", "Take the seat"),
        text("web.seat_taken", "This seat is already taken."),
        text("web.watch", "Watch the game"),
        text("web.replay_title", "Replay"),
        text("web.ply_of", "Move {ply} of {total}"),
        text("web.first", "Start"),
        text("web.prev", "Back"),
        text("web.next", "Forward"),
        text("web.last", "End"),
        text("web.reason.time", "{names} ran out of time"),
        text("web.error.not_your_turn", "It is not your turn."),
        text("web.error.not_your_seat", "Only that seat's player may do that."),
        text("web.error.illegal_move", "That move is not allowed."),
        text("web.error.game_over", "The game is over."),
        text(
            "web.error.bad_invite",
            "This seat is taken only with its invite link; a spectator link gives no seat.",
        ),
        text(
            "web.error.too_many_games",
            "Too many games with computer players are running; try again later.",
        ),
        text("web.error.too_many_connections", "Too many connections; try again later."),
        text(
            "web.move_queued",
            "Not connected: your move {move} will be sent when the connection is back.",
        ),
        text(
            "web.move_dropped",
            "Your move {move} was not sent: the game went on while you were disconnected.",
        ),
        text("web.public", "List the game publicly: anyone may take a free seat"),
        text(
            "web.invite_missing",
            "This link has no invite: ask a player of the game for the seat's invite link.",
        ),
        text("web.rematch_play", "A rematch has started: play it"),
        text("web.error.stale", "The board changed before your move arrived; look again."),
        text("web.error.waiting", "The game has not started: not every seat is taken."),
        text("web.error.rate_limited", "Too many actions at once; slow down."),
        text("web.error.unavailable", "The computer player is not available."),
        text("web.error.other", "Not done: {message}"),
        text("cli.description", "The game of SOS, exactly by the rules."),
        text("cli.error", "sosgame: error: {error}"),
        text("cli.parse_error", "{prog}: error: {message} (see '{prog} --help')"),
        text(
            "cli.needs_extra",
            "{command} needs the {extra} extra: {install} (missing: {missing})",
        ),
        text("cli.argparse.usage", "usage: "),
        text("cli.argparse.positionals", "positional arguments"),
        text("cli.argparse.options", "options"),
        text("cli.argparse.help", "show this help message and exit"),
        text("cli.argparse.version", "show program's version number and exit"),
        text("cli.argparse.required", "the following arguments are required: %s"),
        text("cli.argparse.unrecognized", "unrecognized arguments: %s"),
        text("cli.argparse.choice", "invalid choice: %(value)r (choose from %(choices)s)"),
        text("cli.argparse.value", "invalid %(type)s value: %(value)r"),
        text("cli.argparse.argument", "argument %(argument_name)s: %(message)s"),
        text("cli.argparse.one", "expected one argument"),
        text("cli.argparse.at_least_one", "expected at least one argument"),
        text("cli.argparse.ambiguous", "ambiguous option: %(option)s could match %(matches)s"),
        text("cli.argparse.not_allowed", "not allowed with argument %s"),
        text("cli.help.json", "print one JSON object"),
        text("cli.help.mode", "the rules: general or simple (default general)"),
        text("cli.help.seed", "a seed, so that the computer's choices can be repeated exactly"),
        text("cli.help.rows", "the number of rows"),
        text("cli.help.cols", "the number of columns"),
        text("cli.help.nodes", "bound the search by nodes"),
        text("cli.help.record", "the record file"),
        text(
            "cli.replay.help",
            "replay a game record and show the final board, scores, lines and outcome",
        ),
        text(
            "cli.replay.description",
            "Replay a game record (JSON, sosgame-record/1), checking every move.",
        ),
        text("cli.replay.line", "  {line}  {name}, ply {ply}"),
        text("cli.replay.start_line", "  {line}  on the starting board"),
        plural(
            "cli.replay.not_over",
            "Not over: {name} to move after {count} move.",
            "Not over: {name} to move after {count} moves.",
        ),
        text("cli.show.help", "draw a position such as S.O/.../OSS"),
        text(
            "cli.show.description",
            "Draw a position (rows from the top, separated by '/'; S, O, or '.').",
        ),
        text("cli.show.position", "for example S.O/.O./S.S"),
        text("cli.show.svg", "print an SVG picture instead"),
        text("cli.show.lines", "{count} SOS: {lines}"),
        text("cli.solve.help", "solve a two-player position exactly"),
        text(
            "cli.solve.description",
            "Solve a two-player position exactly: its value for the side to move with best play "
            "from both sides, and every move that reaches it. General mode: the mover's future "
            "points minus the opponent's; simple mode: 1 win, 0 draw, -1 loss.",
        ),
        text(
            "cli.solve.position",
            "a position such as S.O/.../OSS, or RxC for the empty board, such as 4x4",
        ),
        text(
            "cli.solve.memory",
            "the transposition table's size in MiB (default: sized to the position, at most "
            "{most}); more memory can mean fewer nodes on large problems",
        ),
        text("cli.solve.stopped", "sosgame: solve stopped by Ctrl-C before it finished"),
        text("cli.solve.value", "value {value}: {verdict} with best play"),
        text("cli.solve.wins", "the side to move wins"),
        text("cli.solve.draw", "a draw"),
        text("cli.solve.loses", "the side to move loses"),
        plural(
            "cli.solve.mover_by",
            "the side to move wins by {count} point",
            "the side to move wins by {count} points",
        ),
        plural(
            "cli.solve.other_by",
            "the other side wins by {count} point",
            "the other side wins by {count} points",
        ),
        plural(
            "cli.solve.best",
            "best move ({count}): {moves}",
            "best moves ({count}): {moves}",
        ),
        text("cli.solve.nodes", "{nodes} nodes in {seconds} s"),
        text("cli.hint.help", "the move a computer level would play in a position"),
        text(
            "cli.hint.description",
            "Print the move a computer level would play in a position (rows from the top, "
            "separated by '/'; S, O, or '.'), or on the empty board RxC.",
        ),
        text("cli.hint.position", "for example S.O/.O./S.S or 5x5"),
        text("cli.hint.level", "the level (hard)"),
        text("cli.hint.players", "how many seats, {least} to {most} (2)"),
        text(
            "cli.hint.turn",
            "the seat to move, counted from 1 (1); the JSON answer counts from 0",
        ),
        text(
            "cli.hint.scores",
            "the seats' points so far, adding up to the lines on the board (default: 0 each)",
        ),
        text("cli.hint.seconds", "the search time for hard and perfect (default {seconds})"),
        plural(
            "cli.hint.completes",
            " (completes {count} SOS)",
            " (completes {count} SOS)",
        ),
        text("cli.hint.bad_turn", "--turn must be a seat from 1 to {most}, not {turn}"),
        text(
            "cli.hint.bad_scores",
            "--scores must be whole numbers separated by commas, such as 1,0, not {text}",
        ),
        text("cli.hint.over", "position {position} is already over: there is no move to suggest"),
        text(
            "cli.analyze.help",
            "go over a game record: the best move at every ply, and what each move cost",
        ),
        text(
            "cli.analyze.description",
            "Go over a game record (JSON, sosgame-record/1): for every move, the move played, the "
            "best move, and what the played move cost (exact where the solver reaches, the "
            "search's estimate otherwise), flagging mistakes and blunders.",
        ),
        text("cli.analyze.seconds", "search time per move out of the solver's reach (0.5)"),
        text("cli.analyze.ply", "ply"),
        text("cli.analyze.player", "player"),
        text("cli.analyze.played", "played"),
        text("cli.analyze.best", "best"),
        text("cli.analyze.cost", "cost"),
        text("cli.analyze.mistake", "mistake"),
        text("cli.analyze.blunder", "blunder"),
        text(
            "cli.analyze.legend_points",
            "(cost in points; ~ marks the search's estimate, the rest is exact)",
        ),
        text(
            "cli.analyze.legend_results",
            "(cost in results; ~ marks the search's estimate, the rest is exact)",
        ),
        plural(
            "cli.analyze.summary",
            "{name}: {count} move, total cost {total}, average {average}, {mistakes} mistakes, "
            "{blunders} blunders",
            "{name}: {count} moves, total cost {total}, average {average}, {mistakes} mistakes, "
            "{blunders} blunders",
        ),
        text(
            "cli.arena.help",
            "play a match between two computer levels and estimate the Elo difference",
        ),
        text(
            "cli.arena.description",
            "Play a match between two computer levels, colours swapped every game, on every core; "
            "print wins, draws and losses for LEVEL_A, the score and the Elo difference, each with "
            "its interval at 95%.",
        ),
        text("cli.arena.opponent", "the opponent"),
        text("cli.arena.size", "an N x N board (5)"),
        text("cli.arena.rows", "the number of rows (--size)"),
        text("cli.arena.cols", "the number of columns (--size)"),
        text("cli.arena.games", "games (100)"),
        text("cli.arena.seconds", "seconds per move (0.5)"),
        text("cli.arena.jobs", "processes (default: every core)"),
        text(
            "cli.arena.no_bar",
            "sosgame: for a progress bar, install it with: pip install 'sosgame[fast]'",
        ),
        text("cli.arena.done", "game {done}/{total} done"),
        plural(
            "cli.arena.title",
            "{a} vs {b}: {rows}x{cols} {mode}, {count} game, {seconds} s a move",
            "{a} vs {b}: {rows}x{cols} {mode}, {count} games, {seconds} s a move",
        ),
        text("cli.arena.record", "{level}: {wins} wins, {draws} draws, {losses} losses"),
        text("cli.arena.score", "score {score}% (interval at 95%: {low}% to {high}%)"),
        text("cli.arena.elo", "Elo difference {elo} (interval at 95%: {low} to {high})"),
        text("cli.serve.help", "play in the browser: start the web server"),
        text(
            "cli.serve.description",
            "Serve SOS in the browser: local games, games against the computer and online games, "
            "stored in a database.",
        ),
        text("cli.serve.host", "the address to listen on"),
        text("cli.serve.port", "the port to listen on"),
        text(
            "cli.serve.database",
            "a SQLAlchemy database URL (default {default}, created on first run)",
        ),
        text("cli.serve.bad_port", "--port must be from 0 to 65535, not {port}"),
        text("cli.serve.bad_url", "--database {url} is not a database URL"),
        text("cli.serve.bad_database", "--database {url}: {error}"),
        text(
            "cli.serve.redis",
            "a Redis URL (redis://HOST:PORT/N): several server processes then serve the same "
            "games from the same database",
        ),
        text(
            "cli.serve.workers",
            "how many server processes to start on this port (more than 1 needs --redis)",
        ),
        text(
            "cli.serve.no_computers",
            "make no computer moves in these processes: leave them to `sosgame worker`",
        ),
        text("cli.serve.bad_workers", "--workers must be at least 1, not {workers}"),
        text(
            "cli.serve.workers_need_redis",
            "--workers {workers} needs --redis: the processes tell each other their moves "
            "through Redis",
        ),
        text(
            "cli.serve.no_computers_need_redis",
            "--no-computers needs --redis: the `sosgame worker` processes that make the moves "
            "hear of them through Redis",
        ),
        text("cli.serve.bad_redis", "--redis {url} is not a Redis URL (redis://HOST:PORT/N)"),
        text("cli.serve.unreachable", "cannot start: {error}"),
        text(
            "cli.worker.need_redis",
            "sosgame worker needs --redis: it hears of the moves to make through Redis",
        ),
        text("cli.worker.help", "make the computer moves of the games served with --redis"),
        text(
            "cli.worker.description",
            "Make computer players' moves for every `sosgame serve --redis` process that "
            "shares this database and Redis server. Start as many as the machines allow; each "
            "move is made once.",
        ),
        text("cli.play.help", "play a game at this keyboard"),
        text(
            "cli.play.description",
            "Play SOS at one keyboard: the full-screen game (needs sosgame[tui]), or with --plain "
            "the line-mode game, reading moves such as Sb3 from standard input. The full-screen "
            "game opens on its new-game screen, or straight into a game when a game option or "
            "--load is given; without Textual it says what to install and exits with status 1; "
            "when input or output is not a terminal it plays the line-mode game.",
        ),
        text("cli.play.plain", "the line-mode game (works with piped input)"),
        text("cli.play.size", "a square N x N board (default 5)"),
        text(
            "cli.play.players",
            "how many players, {least} to {most} (default: as many as --names)",
        ),
        text("cli.play.names", "the players' names, in order"),
        text("cli.play.lang", "the language (default: from the locale, else English)"),
        text(
            "cli.play.seat_level",
            "a computer plays seat SEAT (1, 2, ...) at LEVEL ({levels}); may be repeated "
            "(full-screen game only)",
        ),
        text("cli.play.load", "continue the game in a record file (sosgame-record/1)"),
        text("cli.play.bad_side", "{option} must be from 1 to {most}, not {value}"),
        text("cli.play.names_count", "--names gives {count} names but --players is {players}"),
        text("cli.play.bad_name", "--names: {name} is not a name of 1 to 100 characters"),
        text(
            "cli.play.same_name",
            "--names: {name} is given twice; give each player a name of their own",
        ),
        text(
            "cli.play.load_conflict",
            "--load takes the board, mode, players and names from the record: leave out {option}",
        ),
        text("cli.play.bad_seat", "--seat-level: the seat must be from 1 to {most}, not {seat}"),
        text("cli.play.bad_level", "--seat-level: the level must be one of {levels}, not {level}"),
        text("cli.play.no_players", "--seat-level: this installation has no computer players"),
        text("cli.play.plain_levels", "--seat-level needs the full-screen game: leave out --plain"),
        text(
            "cli.play.plain_seed",
            "--seed sets the computer players' choices, and the line-mode game has none: leave "
            "out --seed or --plain",
        ),
        text(
            "cli.solve.neither",
            "{text} is neither a board size such as 4x4 nor a position such as S.O/.../OSS",
        ),
    ]
)
