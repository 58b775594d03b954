// The game page: what the server sends, drawn; what the player does, sent.
import { api, el, formatClock, go, notice, parseCell, patchChildren, router, saveToken, tokensFor, view } from "./dom.js";
import { errorText, playerLabel, resultText, seatName, settings, t } from "./i18n.js";
import {
  boardView, drawBoard, fitBoard, focusCell, movesTable, newestLines, scrollMoves, seatColour, seatMark, zoomControls,
} from "./board.js";
import { beep } from "./sound.js";
import { allows, fairBar, fairPanel, forgetFair } from "./fairplay.js";
import { chatPanel, receiveChat, resetChat } from "./chat.js";
import { steadily } from "./steady.js";
import { announce, announcement, turnText } from "./announcer.js";
import { berserkMark, seatBar } from "./seatbar.js";
import { followTournament, forgetTournament, tournamentLine } from "./gametournament.js";
import { shareButton } from "./share.js";
import { badgeSoon } from "./mygames.js";

const PROTOCOL = 1;

// The connection to the game's room: the socket (and one being closed on purpose), the
// seats this browser plays, and a move made while the connection was down, sent once it is back.
const connection = { socket: null, leaving: null, seats: [], pending: null };

// The game on screen: the latest state the server sent and what this page adds to it.
const gameView = {
  state: null,
  selected: null, // the cell picked for a move, waiting for its letter
  hint: null,
  error: "",
  invites: null,
  rematch: null,
  moveList: null, // {id, moves: [{action, seat, points}]} of the game on screen
  animate: false, // draw the newest lines growing (once, as they are made)
  refocus: false, // give the focus back to the cell just played from the letter buttons
  clockTimer: null,
};

export function closeSocket() {
  if (connection.socket) {
    connection.leaving = connection.socket;
    connection.socket.close();
  }
  connection.socket = null;
  gameView.state = null;
  performance.clearMeasures("sos:state"); // a game's measures, not a whole visit's
  connection.seats = [];
  gameView.selected = null;
  gameView.hint = null;
  gameView.error = "";
  connection.pending = null;
  gameView.invites = null;
  gameView.rematch = null;
  gameView.ratings = null;
  gameView.premove = null;
  clearInterval(gameView.clockTimer);
  forgetFair();
  forgetTournament();
  notice("");
}

// Sends a message; a move made while the connection is down is kept (the latest one only)
// and sent when it is back if the game is still at the same ply, else the player is told.
function send(message) {
  if (connection.socket && connection.socket.readyState === WebSocket.OPEN) {
    connection.socket.send(JSON.stringify({ v: PROTOCOL, ...message }));
    return true;
  }
  if (message.type === "move") {
    connection.pending = message;
    notice(t("web.move_queued", { move: message.move }));
  }
  return false;
}

function sendPending(state) {
  const pending = connection.pending;
  if (!pending) return;
  connection.pending = null;
  if (pending.ply === state.ply && myTurn(state)) send(pending);
  else gameView.error = t("web.move_dropped", { move: pending.move });
}

export function showGame(id, attempt = 0) {
  router.render = () => gameView.state && drawGame();
  if (!gameView.state) view().replaceChildren(el("p", { text: t("web.connecting") }));
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${id}`);
  connection.socket = socket;
  resetChat(id, send, tokensFor(id).length > 0);
  socket.addEventListener("open", () => {
    notice("");
    socket.send(JSON.stringify({ v: PROTOCOL, type: "hello", tokens: tokensFor(id) }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "welcome") attempt = 0;
    receive(id, message);
  });
  socket.addEventListener("close", () => {
    if (connection.leaving === socket || connection.socket !== socket) return;
    notice(t("web.reconnecting"));
    const delay = Math.min(5000, 300 * 2 ** attempt);
    setTimeout(() => {
      if (connection.socket === socket) showGame(id, attempt + 1);
    }, delay);
  });
}

// What the server says in the game's room, by the message's type.
function receive(id, message) {
  if (message.type === "welcome") connection.seats = message.seats;
  else if (message.type === "state") {
    receiveState(id, message.game);
    badgeSoon();
  } else if (message.type === "presence") receivePresence(message);
  else if (message.type === "hint") {
    gameView.hint = message.move;
    drawGame();
  } else if (message.type === "rematch") {
    // Each player's tokens open the same seats in the rematch.
    for (const token of tokensFor(id)) saveToken(message.game, token);
    gameView.rematch = message.game;
    // Each player's page opens the rematch by itself, where its first move is awaited; a
    // spectator's offers a link to watch it.
    if (connection.seats.length) {
      go(`#/game/${message.game}`);
      return;
    }
    drawGame();
  } else if (message.type === "chat") receiveChat(message, gameView.state ? gameView.state.seats : []);
  else if (message.type === "error") receiveError(message);
}

