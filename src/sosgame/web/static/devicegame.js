// A game on this device: the page of a game at one screen (board, move list, undo, redo,
// hints, the end of the game), drawn from the engine in the worker (device.js) instead of a
// server's room, and kept in IndexedDB after each change so that a reload plays on.
import { api, el, go, parseCell, patchChildren, router, saveToken, view } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { boardView, drawBoard, fitBoard, focusCell, movesTable, newestLines, zoomControls } from "./board.js";
import { beep } from "./sound.js";
import { announce, announcement, turnText } from "./announcer.js";
import { drawSeats } from "./game.js";
import { engineCall, levelsText, offlineConfig, offlineControl, offlineReady, turnOnOffline } from "./device.js";
import { keepGame, loadGame, newGameId } from "./devicestore.js";

// The game on screen: what the engine last said, and what this page adds to it.
const here = {
  id: null, shown: null, pending: null, selected: null, hint: null, error: "",
  busy: false, thinking: false, animate: false, uploaded: null,
};

// A new game on this device ({rows, cols, mode, seats: [{name, player}]}): the page starts it.
export function startDeviceGame(settings) {
  const id = newGameId();
  here.pending = { id, settings };
  go(`#/device/${id}`);
}

export async function showDeviceGame(id) {
  router.render = () => here.shown && here.id === id && draw();
  Object.assign(here, { id, shown: null, selected: null, hint: null, error: "", busy: true, thinking: false, uploaded: null });
  view().replaceChildren(el("p", { id: "device-starting", text: t("web.device.starting") }));
  let shown;
  try {
    // A first game on this device downloads the engine as the offline-play control does,
    // with its progress shown, and so turns offline play on.
    if (offlineConfig().available && !offlineReady()) {
      view().append(offlineControl());
      await turnOnOffline();
      if (here.id !== id) return;
    }
    if (here.pending && here.pending.id === id) {
      shown = await engineCall("start", here.pending.settings);
      here.pending = null;
    } else {
      const kept = await loadGame(id);
      if (!kept) {
        view().replaceChildren(el("p", { class: "error", text: t("web.no_game") }));
        return;
      }
      here.uploaded = kept.uploaded || null;
      shown = await engineCall("resume", kept.saved);
    }
  } catch (error) {
    if (here.id === id) view().replaceChildren(el("p", { class: "error", role: "alert", text: t("web.device.failed", { message: error.message }) }));
    return;
  }
  if (here.id !== id || location.hash !== `#/device/${id}`) return;
  here.busy = false;
  receive(shown);
}

async function receive(shown) {
  const before = here.shown ? here.shown.state : null;
  shown.state.id = here.id;
  here.shown = shown;
  const state = shown.state;
  if (!before || before.ply !== state.ply) {
    here.selected = null;
    here.hint = shown.hint || null;
  } else if (shown.hint) here.hint = shown.hint;
  here.animate = Boolean(before && state.ply === before.ply + 1);
  if (before && state.ply > before.ply) {
    if (state.result && !before.result) beep("end");
    else beep(state.lines.length > before.lines.length ? "line" : "move");
  }
  // Kept before it is shown: a reload right after the computer's move must find that move there,
  // not ask the computer again, which may choose another.
  await keep();
  if (here.shown !== shown) return;
  draw();
  announce(announcement(before, state, mine(state)));
  if (shown.computer_to_move) computerMove();
}

function keep() {
  const { state, saved } = here.shown;
  return keepGame({
    id: here.id, saved, uploaded: here.uploaded,
    summary: {
      rows: state.rows, cols: state.cols, mode: state.mode, status: state.status, result: state.result,
      seats: state.seats.map((seat) => ({ name: seat.name, player: seat.player })),
    },
  }).catch(() => {});
}

async function engineAct(message) {
  const id = here.id;
  here.busy = true;
  try {
    const shown = await engineCall("act", message);
    if (here.id !== id) return;
    here.busy = false;
    here.thinking = false;
    here.error = "";
    receive(shown);
  } catch (error) {
    if (here.id !== id) return;
    here.busy = false;
    here.thinking = false;
    here.error = t("web.error.other", { message: error.message });
    draw();
  }
}

function computerMove() {
  here.thinking = true;
  draw();
  engineAct({ type: "computer" });
}

// "You" is the one person at a table with computers; at one screen shared by people, nobody.
function mine(state) {
  const people = state.seats.map((seat, index) => (seat.player === "human" ? index : null)).filter((seat) => seat !== null);
  return people.length === 1 ? people : [];
}

function personToMove(state) {
  return !state.result && state.seats[state.turn].player === "human" && !here.busy;
}

function play(letter, cell) {
  const state = here.shown && here.shown.state;
  if (!state || !personToMove(state)) return;
  here.selected = null;
  boardView.focus = cell;
  engineAct({ type: "move", move: `${letter}${cell}` });
}

function pickCell(cell) {
  if (!personToMove(here.shown.state)) return;
  here.selected = cell;
  boardView.focus = cell;
  draw();
  const picker = document.querySelector(".picker button.letter");
  if (picker) picker.focus();
}

