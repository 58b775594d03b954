// The board and the move list, drawn the same on the game, replay and analysis pages.
import { cellName, el, parseCell, svg } from "./dom.js";
import { seatName, settings, t } from "./i18n.js";
import { GUTTER, coordinateLabels, coordinatesOn, coordinatesToggle } from "./coordinates.js";

// How the board is looked at: its zoom over the size that fits the window, and the cell
// that has (or last had) the keyboard's focus.
export const boardView = { zoom: 1, focus: null };

const MIN_PHONE_CELL = 22; // px: about a fingertip; bigger boards zoom and pan instead
const MIN_CELL = 14;
const MAX_CELL = 168;
const SHORT_WINDOW = 560; // px of height: a phone held sideways, or a small laptop window
const ZOOMS = [1, 1.25, 1.5, 2, 2.5, 3];
// A dash pattern per seat (in cell widths), so that lines differ by more than colour.
const LINE_DASHES = ["", "0.42 0.16", "0.01 0.2", "0.42 0.14 0.01 0.14", "0.2 0.12",
  "0.6 0.12 0.12 0.12", "0.01 0.12 0.01 0.3", "0.3 0.3"];

export function seatColour(seat) {
  return seat === null || seat === undefined ? settings.config.seats.unowned_colour : settings.config.seats.colours[seat];
}

function seatSymbol(seat) {
  return settings.config.seats.symbols[seat] || "";
}