function receiveState(id, game) {
  const started = performance.now();
  handleState(id, game);
  // Each state's handling, for the page benchmark (benchmarks/web_page.py) and the browser's tools.
  performance.measure("sos:state", { start: started });
}

function handleState(id, game) {
  const before = gameView.state;
  game.receivedAt = performance.now(); // the countdowns count from here
  gameView.state = game;
  if (!before || before.ply !== game.ply) {
    gameView.hint = null;
    gameView.selected = null;
  }
  gameView.error = "";
  if (!before || before.id !== game.id) gameView.rematch = game.rematch;
  // A new move is drawn with its lines growing; a first look or an undo is not.
  gameView.animate = Boolean(before && before.id === game.id && game.ply === before.ply + 1);
  updateMoves(before, game);
  soundFor(before, game);
  sendPending(game);
  playPremove(before, game);
  drawGame();
  announce(announcement(before, game, youSeats(game)));
  loadRatings(game);
  followTournament(game, drawGame);
  if (game.kind === "online" && connection.seats.length && gameView.invites === null) loadInvites(id);
}

// After a rated game, what it did to each player's rating. Rating a game takes the server a
// moment after its end, so an answer without it is asked again a few times.
const RATINGS_TRIES = 5;

function loadRatings(game, attempt = 0) {
  if (!game.result || !game.rated) return;
  const known = gameView.ratings;
  if (attempt === 0 && known && known.id === game.id) return;
  gameView.ratings = { id: game.id, seats: known && known.id === game.id ? known.seats : [] };
  api("GET", `/api/games/${encodeURIComponent(game.id)}/ratings`).then((found) => {
    if (!gameView.state || gameView.state.id !== game.id) return;
    if (found.rated === null && attempt + 1 < RATINGS_TRIES) {
      setTimeout(() => loadRatings(game, attempt + 1), 1000 * (attempt + 1));
      return;
    }
    gameView.ratings = { id: game.id, seats: found.seats.filter((seat) => seat.after) };
    drawGame();
  }).catch(() => {});
}

function ratingChange(index) {
  const ratings = gameView.ratings;
  const found = ratings && gameView.state && ratings.id === gameView.state.id
    ? ratings.seats.find((seat) => seat.seat === index) : null;
  if (!found) return null;
  const one = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  const rating = new Intl.NumberFormat(settings.lang, one).format(found.after.rating);
  const change = new Intl.NumberFormat(settings.lang, { ...one, signDisplay: "exceptZero" })
    .format(found.after.rating - found.before.rating);
  return el("span", { class: "meta rating-change", "data-seat": index, text: t("web.rating_change", { rating, change }) });
}

function receivePresence(message) {
  const state = gameView.state;
  if (!state) return;
  state.spectators = message.spectators;
  message.connected.forEach((on, seat) => { if (state.seats[seat]) state.seats[seat].connected = on; });
  drawGame();
}

function receiveError(message) {
  if (message.code === "no_game") {
    view().replaceChildren(el("p", { class: "error", text: t("web.no_game") }));
    connection.socket = null; // the room is gone: no reconnecting
    return;
  }
  gameView.error = errorText(message.code, message.message, message.detail);
  if (gameView.state) drawGame();
}

// The seats that read "you": those this browser plays, unless it plays every human seat of a
// game with several (players passing one device, where "you" would be everybody).
function youSeats(state) {
  const mine = connection.seats;
  const humans = state.seats.filter((seat) => seat.player === "human").length;
  return humans > 1 && mine.length >= humans ? [] : mine;
}

function myTurn(state) {
  return allows(state, connection.seats, "can_move");
}

// A premove, in a clock game as lichess has them: a move chosen while another seat is to move,
// kept in this page (one at most) and sent the moment this player's turn comes, if its cell is
// still free. An opponent's extra turn is still theirs, so the premove waits through it.
function canPremove(state) {
  return Boolean(state.clock) && state.kind === "online" && state.status === "playing" && !state.result
    && youSeats(state).length > 0 && !myTurn(state);
}