function cancelPick() {
  const cell = here.selected;
  here.selected = null;
  draw();
  if (cell) {
    const { row, col } = parseCell(cell);
    focusCell(row, col);
  }
}

function draw() {
  const { state, moves } = here.shown;
  const shown = { ...state, thinking: here.thinking ? state.turn : null };
  const shownView = view().firstElementChild;
  if (!shownView || shownView.dataset.game !== here.id) view().replaceChildren();
  const action = state.actions.length ? state.actions[state.actions.length - 1] : "";
  const board = drawBoard(shown, {
    last: action && !action.startsWith("resign") ? action.slice(1) : "", fresh: here.animate ? newestLines(state) : [],
    selected: here.selected, hint: here.hint, marks: {}, onPick: pickCell, onLetter: play, fitKey: `device|${here.id}`,
  });
  patchChildren(view(), [
    el("div", { class: "game", "data-testid": "game", "data-game": here.id, "data-device": "true",
      "data-ready": personToMove(state) ? "true" : "false" },
      el("div", { class: "board-column" },
        el("h1", { class: "game-title", text: t("web.game_title", { rows: state.rows, cols: state.cols, mode: t(`mode.${state.mode}`) }) }),
        el("p", { class: "meta", id: "device-note", "data-testid": "device-note", text: `${t("web.device.on_device")} ${levelsText()}` }),
        el("div", { class: `banner${state.result ? " over" : ""}`, id: "banner", "data-testid": "banner" },
          el("p", { class: state.result ? "result" : "status", id: state.result ? "result" : "status", text: turnText(state, mine(state)) })),
        board, pickerRow(state),
        el("p", { class: "error", id: "error", role: "alert", text: here.error }),
        controls(state)),
      el("div", { class: "side" },
        el("section", { class: "panel", id: "players", "data-testid": "players" },
          el("h2", { text: t("web.players") }), drawSeats(shown)),
        el("section", { class: "panel", "aria-labelledby": "moves-title" },
          el("h2", { id: "moves-title", text: t("web.moves") }), movesTable(state.seats, moves)))),
  ]);
  here.animate = false;
  fitBoard(`device|${here.id}`);
  document.title = turnText(state, mine(state));
}

function pickerRow(state) {
  const picker = el("div", { class: "picker", id: "picker", onkeydown: here.selected ? (event) => {
    if (event.key === "Escape") cancelPick();
    else if ("sSoO".includes(event.key) && event.key.length === 1) play(event.key.toUpperCase(), here.selected);
  } : null });
  if (here.selected && personToMove(state)) {
    picker.append(
      el("span", { text: t("web.pick_letter", { cell: here.selected }) }),
      el("button", { type: "button", class: "letter", id: "pick-S", text: "S", onclick: () => play("S", here.selected) }),
      el("button", { type: "button", class: "letter", id: "pick-O", text: "O", onclick: () => play("O", here.selected) }),
      el("button", { type: "button", id: "pick-cancel", text: t("web.cancel"), onclick: cancelPick }));
  } else if (here.hint) picker.append(el("span", { id: "hint-text", text: t("web.hint_is", { move: here.hint }) }));
  return el("div", { class: "picker-row", "data-reserve": "move" }, picker, zoomControls());
}

function controls(state) {
  const box = el("div", { class: "controls", "data-reserve": "" });
  const button = (id, label, action, enabled = true) => box.append(
    el("button", { type: "button", id, text: label, disabled: !enabled || here.busy, onclick: action }));
  button("undo", t("web.undo"), () => engineAct({ type: "undo" }), state.can_undo);
  button("redo", t("web.redo"), () => engineAct({ type: "redo" }), state.can_redo);
  button("hint", t("web.hint"), () => engineAct({ type: "hint" }), state.can_hint);
  if (!state.result) {
    button("resign", t("web.resign"), () => {
      if (confirm(t("web.resign_confirm"))) engineAct({ type: "resign" });
    }, personToMove(state));
  }
  button("new-game", t("web.new_game"), () => go("#/"));
  box.append(el("button", { type: "button", id: "download", text: t("web.download"), onclick: download }));
  if (here.uploaded) {
    box.append(el("a", { href: `#/analysis/${here.uploaded}`, id: "uploaded", class: "button-link", text: t("web.analysis") }));
  } else {
    button("upload-record", t("web.device.upload"), upload, navigator.onLine);
  }
  return box;
}

function recordText() {
  return JSON.stringify(here.shown.saved.record, null, 2);
}

function download() {
  const url = URL.createObjectURL(new Blob([recordText()], { type: "application/json" }));
  el("a", { href: url, download: `sos-${here.id}.json` }).click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

// The record, sent to the server for analysis (POST /api/records): the game there is this
// browser's, and the page links to its analysis.
async function upload() {
  const id = here.id;
  try {
    const created = await api("POST", "/api/records", here.shown.saved.record);
    saveToken(created.id, created.token);
    if (here.id !== id) return;
    here.uploaded = created.id;
    here.error = "";
    keep();
  } catch (error) {
    here.error = errorText(error.code, error.message, error.detail);
  }
  if (here.id === id) draw();
}