// The seat's symbol in its colour: shown wherever a seat is named, beside the name.
export function seatMark(seat) {
  const mark = el("span", { class: "seat-mark", "aria-hidden": "true", text: seatSymbol(seat) });
  mark.style.setProperty("color", seatColour(seat));
  return mark;
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// The board: an ARIA grid of cell buttons with the lines drawn over it in an SVG.
// options: lineCount (lines on the board), fresh (lines to animate), last (the cell of the
// last move), marks ({cell: class} for the analysis page), selected and hint (cells on the
// game page); on a board one plays on, onPick(cell) (a click) and onLetter(letter, cell) (a key);
// id names the board (and its test ids) where a page shows another one: "board" by default.
export function drawBoard(state, options) {
  const id = options.id || "board";
  const lines = options.lineCount === undefined ? state.lines : state.lines.slice(0, options.lineCount);
  const fresh = new Set(options.fresh || []);
  const wrap = el("div", { class: `board-wrap${coordinatesOn() ? " coords" : ""}`, "data-rows": state.rows, "data-cols": state.cols },
    coordinateLabels(state.rows, state.cols),
    el("div", { class: "board-box" }, boardGrid(state, options, fresh), linesOverlay(state, lines, fresh)));
  // For a cell size set in CSS from the board's shape (the home page's puzzle of the day).
  wrap.style.setProperty("--cols", state.cols);
  const frame = el("div", { class: "board-frame", "data-testid": `${id}-frame` }, wrap);
  // A page that redraws in place draws the board at the size last fitted for the same
  // layout, so that nothing changes there and no new fitting is needed (see fitBoard).
  const fit = boardView.fit;
  if (options.fitKey && fit && fit.key === fitKey(options.fitKey, state.rows, state.cols)) applyFit(frame, wrap, fit);
  return frame;
}

// What a board's fitted size depends on, beside what the page says (`page`).
function fitKey(page, rows, cols) {
  return [page, rows, cols, boardView.zoom || 1, coordinatesOn(), windowSize.join("x")].join("|");
}

// The window's size as of its last resize: reading it from the window lays the page out.
const windowSize = [window.innerWidth, window.innerHeight];

function applyFit(frame, wrap, fit) {
  wrap.style.setProperty("--cell", `${fit.cell}px`);
  frame.style.setProperty("max-width", `${fit.width}px`);
  frame.style.setProperty("max-height", `${fit.height}px`);
  frame.classList.toggle("pans", fit.pans);
}

function boardGrid(state, options, fresh) {
  const freshCells = new Map();
  for (const found of fresh) for (const cell of found.cells) freshCells.set(cell, found.owner);
  const board = el("div", {
    class: "board", id: options.id || "board", role: "grid", "data-testid": options.id || "board",
    "aria-label": t("web.board", { rows: state.rows, cols: state.cols }),
  });
  board.style.setProperty("--cols", state.cols);
  board.style.setProperty("--rows", state.rows);
  for (let row = 0; row < state.rows; row += 1) {
    const line = el("div", { role: "row", class: "board-row" });
    for (let col = 0; col < state.cols; col += 1) line.append(cellButton(state, options, freshCells, row, col));
    board.append(line);
  }
  return board;
}

// One cell: its letter (or the analysis page's ghost letter), its marks and its label.
function cellButton(state, options, freshCells, row, col) {
  const { onPick, onLetter } = options;
  const name = cellName(row, col);
  const letter = state.board[row][col];
  const filled = letter !== ".";
  const last = (options.last || "") === name;
  const mark = (options.marks || {})[name];
  const classes = ["cell"];
  if (filled) classes.push("filled");
  if (last) classes.push("last");
  if (options.selected === name) classes.push("selected");
  if (options.hint && options.hint.slice(1) === name) classes.push("hint");
  if (freshCells.has(name)) classes.push("scored");
  if (mark) classes.push(...mark.classes);
  let label = filled ? t("web.cell_letter", { cell: name, letter }) : t("web.cell_empty", { cell: name });
  if (last) label += `, ${t("web.last_move")}`;
  if (mark) label += `, ${mark.label}`;
  const cell = el("button", {
    type: "button", role: "gridcell", class: classes.join(" "), "data-cell": name,
    "aria-label": label,
    "aria-disabled": filled || !onLetter ? "true" : null,
    tabindex: "-1", text: filled ? letter : (mark && mark.ghost) || "",
    onclick: onPick && !filled ? () => onPick(name) : null,
    onkeydown: (event) => boardKey(event, state, row, col, onLetter),
  });
  if (freshCells.has(name)) cell.style.setProperty("--owner", seatColour(freshCells.get(name)));
  return cell;
}

// The lines drawn over the grid, each in its owner's colour and dash; the fresh ones grow.
function linesOverlay(state, lines, fresh) {
  const overlay = svg("svg", { class: "lines", viewBox: `0 0 ${state.cols} ${state.rows}`, preserveAspectRatio: "none", "aria-hidden": "true" });
  const animate = !reducedMotion();
  for (const found of lines) {
    const a = parseCell(found.cells[0]);
    const b = parseCell(found.cells[2]);
    const dash = found.owner === null ? "0.1 0.1" : LINE_DASHES[found.owner % LINE_DASHES.length];
    const x1 = a.col + 0.5;
    const y1 = a.row + 0.5;
    const x2 = b.col + 0.5;
    const y2 = b.row + 0.5;
    const drawn = svg("line", {
      x1, y1, x2, y2, stroke: seatColour(found.owner), class: fresh.has(found) ? "fresh" : "",
      "data-owner": found.owner === null ? "" : found.owner,
    });
    if (dash) drawn.setAttribute("stroke-dasharray", dash);
    if (fresh.has(found) && animate) {
      // The line grows from its first cell to its last: a short stroke of the pen.
      drawn.append(svg("animate", { attributeName: "x2", from: x1, to: x2, dur: "0.35s", fill: "freeze" }));
      drawn.append(svg("animate", { attributeName: "y2", from: y1, to: y2, dur: "0.35s", fill: "freeze" }));
    }
    overlay.append(drawn);
  }
  return overlay;
}

// Zoom buttons for boards bigger than the space: the frame then pans (scrolls).
export function zoomControls() {
  const index = ZOOMS.indexOf(boardView.zoom);
  const change = (step) => () => {
    boardView.zoom = ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, index + step))];
    fitBoard();
    const fresh = zoomControls();
    document.querySelector(".zoom").replaceWith(fresh);
    const again = fresh.querySelector(step < 0 ? "#zoom-out" : "#zoom-in");
    (again.disabled ? fresh.querySelector("button:not([disabled])") : again).focus();
  };
  return el("span", { class: "zoom" },
    el("button", { type: "button", id: "zoom-out", "aria-label": t("web.zoom_out"), text: "−",
      disabled: index <= 0, onclick: change(-1) }),
    el("button", { type: "button", id: "zoom-in", "aria-label": t("web.zoom_in"), text: "+",
      disabled: index >= ZOOMS.length - 1, onclick: change(1) }),
    coordinatesToggle(fitBoard));
}