function playPremove(before, state) {
  const premove = gameView.premove;
  if (!premove) return;
  // A finished game, another game or a move taken back ends it, as a takeback does on lichess.
  if (premove.id !== state.id || state.result || (before && state.ply < before.ply)) {
    gameView.premove = null;
    return;
  }
  if (!myTurn(state)) return;
  gameView.premove = null;
  const { row, col } = parseCell(premove.move.slice(1));
  if (state.board[row][col] !== ".") {
    gameView.error = t("web.premove_dropped", { move: premove.move });
    return;
  }
  send({ type: "move", move: premove.move, ply: state.ply });
}

function cancelPremove() {
  gameView.premove = null;
  drawGame();
}

function premoveMarks(state) {
  const premove = gameView.premove;
  if (!premove || premove.id !== state.id) return {};
  return { [premove.move.slice(1)]: { classes: ["premove"], label: t("web.premove_label"), ghost: premove.move[0] } };
}

function play(letter, cell) {
  const state = gameView.state;
  if (state && canPremove(state)) {
    gameView.premove = { id: state.id, move: `${letter}${cell}` };
    gameView.selected = null;
    drawGame();
    announce(t("web.premove", { move: gameView.premove.move }));
    return;
  }
  if (!state || !myTurn(state)) return;
  send({ type: "move", move: `${letter}${cell}`, ply: state.ply });
  gameView.selected = null;
  boardView.focus = cell;
  // A move made from the letter buttons gives the focus back to its cell once drawn.
  gameView.refocus = Boolean(document.activeElement && document.activeElement.closest(".picker"));
}

export function drawSeats(state, scores = state.scores) {
  const list = el("ul", { class: "seats", id: "seats" });
  const clock = state.clock;
  state.seats.forEach((seat, index) => {
    const turn = !state.result && state.status === "playing" && state.turn === index;
    const details = [playerLabel(seat)];
    if (connection.seats.includes(index)) details.push(t("web.you"));
    if (seat.resigned) details.push(t("web.resigned"));
    if (state.thinking === index) details.push(t("web.thinking"));
    const presence = seat.player === "human" && state.kind === "online"
      ? el("span", { class: `presence ${seat.connected ? "on" : "off"}`,
        text: seat.taken ? (seat.connected ? t("web.connected") : t("web.not_connected")) : t("web.free_seat") })
      : null;
    const item = el("li", { class: turn ? "turn" : "", "data-seat": index, "aria-current": turn ? "true" : null },
      seatMark(index),
      el("span", { class: "who" }, el("strong", { text: seatName(seat) }), " ", berserkMark(state, index), " ",
        el("span", { class: "meta", text: `(${details.join(", ")})` }), " ", presence, " ", ratingChange(index)),
      clock ? el("span", { class: "clock", "data-seat": index, text: formatClock(clock.remaining[index]) }) : null,
      el("span", { class: "score", "aria-label": t("web.points", { name: seatName(seat), count: scores[index] }), text: String(scores[index]) }));
    item.style.setProperty("--seat", seatColour(index));
    list.append(item);
  });
  return list;
}

function tickClocks() {
  clearInterval(gameView.clockTimer);
  const state = gameView.state;
  if (!state || !state.clock || state.clock.running === null) return;
  const started = performance.now();
  const seat = state.clock.running;
  const left = state.clock.remaining[seat];
  gameView.clockTimer = setInterval(() => {
    const now = left - (performance.now() - started);
    for (const node of document.querySelectorAll(`.clock[data-seat="${seat}"]`)) {
      node.textContent = formatClock(now);
      node.classList.toggle("low", now < 10000);
    }
  }, 250);
}

// The window's title says whose turn it is, so a player in another tab sees it too.
function gameTitle(state) {
  if (state.result) return t("web.title_over", { result: resultText(state.result, state.seats, youSeats(state)) });
  if (state.status === "open") return t("web.title_waiting");
  if (myTurn(state)) return t("web.title_your_turn");
  return t("web.title_turn", { name: seatName(state.seats[state.turn]) });
}

