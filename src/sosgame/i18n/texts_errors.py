"""The engine's errors, by their codes (:class:`sosgame.SosError`): the text ``error.CODE``.

Each reads exactly as the error's own English message, so that an interface shows the same
words in English and the catalogs' in the other languages (:func:`sosgame.i18n.error_text`).
In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, plural, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text(
        "error.not_a_cell",
        "{text!r} is not a cell: write a column letter a-z then a row number 1-{most}, "
        "such as 'b3'",
    ),
    text("error.cell_row", "{text!r} is not a cell: row numbers go from 1 to {most}"),
    text(
        "error.move_letter",
        "{text!r} is not a move: it must start with the letter S or O, as in 'Sb3'",
    ),
    text("error.not_a_move", "{text!r} is not a move: {error}"),
    text(
        "error.not_a_resignation",
        "{text!r} is not a resignation: write 'resign:' and the seat number, as in 'resign:1'",
    ),
    text("error.rows_whole", "rows must be a whole number, not {value!r}"),
    text("error.cols_whole", "cols must be a whole number, not {value!r}"),
    text("error.rows_range", "rows must be from {least} to {most}, not {value}"),
    text("error.cols_range", "cols must be from {least} to {most}, not {value}"),
    text(
        "error.board_too_small",
        "a {rows}x{cols} board is too small: the longer side must be at least {least}",
    ),
    text("error.position_empty", "the position is empty: write rows such as 'S.O/.../OSS'"),
    text(
        "error.position_ragged",
        "position {text!r}: row {row} has {cells} cells but row 1 has {width}",
    ),
    text(
        "error.position_char",
        "position {text!r}: row {row}, column {column} holds {char!r}; use S, O or . for an "
        "empty cell",
    ),
    text("error.position_size", "position {text!r}: {error}"),
    text("error.players_whole", "players must be a whole number, not {value!r}"),
    text("error.players_range", "players must be from {least} to {most}, not {value}"),
    text("error.mode", "mode must be 'general' or 'simple', not {value!r}"),
    text("error.turn", "turn must be a seat from 0 to {most}, not {value!r}"),
    text(
        "error.simple_holds_sos",
        "position {text!r} already holds an SOS ({line}), so a simple-mode game would be over "
        "with no known winner",
    ),
    text(
        "error.scores_count",
        "scores must give one number per seat: {players} seats, {count} scores",
    ),
    text("error.score_whole", "scores[{seat}] must be a whole number of at least 0, not {value!r}"),
    plural(
        "error.scores_sum",
        "scores add up to {total} but the board holds {count} SOS line",
        "scores add up to {total} but the board holds {count} SOS lines",
    ),
    text("error.play_over", "cannot play {move}: the game is over"),
    text("error.occupied", "cannot play {move}: {cell} already holds {letter}"),
    text("error.off_board", "cannot play {move}: {cell} is off the {rows}x{cols} board"),
    text("error.cell_off_board", "{cell} is off the {rows}x{cols} board"),
    text("error.resign_seat", "cannot resign for seat {seat!r}: seats go from 0 to {most}"),
    text("error.resign_over", "seat {seat} cannot resign: the game is over"),
    text("error.resigned", "seat {seat} has already resigned"),
    text("error.at_ply", "ply {ply}: {error}"),
    text("error.nothing_to_undo", "there is nothing to undo"),
    text("error.record_size", "fields 'rows' and 'cols': {error}"),
    text("error.record_start", "field 'start': {error}"),
    text("error.record_json", "the record is not valid JSON: {reason}"),
    text("error.record_deep", "the record is too deep: {reason}"),
    text("error.record_object", "a record must be a JSON object, not {kind}"),
    text("error.record_unknown", "unknown field {name!r} in the record"),
    text("error.record_missing", "the record has no field {name!r}"),
    text(
        "error.record_format",
        "field 'format': {value!r} is not a format this version reads; it reads {format!r}",
    ),
    text(
        "error.record_whole",
        "field {name!r}: must be a whole number from {least} to {most}, not {value!r}",
    ),
    text("error.record_mode", "field 'mode': must be 'general' or 'simple', not {value!r}"),
    text("error.record_unreadable", "cannot read {path!r}: {reason}"),
    text("error.record_unwritable", "cannot write {path!r}: {reason}"),
    text("error.record_move", "moves[{number}] (ply {ply}): {error}"),
    plural(
        "error.record_not_over",
        "field 'result': the record states a result, but the game is not over after its "
        "{count} move",
        "field 'result': the record states a result, but the game is not over after its "
        "{count} moves",
    ),
    text(
        "error.record_players",
        "field 'players': must name {least} to {most} players, not {value}",
    ),
    text("error.record_name", "field 'players[{seat}]': {error}"),
    text("error.name_text", "the name of seat {seat} must be text"),
    text("error.name_empty", "the name of seat {seat} is empty"),
    text("error.name_long", "the name of seat {seat} is longer than {most} characters: {name}"),
    text(
        "error.name_control",
        "the name of seat {seat} holds a control or invisible character: {name}",
    ),
    text("error.name_same", "seats {first} and {second} have the same name: {name}"),
    text("error.file_read", "cannot read {path!r}: {reason}"),
    text("error.file_write", "cannot write {path!r}: {reason}"),
    text("error.file_not_regular", "it is a device, a pipe or a socket, not a regular file"),
    text("error.file_too_large", "it is larger than {most} bytes"),
    text("error.file_too_deep", "it nests lists or objects more than {most} deep"),
    text("error.file_binary", "it holds binary data, not text"),
    text("error.file_not_utf8", "it is not UTF-8 text"),
    text("error.file_not_gzip", "it is not whole gzip-compressed data"),
    text("error.certificate_unreadable", "cannot read certificate {path}: {reason}"),
    text("error.no_certificate", "{path} holds no certificate object"),
    text("error.certificate_format", "not a {format} version {version} document"),
    text("error.certificate_unwritable", "cannot write certificate {path}: {reason}"),
    text(
        "error.bad_sample",
        "the sample must be a whole number of entries, at least 1, not {sample!r}",
    ),
    text("error.seconds", "seconds must be a number greater than 0, not {value}"),
    text("error.nodes", "nodes must be a whole number of at least 1, not {value!r}"),
    text("error.memory", "memory must be a whole number of MiB, at least 1, not {value!r}"),
    text(
        "error.memory_spare",
        "memory {value} MiB is more than this machine can spare: it has {free} MiB free, so ask "
        "for at most {most} MiB",
    ),
    text("error.seed", "seed must be a whole number, not {value!r}"),
    text("error.walks", "walks must be a whole number of at least 1, not {value!r}"),
    text(
        "error.split_depth",
        "the split depth must be a whole number of at least 1, not {value!r}",
    ),
    text(
        "error.solver_players",
        "the solver handles two players only, and this game has {players}",
    ),
    text("error.solve_over", "the game is over, so there is nothing to solve: {position}"),
    text(
        "error.solver_cells",
        "the position has {count} empty cells; the solver takes at most {most}",
    ),
    text("error.threads", "threads must be a whole number of at least 1, not {value!r}"),
    text("error.games", "games must be a whole number of at least 1, not {value!r}"),
    text("error.jobs", "jobs must be a whole number of at least 1, not {value!r}"),
    text("error.workers", "workers must be at least 1, not {value!r}"),
    text("error.match_seats", "a match seats 2 to {most} levels, not {count}: {levels}"),
    text("error.too_many", "{name} must be at most {most}, not {value}"),
    text("error.scheduler", "cannot reach the Dask scheduler at {address}: {reason}"),
    text("error.tournament_unknown", "field {field!r} is not a tournament setting"),
    text("error.tournament_kind", "field 'kind' must be 'arena' or 'swiss'"),
    text(
        "error.tournament_name",
        "field 'name' must be printable text of {least} to {most} characters",
    ),
    text("error.tournament_whole", "field {field!r} must be a whole number from {least} to {most}"),
    text("error.tournament_flag", "field {field!r} must be true or false"),
    text("error.tournament_board", "fields 'rows' and 'cols': one side must be at least {least}"),
    text("error.tournament_mode", "field 'mode' must be 'general' or 'simple'"),
    text(
        "error.tournament_clock",
        "field 'clock' must give 'initial' and 'increment' in seconds",
    ),
    text("error.tournament_days", "field 'days' must be one of {allowed} (days per move)"),
    text("error.tournament_clock_or_days", "give field 'clock' or field 'days': one of the two"),
    text(
        "error.tournament_arena_days",
        "field 'days' is for a Swiss: an Arena is played on the clock",
    ),
    text("error.tournament_other_kind", "field {field!r} is not for this kind of tournament"),
    text("error.os.ENOENT", "No such file or directory"),
    text("error.os.EISDIR", "Is a directory"),
    text("error.os.ENOTDIR", "Not a directory"),
    text("error.os.EACCES", "Permission denied"),
    text("error.os.EPERM", "Operation not permitted"),
    text("error.os.EROFS", "Read-only file system"),
    text("error.os.ENOSPC", "No space left on device"),
    text("error.os.EEXIST", "File exists"),
    text("error.os.EADDRINUSE", "Address already in use"),
    text("error.os.EADDRNOTAVAIL", "Cannot assign requested address"),
    text("error.os.ENAMETOOLONG", "File name too long"),
]
