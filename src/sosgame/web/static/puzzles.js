// The puzzles page (#/puzzles, #/puzzles/ID) and the home page's puzzle of the day. The
// server judges every move from the puzzle's stored proof; this page only shows its verdicts.
import { api, el, go, router, view } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { drawBoard, fitBoard, zoomControls } from "./board.js";

// The puzzle on the page: what the server sent, the moves found so far, the board after
// them, the last verdict, the cell picked for a letter and the player's rating line.
const puzzleView = { puzzle: null, moves: [], board: null, verdict: null, selected: null, player: null, rated: null, unrated: null };

function boardState(puzzle, board) {
  return {
    rows: puzzle.rows, cols: puzzle.cols, lines: board.lines,
    board: board.position.split("/").map((row) => [...row]),
  };
}

function themesText(themes) {
  return themes.length ? t("puzzle.themes", { themes: themes.map((theme) => t(`puzzle.theme.${theme}`)).join(", ") }) : "";
}

export async function showPuzzles(id) {
  router.render = () => drawPuzzle();
  Object.assign(puzzleView, { puzzle: null, moves: [], board: null, verdict: null, selected: null, rated: null, unrated: null });
  view().replaceChildren(el("h1", { text: t("web.puzzles") }), el("p", { text: t("web.connecting") }));
  try {
    const puzzle = await api("GET", id ? `/api/puzzles/${encodeURIComponent(id)}` : "/api/puzzles/next");
    puzzleView.puzzle = puzzle;
    if (puzzle.player !== undefined) puzzleView.player = puzzle.player;
    puzzleView.board = { position: puzzle.position, lines: puzzle.lines, turn: puzzle.turn, scores: puzzle.scores };
  } catch (error) {
    const text = error.code === "no_puzzle" && !id ? t("web.puzzle_none") : errorText(error.code, error.message);
    view().replaceChildren(el("h1", { text: t("web.puzzles") }), el("p", { class: "error", role: "alert", text }));
    return;
  }
  drawPuzzle();
}

function drawPuzzle() {
  const { puzzle, board, verdict } = puzzleView;
  if (!puzzle) return;
  const over = verdict && (verdict.done || !verdict.correct);
  const status = el("p", { id: "puzzle-status", role: "status", "aria-live": "polite" });
  if (verdict && !verdict.correct) status.append(el("strong", { class: "error", text: t("puzzle.wrong") }));
  else if (verdict && verdict.done) status.append(el("strong", { class: "ok", text: t("puzzle.solved") }));
  else if (verdict) status.append(el("strong", { class: "ok", text: t("puzzle.right_more") }));
  const solution = verdict && verdict.solution
    ? el("p", { id: "puzzle-solution", text: t("puzzle.solution", { moves: verdict.solution.join(" ") }) }) : null;
  const actions = el("div", { class: "actions", "data-reserve": "" },
    over ? null : el("button", { type: "button", id: "puzzle-show", text: t("web.puzzle_show"), onclick: () => send(true) }),
    el("button", { type: "button", id: "puzzle-next", text: t("web.puzzle_next"), onclick: () => go("#/puzzles/next") }));
  const state = boardState(puzzle, board);
  const options = over ? {} : { onPick: pick, onLetter: (letter, cell) => play(letter, cell), selected: puzzleView.selected };
  view().replaceChildren(
    el("h1", { text: t("web.puzzle_title", { id: puzzle.id }) }),
    el("section", { class: "panel puzzle", "data-testid": "puzzle" },
      el("p", { id: "puzzle-rating", text: `${t("web.puzzle_rating", { rating: puzzle.rating })} · ${puzzle.rows}x${puzzle.cols} ${t(`mode.${puzzle.mode}`)}` }),
      el("p", { text: themesText(puzzle.themes) }),
      el("p", { id: "puzzle-turn", text: t("puzzle.to_move", { seat: puzzle.turn + 1, scores: board.scores.join(" - ") }) }),
      el("p", { id: "puzzle-goal", class: "goal", text: t(`puzzle.goal.${puzzle.goal}`) }),
      status,
      drawBoard(state, options),
      el("div", { class: "picker-row", "data-reserve": "move" }, pickerFor(over), zoomControls()),
      solution, actions, ratingLine()));
  fitBoard();
}

function ratingLine() {
  const { player, rated, unrated } = puzzleView;
  // Why a first attempt was not rated: the solution was shown here lately, or too fast.
  if (unrated) return el("p", { id: "puzzle-player", class: "muted", text: t(`web.puzzle_unrated.${unrated}`) });
  if (rated) {
    const change = rated.change > 0 ? `+${rated.change}` : String(rated.change);
    return el("p", { id: "puzzle-player", text: t("web.puzzle_change", { rating: rated.rating, change }) });
  }
  if (player) return el("p", { id: "puzzle-player", text: t("web.puzzle_yours", { rating: player.rating }) });
  return el("p", { id: "puzzle-player", class: "muted", text: t("web.puzzle_guest") });
}

function pickerFor(over) {
  const picker = el("div", { class: "picker", id: "picker" });
  const cell = puzzleView.selected;
  if (!cell || over) return picker;
  picker.append(
    el("span", { text: t("web.pick_letter", { cell }) }),
    el("button", { type: "button", class: "letter", id: "pick-S", text: "S", onclick: () => play("S", cell) }),
    el("button", { type: "button", class: "letter", id: "pick-O", text: "O", onclick: () => play("O", cell) }),
    el("button", { type: "button", id: "pick-cancel", text: t("web.cancel"), onclick: () => pick(null) }));
  return picker;
}

function pick(cell) {
  puzzleView.selected = cell;
  drawPuzzle();
  const button = document.getElementById("pick-S");
  if (button) button.focus();
}

function play(letter, cell) {
  puzzleView.selected = null;
  puzzleView.moves.push(`${letter}${cell}`);
  send(false);
}

async function send(giveUp) {
  const { puzzle } = puzzleView;
  const body = { moves: puzzleView.moves };
  if (giveUp) body.give_up = true;
  try {
    const verdict = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/moves`, body);
    puzzleView.verdict = verdict;
    puzzleView.board = verdict.board;
    if (verdict.rated) puzzleView.rated = verdict.rated;
    if (verdict.unrated) puzzleView.unrated = verdict.unrated;
  } catch (error) {
    puzzleView.moves.pop();
    puzzleView.verdict = null;
    view().append(el("p", { class: "error", role: "alert", text: errorText(error.code, error.message) }));
    return;
  }
  drawPuzzle();
}

// The home page's panel: the day's puzzle, its board and a link to solve it.
export function dailyPanel() {
  const panel = el("section", { class: "panel daily", id: "daily-puzzle" }, el("h2", { text: t("web.daily_puzzle") }));
  api("GET", "/api/puzzles/daily").then((puzzle) => {
    const board = { position: puzzle.position, lines: puzzle.lines };
    panel.append(
      el("p", { text: t(`puzzle.goal.${puzzle.goal}`) }),
      drawBoard(boardState(puzzle, board), { id: "daily-board" }),
      el("a", { href: `#/puzzles/${puzzle.id}`, id: "daily-open", text: t("web.daily_open") }));
  }).catch((error) => panel.append(el("p", { class: "error", text: errorText(error.code, error.message) })));
  return panel;
}