// The move list of the game on screen: kept from the states as they come (the mover of a
// new action is the seat the previous state gave the turn to), else asked of the server.
function updateMoves(before, state) {
  const known = gameView.moveList && gameView.moveList.id === state.id ? gameView.moveList.moves : null;
  const actions = state.actions;
  const agrees = (count) => known.slice(0, count).every((entry, index) => entry.action === actions[index]);
  if (known && known.length >= actions.length && agrees(actions.length)) {
    known.length = actions.length; // an undo
    return;
  }
  if (known && before && before.id === state.id && known.length === actions.length - 1
      && before.ply === known.length && agrees(known.length)) {
    const action = actions[actions.length - 1];
    const seat = action.startsWith("resign") ? Number(action.split(":")[1]) : before.turn;
    known.push({ action, seat, points: Math.max(0, state.lines.length - before.lines.length) });
    return;
  }
  gameView.moveList = { id: state.id, moves: null };
  api("GET", `/api/games/${state.id}/moves`).then((data) => {
    if (!gameView.state || gameView.state.id !== state.id) return;
    if (data.moves.length !== gameView.state.actions.length) return updateMoves(null, gameView.state);
    gameView.moveList = { id: state.id, moves: data.moves };
    drawGame();
  }).catch(() => {});
}

// A sound for what just happened, if the player turned sounds on.
function soundFor(before, state) {
  if (!before || before.id !== state.id || state.ply <= before.ply) return;
  if (state.result && !before.result) beep("end");
  else if (state.lines.length > before.lines.length) beep("line");
  else beep("move");
}

// Draws the game page anew from gameView, keeping the focus, the board's pan and the clocks.
// Every redraw of the game goes through here: none while a press is under way.
const drawGame = steadily(drawGameNow);

function drawGameNow() {
  const state = gameView.state;
  if (!state) return;
  const kept = keptFocus();
  const fair = fairPanel(state, { mine: connection.seats, send, redraw: drawGame });
  // Patched, not replaced, once this game is on screen: only what changed is touched, so a
  // move costs the page little. Another page's nodes (with listeners of their own) go.
  const shown = view().firstElementChild;
  if (!shown || shown.dataset.game !== state.id) view().replaceChildren();
  patchChildren(view(), [
    el("div", { class: "game", "data-testid": "game", "data-game": state.id },
      el("div", { class: "board-column" },
        gameHeader(state), tournamentLine(state, connection.seats, send), shareRow(state), seatBar(state), banner(state), gameBoard(state), pickerRow(state),
        el("p", { class: "error", id: "error", role: "alert", text: gameView.error }),
        gameControls(state)),
      el("div", { class: "side" }, playersPanel(state), fair, linksPanel(state), movesPanel(state), chatPanel())),
    fairBar(state, { mine: connection.seats, send }),
  ]);
  gameView.animate = false;
  document.title = gameTitle(state);
  fitBoard(layoutKey(state));
  // The move list follows the game at the next frame, where the page is laid out anyway.
  if (gameView.scrolledAt !== state.ply) requestAnimationFrame(() => scrollMoves());
  gameView.scrolledAt = state.ply;
  restoreFocus(kept);
  tickClocks();
}

// What the space around the board depends on, beside the window: the board is fitted again
// when the game starts or ends, or this browser's seats change (other controls show).
function layoutKey(state) {
  return ["game", state.id, state.status, Boolean(state.result), connection.seats.length].join("|");
}

// What has the focus before a redraw (a cell or a control) and how far the board is panned.
function keptFocus() {
  const active = document.activeElement;
  const cell = active && active.dataset ? active.dataset.cell : null;
  const frame = document.querySelector(".board-frame");
  return {
    cell,
    // A redraw (someone joining, say) must not take the focus from a control being used.
    control: !cell && active && active.id ? active.id : null,
    pan: frame ? [frame.scrollLeft, frame.scrollTop] : null,
  };
}

function restoreFocus(kept) {
  const frame = document.querySelector(".board-frame");
  if (kept.pan && frame) [frame.scrollLeft, frame.scrollTop] = kept.pan;
  const target = kept.cell || boardView.focus || "a1";
  const node = document.querySelector(`.cell[data-cell="${target}"]`);
  if (node) node.tabIndex = 0;
  if (kept.cell || gameView.refocus) {
    const { row, col } = parseCell(target);
    focusCell(row, col);
  } else if (kept.control) {
    const again = document.getElementById(kept.control);
    if (again) again.focus();
  }
  gameView.refocus = false;
}

function gameHeader(state) {
  return el("h1", { class: "game-title", text: t("web.game_title", { rows: state.rows, cols: state.cols, mode: t(`mode.${state.mode}`) }) });
}

// At the top of a new online game, for its players: the invitation, to share at once.
function shareRow(state) {
  if (state.kind !== "online" || state.status !== "open" || !connection.seats.length) return null;
  const free = state.seats.findIndex((seat, index) => seat.player === "human" && !seat.taken && (gameView.invites || [])[index]);
  if (free < 0) return null;
  return shareButton(gameView.invites[free], t("web.share_title", { rows: state.rows, cols: state.cols }));
}

