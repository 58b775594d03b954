// The replay page: a finished (or running) game, one ply at a time.
import { api, el, router, view } from "./dom.js";
import { resultText, seatName, t } from "./i18n.js";
import { drawBoard, fitBoard, movesTable, scrollMoves, zoomControls } from "./board.js";
import { drawSeats } from "./game.js";
import { announce } from "./announcer.js";

export async function showReplay(id) {
  let data;
  let game;
  try {
    [data, game] = await Promise.all([api("GET", `/api/games/${id}/replay`), api("GET", `/api/games/${id}`)]);
  } catch {
    view().replaceChildren(el("p", { class: "error", text: t("web.no_game") }));
    return;
  }
  const total = data.frames.length - 1;
  shown = { id, data, game, total, ply: total, visit: router.visits };
  drawReplay(shown);
}

// The replay on the page: the arrow keys step through it wherever the focus is, but in a
// field, on the board's grid or on a slider, whose arrows are their own.
let shown = null;
document.addEventListener("keydown", (event) => {
  if (!shown || shown.visit !== router.visits || event.defaultPrevented) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest && event.target.closest("input, select, textarea, [role='grid'], [role='slider']")) return;
  const to = { ArrowLeft: shown.ply - 1, ArrowRight: shown.ply + 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  stepTo(shown, to);
});

// Shows ply `to` (within the game), with the newest lines drawn in when it is one step forward.
function stepTo(replay, to) {
  const next = Math.max(0, Math.min(replay.total, to));
  const forward = next === replay.ply + 1;
  replay.ply = next;
  drawReplay(replay, forward);
}

// Draws the replay at replay.ply; animate: the step forward that made its newest lines.
function drawReplay(replay, animate = false) {
  router.render = () => drawReplay(replay);
  const focusId = document.activeElement && document.activeElement.id;
  view().replaceChildren(
    el("div", { class: "game", "data-testid": "game" }, replayColumn(replay, animate), replaySide(replay)));
  document.title = t("web.title_replay", { ply: replay.ply, total: replay.total });
  announce(`${t("web.ply_of", { ply: replay.ply, total: replay.total })}: ${replayStatus(replay, replay.data.frames[replay.ply])}`);
  fitBoard();
  scrollMoves(replay.ply);
  if (focusId) {
    const again = document.getElementById(focusId);
    if (again) again.focus();
  }
}

function replayStatus(replay, frame) {
  const { game, ply, total } = replay;
  const seats = game.seats;
  if (frame.result) {
    return resultText({ ...frame.result, flagged: ply === total && game.result ? game.result.flagged : [] }, seats);
  }
  return frame.extra_turn ? t("to_move_again", { name: seatName(seats[frame.turn]) }) : t("to_move", { name: seatName(seats[frame.turn]) });
}

function replayColumn(replay, animate) {
  const { data, ply, total } = replay;
  const frame = data.frames[ply];
  const before = ply > 0 ? data.frames[ply - 1] : frame;
  const state = { rows: data.rows, cols: data.cols, board: frame.board, lines: data.lines };
  const action = frame.action || "";
  const last = action && !action.startsWith("resign") ? action.slice(1) : "";
  const fresh = animate ? data.lines.slice(before.lines, frame.lines) : [];
  return el("div", { class: "board-column" },
    el("h1", { class: "game-title", text: t("web.replay_title") }),
    el("div", { class: "banner", id: "banner", "data-testid": "banner" },
      el("p", { class: "status", id: "status", text: replayStatus(replay, frame) })),
    drawBoard(state, { lineCount: frame.lines, last, fresh }),
    el("div", { class: "picker-row", "data-reserve": "move" },
      el("p", { id: "replay-ply", text: t("web.ply_of", { ply, total }) }), zoomControls()),
    replayControls(replay));
}

function replayControls(replay) {
  const { id, ply, total } = replay;
  const step = (to) => () => stepTo(replay, to);
  return el("div", { class: "controls", "data-reserve": "" },
    el("button", { type: "button", id: "replay-first", text: t("web.first"), onclick: step(0) }),
    el("button", { type: "button", id: "replay-prev", text: t("web.prev"), onclick: step(ply - 1) }),
    el("button", { type: "button", id: "replay-next", text: t("web.next"), onclick: step(ply + 1) }),
    el("button", { type: "button", id: "replay-last", text: t("web.last"), onclick: step(total) }),
    el("a", { href: `#/analysis/${id}`, id: "analysis", class: "button-link", text: t("web.analysis") }),
    el("a", { href: `/api/games/${id}/record`, download: `sos-${id}.json`, text: t("web.download") }),
    el("a", { href: "#/", text: t("web.home") }));
}

// The players with their scores at this ply, and the move list that jumps to a ply.
function replaySide(replay) {
  const { data, game, ply } = replay;
  const frame = data.frames[ply];
  const seats = game.seats;
  const shown = { seats: seats.map((seat) => ({ ...seat, player: seat.player, taken: true })), kind: "local", status: "replay",
    result: null, clock: null, scores: frame.scores };
  const choose = (chosen) => {
    replay.ply = chosen;
    drawReplay(replay);
  };
  return el("div", { class: "side" },
    el("section", { class: "panel", id: "players", "data-testid": "players" },
      el("h2", { text: t("web.players") }), drawSeats(shown, frame.scores)),
    el("section", { class: "panel" }, el("h2", { text: t("web.moves") }),
      movesTable(seats, data.moves, { selected: ply, onSelect: choose })));
}
