"""The command line's texts: help, options and their errors.

In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, plural, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text("cli.description", "The game of SOS, exactly by the rules."),
    text("cli.error", "sosgame: error: {error}"),
    text("cli.os_error", "{path}: {reason}"),
    text("cli.stopped", "sosgame: stopped by Ctrl-C"),
    text("cli.no_output", "standard output is closed, so there is nowhere to write the answer"),
    text(
        "cli.internal_error",
        "sosgame: internal error ({kind}: {error}); please report it, with the command that "
        "gave it (SOSGAME_TRACEBACK=1 shows the details)",
    ),
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
    text("cli.preparing", "preparing the fast search (first run only)..."),
    text("cli.help.lang", "the language (default: from the locale, else English)"),
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
        "Draw a position (rows from the top, separated by '/'; S, O, or '.'), or the empty "
        "board RxC.",
    ),
    text("cli.show.position", "for example S.O/.O./S.S, or RxC for the empty board, such as 5x5"),
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
        "{most}, or {plain} when the search runs as plain Python); more memory can mean fewer "
        "nodes on large problems",
    ),
    text(
        "cli.solve.threads",
        "how many threads search a large position at once (default: one per core)",
    ),
    text(
        "cli.solve.threads_split",
        "--threads applies to a direct solve; a --split solve runs --workers processes instead",
    ),
    text(
        "cli.solve.split",
        "split the solve into the positions DEPTH moves deep, each tested for the bound the "
        "search needs and kept as a file under --store; run again, it skips what is done and "
        "goes on",
    ),
    text(
        "cli.solve.exact_pieces",
        "with --split: solve every piece for its exact value instead of testing it for a bound "
        "(slower)",
    ),
    text(
        "cli.solve.guess",
        "with --split: the value to test first (default: 0); the nearer the value, the fewer "
        "the tests",
    ),
    text(
        "cli.solve.store",
        "where --split keeps its finished pieces (default: data/solves), one folder per board "
        "and mode",
    ),
    text(
        "cli.solve.workers",
        "how many local processes solve pieces at once (default: one per core)",
    ),
    text(
        "cli.solve.scheduler",
        "solve the pieces on the Dask cluster whose scheduler is at ADDRESS, such as "
        "tcp://10.0.0.1:8786 (needs the cluster extra)",
    ),
    text(
        "cli.solve.progress",
        "show how far the solve has come, on a terminal (default: on; never into a pipe)",
    ),
    text("cli.solve.working", "solving {position}: {nodes} nodes, {seconds} s"),
    text("cli.solve.proving", "writing the certificate: {entries} entries so far"),
    text(
        "cli.solve.needs_split",
        "--workers, --scheduler, --status, --exact-pieces and --guess only apply to a --split "
        "solve",
    ),
    text(
        "cli.solve.status",
        "with --split: solve nothing, say how many pieces are solved and what they settle",
    ),
    text("cli.solve.status_line", "{solved} of {pieces} pieces solved"),
    text("cli.solve.status_value", "the value is {value}, whatever the other pieces hold"),
    text("cli.solve.status_bounds", "the value is between {lower} and {upper} so far"),
    plural(
        "cli.solve.status_bounded",
        "{count} more piece has bounds only",
        "{count} more pieces have bounds only",
    ),
    text(
        "cli.solve.certificate",
        "also write a certificate of the value to FILE (gzip-compressed if it ends in .gz), "
        "for sosgame certify to check",
    ),
    text(
        "cli.solve.max_entries",
        "with --split and --certificate: give up the proof of a piece that needs more than N "
        "entries (the piece's value is kept)",
    ),
    text(
        "cli.solve.walks",
        "with --certificate: keep a proof too large to write as the entries met on N random "
        "walks down it, each from a claim the proof needs to the end of the game (the file is "
        "saved after each walk)",
    ),
    text("cli.solve.seed", "the seed that chooses the walks (default: 0)"),
    text(
        "cli.solve.bad_max_entries",
        "--max-entries must be a whole number of at least 1, not {value}",
    ),
    text("cli.solve.walks_need_certificate", "--walks needs --certificate: the file to write"),
    text(
        "cli.solve.add",
        "with --walks: add N walks to the walked certificate already in the --certificate file "
        "(drawn apart from its own) instead of replacing it",
    ),
    text("cli.solve.add_needs_walks", "--add needs --walks: the number of walks to add"),
    text(
        "cli.solve.add_needs_file",
        "--add adds walks to a certificate already written, and there is none in {file}",
    ),
    text(
        "cli.solve.walks_or_max_entries",
        "--walks keeps a sample and --max-entries limits a whole proof: give only one of them",
    ),
    plural(
        "cli.solve.unproven",
        "no certificate written: {count} piece needs more entries than --max-entries allows",
        "no certificate written: {count} pieces need more entries than --max-entries allows",
    ),
    text("cli.certify.help", "check a solver certificate with the rules alone"),
    text(
        "cli.certify.description",
        "Check a certificate written by sosgame solve --certificate: every strategy move and "
        "every reply it answers is played with the rules engine, without the solver. The value "
        "is proven when every entry is checked; --sample checks a random part only.",
    ),
    text("cli.certify.file", "the certificate file (.json, or .json.gz)"),
    text(
        "cli.certify.sample",
        "check only N entries chosen at random, and the root's (a sample, not a proof)",
    ),
    text("cli.certify.seed", "the seed that chooses the sample (default: 0)"),
    text(
        "cli.certify.extract",
        "keep a proof too large to keep whole as a sample: write N of its entries chosen at "
        "random, every entry next to the root, and the claims they use, to the --out file",
    ),
    text("cli.certify.out", "the file --extract writes (gzip-compressed if it ends in .gz)"),
    text("cli.certify.working", "checking entries: {done} of {total}"),
    text("cli.certify.extract_needs_out", "--extract and --out go together: give both or neither"),
    text(
        "cli.certify.extract_or_sample",
        "--extract keeps a sample and --sample checks one: give only one of them",
    ),
    text(
        "cli.certify.extracted",
        "wrote {out}: {entries} of the proof's {sampled_from} entries and the {assumed} claims "
        "they use; every entry kept holds",
    ),
    plural(
        "cli.certify.kept_sample",
        "sample holds: {checked} entry of {position} ({mode}, value {value}), drawn at random "
        "from a proof of {sampled_from} entries, and it holds given the {assumed} claims of that "
        "proof it uses; the rest of the proof is not in this file, so this is not a full proof",
        "sample holds: {checked} entries of {position} ({mode}, value {value}), drawn at random "
        "from a proof of {sampled_from} entries, and all hold given the {assumed} claims of that "
        "proof they use; the rest of the proof is not in this file, so this is not a full proof",
    ),
    plural(
        "cli.certify.walked",
        "sample holds: {checked} entry of {position} ({mode}, value {value}), met on {walks} "
        "random walks down a proof too large to write, and it holds given the {assumed} claims "
        "it uses; those claims are not proven here, so this is not a full proof",
        "sample holds: {checked} entries of {position} ({mode}, value {value}), met on {walks} "
        "random walks down a proof too large to write, and all hold given the {assumed} claims "
        "they use; those claims are not proven here, so this is not a full proof",
    ),
    plural(
        "cli.certify.proven",
        "proven: {position} ({mode}) is worth {value} to the side to move; its {entries} entry "
        "holds",
        "proven: {position} ({mode}) is worth {value} to the side to move; "
        "all {entries} entries hold",
    ),
    plural(
        "cli.certify.sampled",
        "sample holds: {checked} of {entries} entry of {position} ({mode}, value {value}) "
        "checked; the rest are unchecked, so this is not a full proof",
        "sample holds: {checked} of {entries} entries of {position} ({mode}, value {value}) "
        "checked; the rest are unchecked, so this is not a full proof",
    ),
    plural(
        "cli.certify.assumed",
        "holds if its assumption does: {checked} of {entries} entries of {position} ({mode}, "
        "value {value}) checked, and {assumed} claim is taken as given, not proven",
        "holds if its assumptions do: {checked} of {entries} entries of {position} ({mode}, "
        "value {value}) checked, and {assumed} claims are taken as given, not proven",
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
        "cli.hint.perfect_players",
        "--level perfect proves its moves with the exact solver, which takes two players, and"
        " this game has {players}: choose another level",
    ),
    text("cli.hint.proven", "proven best by the exact solver"),
    text("cli.hint.unproven", "not proven: the exact solver did not finish in the time given"),
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
    text("cli.analyze.working", "analysing: move {done} of {total}"),
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
    text(
        "cli.analyze.summary",
        "{name}: {moves}, total cost {total}, average {average}, {mistakes}, {blunders}",
    ),
    plural("cli.analyze.moves", "{count} move", "{count} moves"),
    plural("cli.analyze.mistakes", "{count} mistake", "{count} mistakes"),
    plural("cli.analyze.blunders", "{count} blunder", "{count} blunders"),
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
    text("cli.arena.progress", "games played: {done} of {total}"),
    plural(
        "cli.arena.stopped",
        "sosgame: arena stopped by Ctrl-C after {count} finished game",
        "sosgame: arena stopped by Ctrl-C after {count} finished games",
    ),
    plural(
        "cli.arena.title",
        "{a} vs {b}: {rows}x{cols} {mode}, {count} game, {seconds} s a move",
        "{a} vs {b}: {rows}x{cols} {mode}, {count} games, {seconds} s a move",
    ),
    text("cli.arena.record", "{level}: {wins}, {draws}, {losses}"),
    plural("cli.arena.wins", "{count} win", "{count} wins"),
    plural("cli.arena.draws", "{count} draw", "{count} draws"),
    plural("cli.arena.losses", "{count} loss", "{count} losses"),
    text("cli.arena.score", "score {score}% (interval at 95%: {low}% to {high}%)"),
    text("cli.arena.elo", "Elo difference {elo} (interval at 95%: {low} to {high})"),
    text("cli.arena.more", "more levels, for three to eight seats (a level may come twice)"),
    plural(
        "cli.arena.seats_title",
        "{levels}: {rows}x{cols} {mode}, {count} game in random seat order, {seconds} s a move",
        "{levels}: {rows}x{cols} {mode}, {count} games in random seat order, {seconds} s a move",
    ),
    text("cli.arena.seats_line", "{level}: share of wins {wins}%, share of points {points}%"),
    text("cli.arena.rating", "{level}: OpenSkill rating {rating} (mu {mu}, sigma {sigma})"),
    text(
        "cli.arena.no_openskill",
        "no ratings: they need the openskill package (pip install 'sosgame[fast]')",
    ),
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
    text("cli.serve.bad_host", "--host {host} names no address to listen on: {error}"),
    text("cli.serve.cannot_listen", "cannot listen on {host} port {port}: {error}"),
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
    text("cli.serve.bad_setting", "a setting of the environment cannot be used: {error}"),
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
    text(
        "cli.serve.allowed_hosts",
        "the host names the server answers for, comma-separated, any port (default {default};"
        " *.example.org allows every name under example.org)",
    ),
    text("cli.serve.no_hosts", "--allowed-hosts needs at least one host name"),
    text(
        "cli.serve.forwarded_allow_ips",
        "the addresses of the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto"
        " headers are believed, comma-separated (default: none, so every client's address is"
        " the one it connects from)",
    ),
    text("cli.serve.unreachable", "cannot start: {error}"),
    text("cli.serve.no_redis", "cannot start: cannot reach Redis at {url}: {error}"),
    text(
        "cli.worker.redis",
        "a Redis URL (redis://HOST:PORT/N), required: the worker hears of the moves to make "
        "through Redis",
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
    text(
        "cli.play.seat_level",
        "a computer plays seat SEAT (1, 2, ...) at LEVEL ({levels}); may be repeated",
    ),
    text("cli.play.load", "continue the game in a record file (sosgame-record/1)"),
    text("cli.play.bad_side", "{option} must be from 1 to {most}, not {value}"),
    text("cli.play.names_count", "--names gives {count} names but --players is {players}"),
    text("cli.play.bad_names", "--names: {error}"),
    text(
        "cli.play.load_conflict",
        "--load takes the board, mode, players and names from the record: leave out {option}",
    ),
    text("cli.play.bad_seat", "--seat-level: the seat must be from 1 to {most}, not {seat}"),
    text(
        "cli.play.seat_without_name",
        "--seat-level {seat}: --names sets the players, and seat {seat} has no name; give every"
        " seat a name, the computer's too",
    ),
    text("cli.play.bad_level", "--seat-level: the level must be one of {levels}, not {level}"),
    text("cli.play.no_players", "--seat-level: this installation has no computer players"),
    text(
        "cli.solve.neither",
        "{text} is neither a board size such as 4x4 nor a position such as S.O/.../OSS",
    ),
]