// Sizes the board from the space it has: the width of its column and the height left in
// the window below what stands above it, less what stands below it in the same column.
// Measuring makes the browser lay the page out at once, so a page that redraws in place
// passes `page`, a key of its layout, and the board is not measured again while that key,
// the board's shape, the zoom and the window stay the same.
export function fitBoard(page = null) {
  const frame = document.querySelector(".board-frame");
  if (!frame) return;
  const wrap = frame.firstElementChild;
  const rows = Number(wrap.dataset.rows);
  const cols = Number(wrap.dataset.cols);
  const key = typeof page === "string" ? fitKey(page, rows, cols) : null;
  if (key && boardView.fit && boardView.fit.key === key) return;
  const column = frame.parentElement;
  const phone = window.matchMedia("(max-width: 760px)").matches;
  // A short window (a phone held sideways) has little height left below the header: there the
  // page scrolls to the board, which may take the window's whole height, less the letter
  // picker that every move needs (other controls are a scroll away).
  const short = window.innerHeight < SHORT_WINDOW;
  let below = 0;
  for (let node = frame.nextElementSibling; node; node = node.nextElementSibling) {
    const reserved = short ? node.dataset.reserve === "move" : node.dataset.reserve !== undefined;
    if (reserved) below += node.getBoundingClientRect().height + 8;
  }
  const top = frame.getBoundingClientRect().top + window.scrollY;
  // The column's content box: a panel's padding is not room for the board.
  const style = getComputedStyle(column);
  const width = column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 4;
  const room = short ? window.innerHeight - below - 12 : window.innerHeight - top - below - 12;
  const height = Math.max(phone || short ? 200 : 120, room);
  const gutter = wrap.classList.contains("coords") ? GUTTER : 0;
  const fitted = Math.floor(Math.min((width - gutter) / cols, (height - gutter) / rows, MAX_CELL));
  const least = phone || short ? MIN_PHONE_CELL : MIN_CELL;
  const cell = Math.floor(Math.max(least, fitted) * (boardView.zoom || 1));
  boardView.fit = {
    key, cell, width: Math.floor(width) + 4, height: Math.floor(height) + 4,
    pans: cell * cols + gutter > width || cell * rows + gutter > height,
  };
  applyFit(frame, wrap, boardView.fit);
}

export function focusCell(row, col) {
  const cell = document.querySelector(`.cell[data-cell="${cellName(row, col)}"]`);
  if (!cell) return;
  for (const other of document.querySelectorAll(".cell[tabindex='0']")) other.tabIndex = -1;
  cell.tabIndex = 0;
  cell.focus();
  boardView.focus = cellName(row, col);
}

// The grid's keys: arrows, Home/End (row), PageUp/PageDown (column) move; S and O write.
function boardKey(event, state, row, col, onLetter) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  let target = null;
  if (event.key in moves) {
    const [dr, dc] = moves[event.key];
    target = [row + dr, col + dc];
  } else if (event.key === "Home") target = [event.ctrlKey ? 0 : row, 0];
  else if (event.key === "End") target = [event.ctrlKey ? state.rows - 1 : row, state.cols - 1];
  else if (event.key === "PageUp") target = [0, col];
  else if (event.key === "PageDown") target = [state.rows - 1, col];
  if (target) {
    event.preventDefault();
    focusCell(Math.min(state.rows - 1, Math.max(0, target[0])), Math.min(state.cols - 1, Math.max(0, target[1])));
  } else if (onLetter && "sSoO".includes(event.key) && event.key.length === 1) {
    event.preventDefault();
    if (state.board[row][col] === ".") onLetter(event.key.toUpperCase(), cellName(row, col));
  }
}