function banner(state) {
  const over = Boolean(state.result);
  const extra = state.extra_turn && !over;
  return el("div", { class: `banner${extra ? " extra" : ""}${over ? " over" : ""}`, id: "banner", "data-testid": "banner" },
    // What changes here is told by the page's live region (announcer.js), not by the banner.
    el("p", { class: over ? "result" : "status", id: over ? "result" : "status", text: turnText(state, youSeats(state)) }),
    extra ? el("span", { class: "badge", id: "extra-turn", text: youSeats(state).includes(state.turn)
      ? t("web.extra_turn_you") : t("web.extra_turn", { name: seatName(state.seats[state.turn]) }) }) : null);
}

function gameBoard(state) {
  const action = state.actions.length ? state.actions[state.actions.length - 1] : "";
  const last = action && !action.startsWith("resign") ? action.slice(1) : "";
  return drawBoard(state, {
    last, fresh: gameView.animate ? newestLines(state) : [], selected: gameView.selected, hint: gameView.hint,
    marks: premoveMarks(state), onPick: pickCell, onLetter: play, fitKey: layoutKey(state),
  });
}

// A click on an empty cell picks it; its letter comes from the picker's buttons.
function pickCell(cell) {
  if (!myTurn(gameView.state) && !canPremove(gameView.state)) return;
  gameView.selected = cell;
  boardView.focus = cell;
  drawGame();
  const picker = document.querySelector(".picker button.letter");
  if (picker) picker.focus();
}

// The letter picker for the picked cell (or the hint), beside the zoom buttons.
function pickerRow(state) {
  const picking = gameView.selected && (myTurn(state) || canPremove(state));
  const picker = el("div", { class: "picker", id: "picker", onkeydown: picking ? (event) => {
    if (event.key === "Escape") cancelPick();
    else if ("sSoO".includes(event.key) && event.key.length === 1) play(event.key.toUpperCase(), gameView.selected);
  } : null });
  if (picking) {
    const ahead = !myTurn(state);
    picker.append(
      el("span", { text: ahead ? t("web.premove_pick", { cell: gameView.selected }) : t("web.pick_letter", { cell: gameView.selected }) }),
      el("button", { type: "button", class: "letter", id: "pick-S", text: "S", onclick: () => play("S", gameView.selected) }),
      el("button", { type: "button", class: "letter", id: "pick-O", text: "O", onclick: () => play("O", gameView.selected) }),
      el("button", { type: "button", id: "pick-cancel", text: t("web.cancel"), onclick: cancelPick }));
  } else if (gameView.premove && gameView.premove.id === state.id) {
    picker.append(el("span", { id: "premove", text: t("web.premove", { move: gameView.premove.move }) }),
      el("button", { type: "button", id: "premove-cancel", text: t("web.premove_cancel"), onclick: cancelPremove }));
  } else if (gameView.hint) {
    picker.append(el("span", { id: "hint-text", text: t("web.hint_is", { move: gameView.hint }) }));
  }
  return el("div", { class: "picker-row", "data-reserve": "move" }, picker, zoomControls());
}

// The buttons under the board: undo, redo, hint, resign, rematch, and the links.
function gameControls(state) {
  const local = state.kind === "local";
  const mine = connection.seats.length > 0;
  const over = Boolean(state.result);
  const controls = el("div", { class: "controls", "data-reserve": "" });
  const button = (id, label, action, enabled = true) => controls.append(
    el("button", { type: "button", id, text: label, disabled: !enabled, onclick: action }));
  if (local && mine) {
    button("undo", t("web.undo"), () => send({ type: "undo", ply: state.ply }), allows(state, connection.seats, "can_undo"));
    button("redo", t("web.redo"), () => send({ type: "redo", ply: state.ply }), allows(state, connection.seats, "can_redo"));
    button("hint", t("web.hint"), () => send({ type: "hint" }), allows(state, connection.seats, "can_hint"));
  }
  if (mine && !over) {
    // In a local game the seat to move resigns; online, this browser's seat.
    const resigner = local ? state.turn : connection.seats[0];
    button("resign", t("web.resign"), () => {
      if (confirm(t("web.resign_confirm"))) send({ type: "resign", ply: state.ply, seat: resigner });
    }, allows(state, [resigner], "can_resign"));
  }
  if (local && mine && over && !gameView.rematch) button("rematch", t("web.rematch"), rematch);
  if (gameView.rematch) {
    controls.append(el("a", {
      href: `#/game/${gameView.rematch}`, id: "rematch-link",
      text: mine ? t("web.rematch_play") : t("web.rematch_offered"),
    }));
  }
  if (over) {
    controls.append(el("a", { href: `#/analysis/${state.id}`, id: "analysis", class: "button-link", text: t("web.analysis") }));
    controls.append(el("a", { href: `#/replay/${state.id}`, id: "replay", class: "button-link", text: t("web.replay") }));
  }
  // Leaving an online game being played does not end it: the player is asked first.
  const live = mine && !over && !local && state.status === "playing";
  button("new-game", t("web.new_game"), () => {
    if (!live || confirm(t("web.leave_confirm"))) go("#/");
  });
  controls.append(el("a", { href: `/api/games/${state.id}/record`, download: `sos-${state.id}.json`, id: "download", text: t("web.download"),
    onclick: mine ? (event) => downloadWithChat(event, state.id) : null }));
  return controls;
}

// A player's download carries the players' chat: the record is asked for with the seat's
// token (a link alone would bring the public record).
async function downloadWithChat(event, id) {
  event.preventDefault();
  const response = await fetch(`/api/games/${id}/record`, { headers: { authorization: `Bearer ${tokensFor(id)[0]}` } });
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    notice(errorText(data.error && data.error.code, (data.error && data.error.message) || response.statusText, data.error && data.error.detail));
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  el("a", { href: url, download: `sos-${id}.json` }).click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function playersPanel(state) {
  return el("section", { class: "panel", id: "players", "data-testid": "players", "aria-labelledby": "players-title" },
    el("h2", { id: "players-title", text: t("web.players") }), drawSeats(state),
    state.kind === "online"
      ? el("p", { class: "meta", id: "rated-status", text: state.rated ? t("web.rated_game") : t("web.game_casual") })
      : null,
    state.spectators ? el("p", { class: "meta", id: "spectators", text: t("web.spectators", { count: state.spectators }) }) : null);
}

// The invitation links of an online game, for the players who created it.
function linksPanel(state) {
  if (state.kind !== "online" || !connection.seats.length || !location) return null;
  const base = `${location.origin}/#`;
  const invites = gameView.invites || [];
  const rows = state.seats.map((seat, index) => (seat.player === "human" && !seat.taken && invites[index]
    ? linkRow(t("web.invite_seat", { number: index + 1, name: seat.name }), invites[index], `invite-${index}`)
    : null));
  rows.push(linkRow(t("web.spectator_link"), `${base}/game/${state.id}`, "spectate"));
  return el("section", { class: "panel links", id: "links" }, el("h2", { text: t("web.invite") }), rows);
}

function movesPanel(state) {
  const list = gameView.moveList;
  const moves = list && list.id === state.id && list.moves ? movesTable(state.seats, list.moves)
    : el("p", { class: "meta", text: t("web.connecting") });
  return el("section", { class: "panel", "aria-labelledby": "moves-title" }, el("h2", { id: "moves-title", text: t("web.moves") }), moves);
}

function cancelPick() {
  const cell = gameView.selected;
  gameView.selected = null;
  drawGame();
  if (cell) {
    const { row, col } = parseCell(cell);
    focusCell(row, col);
  }
}

function linkRow(label, url, id) {
  const input = el("input", { type: "text", readonly: true, value: url, id, "aria-label": label });
  return el("div", { class: "field" }, el("span", { text: label }), input,
    el("button", { type: "button", text: t("web.copy"), onclick: async (event) => {
      input.select();
      try { await navigator.clipboard.writeText(url); } catch { document.execCommand("copy"); }
      event.target.textContent = t("web.copied");
    } }));
}

async function loadInvites(id) {
  gameView.invites = [];
  try {
    const data = await api("GET", `/api/games/${id}/invites`, undefined, tokensFor(id)[0]);
    if (gameView.state && gameView.state.id === id) {
      gameView.invites = data.seats;
      drawGame();
    }
  } catch {
    gameView.invites = [];
  }
}

async function rematch() {
  const state = gameView.state;
  try {
    const created = await api("POST", `/api/games/${state.id}/rematch`, {}, tokensFor(state.id)[0]);
    for (const token of tokensFor(state.id)) saveToken(created.id, token);
    go(`#/game/${created.id}`);
  } catch (error) {
    gameView.error = errorText(error.code, error.message);
    drawGame();
  }
}