// The lines the last action made (on the game page, from the state alone). The engine
// numbers a line by the moves made so far, resignations apart.
export function newestLines(state) {
  const actions = state.actions;
  if (!actions.length || actions[actions.length - 1].startsWith("resign")) return [];
  const moves = actions.filter((action) => !action.startsWith("resign")).length;
  return state.lines.filter((found) => found.ply === moves && found.owner !== null);
}

function moveText(entry) {
  return entry.action.startsWith("resign") ? t("web.move_resigns") : entry.action;
}

// The move list: a column per player, one row per round (a row ends when a player moves
// again, as after an extra turn); each move shows its points and, after an analysis, its flag.
// options: selected (ply), onSelect (makes moves buttons), flags ({ply: "mistake"|"blunder"}).
export function movesTable(seats, moves, options = {}) {
  const head = el("tr", {}, el("th", { scope: "col", class: "round", text: "#" }),
    seats.map((seat, index) => el("th", { scope: "col", "data-seat": index }, seatMark(index), " ", seatName(seat))));
  const body = el("tbody");
  let row = null;
  let lastSeat = Infinity;
  let round = 0;
  const flags = options.flags || {};
  const pending = new Set(options.pending || []);  // moves an analysis has still to report
  moves.forEach((entry, index) => {
    const ply = index + 1;
    if (row === null || entry.seat <= lastSeat) {
      round += 1;
      row = el("tr", {}, el("th", { scope: "row", class: "round", text: String(round) }),
        seats.map(() => el("td")));
      body.append(row);
    }
    lastSeat = entry.seat;
    const flag = flags[ply];
    const parts = [el("span", { class: "played", text: moveText(entry) })];
    if (entry.points > 0) {
      parts.push(el("span", { class: "points", "aria-label": t("web.move_points", { count: entry.points }), text: `+${entry.points}` }));
    }
    if (flag) {
      parts.push(el("span", { class: `flag ${flag}`, title: t(`web.flag.${flag}`), "aria-label": t(`web.flag.${flag}`),
        text: flag === "blunder" ? "??" : "?" }));
    }
    const waits = pending.has(ply) ? " pending" : "";
    const attrs = { class: `move${ply === options.selected ? " current" : ""}${flag ? ` ${flag}` : ""}${waits}`, "data-ply": ply,
      "data-seat": entry.seat };
    const item = options.onSelect
      ? el("button", { type: "button", ...attrs, id: `move-${ply}`, "aria-current": ply === options.selected ? "true" : null,
        onclick: () => options.onSelect(ply) }, parts)
      : el("span", attrs, parts);
    row.children[entry.seat + 1].append(item);
  });
  return el("div", { class: "moves-box", "data-testid": "moves-box" },
    el("table", { class: "moves", id: "moves", "data-testid": "moves" }, el("thead", {}, head), body));
}

// Keeps the newest move (or the chosen one) in view in a long move list, scrolling the
// list alone (never the page, which would take the board out of view on a phone).
export function scrollMoves(ply) {
  const box = document.querySelector(".moves-box");
  if (!box) return;
  const target = ply ? box.querySelector(`.move[data-ply="${ply}"]`) : null;
  if (!target) {
    box.scrollTop = box.scrollHeight;
    return;
  }
  const top = target.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  if (top < box.scrollTop + 30 || top > box.scrollTop + box.clientHeight - 30) {
    box.scrollTop = top - box.clientHeight / 2;
  }
}

window.addEventListener("resize", () => {
  windowSize.splice(0, 2, window.innerWidth, window.innerHeight);
  requestAnimationFrame(fitBoard);
});
