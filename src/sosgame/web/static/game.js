// The game page: what the server sends, drawn; what the player does, sent.
"use strict";

// ------------------------------------------------------------------------------ game page

function closeSocket() {
  if (app.socket) {
    app.leaving = app.socket;
    app.socket.close();
  }
  app.socket = null;
  app.state = null;
  app.seats = [];
  app.selected = null;
  app.hint = null;
  app.error = "";
  app.pending = null;
  app.invites = null;
  app.rematch = null;
  clearInterval(app.clockTimer);
  notice("");
}

// Sends a message; a move made while the connection is down is kept (the latest one only)
// and sent when it is back if the game is still at the same ply, else the player is told.
function send(message) {
  if (app.socket && app.socket.readyState === WebSocket.OPEN) {
    app.socket.send(JSON.stringify({ v: PROTOCOL, ...message }));
    return true;
  }
  if (message.type === "move") {
    app.pending = message;
    notice(t("web.move_queued", { move: message.move }));
  }
  return false;
}

function sendPending(state) {
  const pending = app.pending;
  if (!pending) return;
  app.pending = null;
  if (pending.ply === state.ply && myTurn(state)) send(pending);
  else app.error = t("web.move_dropped", { move: pending.move });
}

function showGame(id, attempt = 0) {
  app.render = () => app.state && drawGame();
  if (!app.state) view().replaceChildren(el("p", { text: t("web.connecting") }));
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${id}`);
  app.socket = socket;
  socket.addEventListener("open", () => {
    notice("");
    socket.send(JSON.stringify({ v: PROTOCOL, type: "hello", tokens: tokensFor(id) }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "welcome") {
      app.seats = message.seats;
      attempt = 0;
    } else if (message.type === "state") {
      const before = app.state;
      app.state = message.game;
      if (!before || before.ply !== app.state.ply) {
        app.hint = null;
        app.selected = null;
      }
      app.error = "";
      if (!before || before.id !== app.state.id) app.rematch = app.state.rematch;
      // A new move is drawn with its lines growing; a first look or an undo is not.
      app.animate = Boolean(before && before.id === app.state.id && app.state.ply === before.ply + 1);
      updateMoves(before, app.state);
      soundFor(before, app.state);
      sendPending(app.state);
      drawGame();
      if (app.state.kind === "online" && app.seats.length && app.invites === null) loadInvites(id);
    } else if (message.type === "presence") {
      if (app.state) {
        app.state.spectators = message.spectators;
        message.connected.forEach((on, seat) => { if (app.state.seats[seat]) app.state.seats[seat].connected = on; });
        drawGame();
      }
    } else if (message.type === "hint") {
      app.hint = message.move;
      drawGame();
    } else if (message.type === "rematch") {
      // Each player's tokens open the same seats in the rematch.
      for (const token of tokensFor(id)) saveToken(message.game, token);
      app.rematch = message.game;
      drawGame();
    } else if (message.type === "error") {
      if (message.code === "no_game") {
        view().replaceChildren(el("p", { class: "error", text: t("web.no_game") }));
        app.socket = null;
        return;
      }
      app.error = errorText(message.code, message.message);
      if (app.state) drawGame();
    }
  });
  socket.addEventListener("close", () => {
    if (app.leaving === socket || app.socket !== socket) return;
    notice(t("web.reconnecting"));
    const delay = Math.min(5000, 300 * 2 ** attempt);
    setTimeout(() => {
      if (app.socket === socket) showGame(id, attempt + 1);
    }, delay);
  });
}

function myTurn(state) {
  return state.status === "playing" && !state.result && app.seats.includes(state.turn)
    && state.seats[state.turn].player === "human";
}

function play(letter, cell) {
  const state = app.state;
  if (!state || !myTurn(state)) return;
  send({ type: "move", move: `${letter}${cell}`, ply: state.ply });
  app.selected = null;
  app.focus = cell;
  // A move made from the letter buttons gives the focus back to its cell once drawn.
  app.refocus = Boolean(document.activeElement && document.activeElement.closest(".picker"));
}

function drawSeats(state, scores = state.scores) {
  const list = el("ul", { class: "seats", id: "seats" });
  const clock = state.clock;
  state.seats.forEach((seat, index) => {
    const turn = !state.result && state.status === "playing" && state.turn === index;
    const details = [playerLabel(seat)];
    if (app.seats.includes(index)) details.push(t("web.you"));
    if (seat.resigned) details.push(t("web.resigned"));
    if (state.thinking === index) details.push(t("web.thinking"));
    const presence = seat.player === "human" && state.kind === "online"
      ? el("span", { class: `presence ${seat.connected ? "on" : "off"}`,
        text: seat.taken ? (seat.connected ? t("web.connected") : t("web.not_connected")) : t("web.free_seat") })
      : null;
    const item = el("li", { class: turn ? "turn" : "", "data-seat": index, "aria-current": turn ? "true" : null },
      seatMark(index),
      el("span", { class: "who" }, el("strong", { text: seat.name }), " ",
        el("span", { class: "meta", text: `(${details.join(", ")})` }), " ", presence),
      clock ? el("span", { class: "clock", "data-seat": index, text: formatClock(clock.remaining[index]) }) : null,
      el("span", { class: "score", "aria-label": t("web.points", { name: seat.name, count: scores[index] }), text: String(scores[index]) }));
    item.style.setProperty("--seat", seatColour(index));
    list.append(item);
  });
  return list;
}

function tickClocks() {
  clearInterval(app.clockTimer);
  const state = app.state;
  if (!state || !state.clock || state.clock.running === null) return;
  const started = performance.now();
  const seat = state.clock.running;
  const left = state.clock.remaining[seat];
  app.clockTimer = setInterval(() => {
    const node = document.querySelector(`.clock[data-seat="${seat}"]`);
    if (!node) return;
    const now = left - (performance.now() - started);
    node.textContent = formatClock(now);
    node.classList.toggle("low", now < 10000);
  }, 250);
}

function statusLine(state) {
  if (state.result) return "";
  if (state.status === "open") return t("web.waiting");
  const name = state.seats[state.turn].name;
  return state.extra_turn ? t("to_move_again", { name }) : t("to_move", { name });
}

// The window's title says whose turn it is, so a player in another tab sees it too.
function gameTitle(state) {
  if (state.result) return t("web.title_over", { result: resultText(state.result, state.seats) });
  if (state.status === "open") return t("web.title_waiting");
  if (myTurn(state)) return t("web.title_your_turn");
  return t("web.title_turn", { name: state.seats[state.turn].name });
}

// The move list of the game on screen: kept from the states as they come (the mover of a
// new action is the seat the previous state gave the turn to), else asked of the server.
function updateMoves(before, state) {
  const known = app.moveList && app.moveList.id === state.id ? app.moveList.moves : null;
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
  app.moveList = { id: state.id, moves: null };
  api("GET", `/api/games/${state.id}/moves`).then((data) => {
    if (!app.state || app.state.id !== state.id) return;
    if (data.moves.length !== app.state.actions.length) return updateMoves(null, app.state);
    app.moveList = { id: state.id, moves: data.moves };
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

function drawGame() {
  const state = app.state;
  if (!state) return;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.cell : null;
  // A redraw (someone joining, say) must not take the focus from a control being used.
  const focusedControl = !focused && document.activeElement && document.activeElement.id ? document.activeElement.id : null;
  const oldFrame = document.querySelector(".board-frame");
  const pan = oldFrame ? [oldFrame.scrollLeft, oldFrame.scrollTop] : null;
  const local = state.kind === "local";
  const mine = app.seats.length > 0;
  const over = Boolean(state.result);
  const controls = el("div", { class: "controls", "data-reserve": "" });
  const button = (id, label, action, enabled = true) => controls.append(
    el("button", { type: "button", id, text: label, disabled: !enabled, onclick: action }));
  if (local && mine) {
    button("undo", t("web.undo"), () => send({ type: "undo", ply: state.ply }), state.can_undo);
    button("redo", t("web.redo"), () => send({ type: "redo", ply: state.ply }), state.can_redo);
    button("hint", t("web.hint"), () => send({ type: "hint" }), myTurn(state));
  }
  if (mine && !over) {
    button("resign", t("web.resign"), () => {
      if (confirm(t("web.resign_confirm"))) {
        send({ type: "resign", ply: state.ply, seat: local ? state.turn : app.seats[0] });
      }
    }, state.status === "playing" && (!local || myTurn(state)));
  }
  if (mine && over && !app.rematch) button("rematch", t("web.rematch"), rematch);
  if (app.rematch) {
    controls.append(el("a", {
      href: `#/game/${app.rematch}`, id: "rematch-link",
      text: mine ? t("web.rematch_play") : t("web.rematch_offered"),
    }));
  }
  if (over) {
    controls.append(el("a", { href: `#/analysis/${state.id}`, id: "analysis", class: "button-link", text: t("web.analysis") }));
    controls.append(el("a", { href: `#/replay/${state.id}`, id: "replay", class: "button-link", text: t("web.replay") }));
  }
  button("new-game", t("web.new_game"), () => go("#/"));
  controls.append(el("a", { href: `/api/games/${state.id}/record`, download: `sos-${state.id}.json`, id: "download", text: t("web.download") }));

  const picker = el("div", { class: "picker", id: "picker" });
  if (app.selected && myTurn(state)) {
    picker.append(
      el("span", { text: t("web.pick_letter", { cell: app.selected }) }),
      el("button", { type: "button", class: "letter", id: "pick-S", text: "S", onclick: () => play("S", app.selected) }),
      el("button", { type: "button", class: "letter", id: "pick-O", text: "O", onclick: () => play("O", app.selected) }),
      el("button", { type: "button", id: "pick-cancel", text: t("web.cancel"), onclick: cancelPick }));
    picker.addEventListener("keydown", (event) => {
      if (event.key === "Escape") cancelPick();
      else if ("sSoO".includes(event.key) && event.key.length === 1) play(event.key.toUpperCase(), app.selected);
    });
  } else if (app.hint) {
    picker.append(el("span", { id: "hint-text", text: t("web.hint_is", { move: app.hint }) }));
  }
  const pickerRow = el("div", { class: "picker-row", "data-reserve": "" }, picker, zoomControls());

  const extra = state.extra_turn && !over;
  const banner = el("div", { class: `banner${extra ? " extra" : ""}${over ? " over" : ""}`, id: "banner", "data-testid": "banner" },
    over ? el("p", { class: "result", id: "result", role: "status", text: resultText(state.result, state.seats) })
      : el("p", { class: "status", id: "status", "aria-live": "polite", text: statusLine(state) }),
    extra ? el("span", { class: "badge", id: "extra-turn", text: t("web.extra_turn", { name: state.seats[state.turn].name }) }) : null);
  const moveList = app.moveList && app.moveList.id === state.id && app.moveList.moves ? app.moveList.moves : null;
  const moves = moveList ? movesTable(state.seats, moveList) : el("p", { class: "meta", text: t("web.connecting") });
  let links = null;
  if (state.kind === "online" && mine && location) {
    const base = `${location.origin}/#`;
    const invites = app.invites || [];
    const rows = state.seats.map((seat, index) => (seat.player === "human" && !seat.taken && invites[index]
      ? linkRow(t("web.invite_seat", { number: index + 1, name: seat.name }), invites[index], `invite-${index}`)
      : null));
    rows.push(linkRow(t("web.spectator_link"), `${base}/game/${state.id}`, "spectate"));
    links = el("section", { class: "panel links", id: "links" }, el("h2", { text: t("web.invite") }), rows);
  }
  const header = el("h1", { class: "game-title", text: t("web.game_title", { rows: state.rows, cols: state.cols, mode: t(`mode.${state.mode}`) }) });
  const last = state.actions.length && !state.actions[state.actions.length - 1].startsWith("resign")
    ? state.actions[state.actions.length - 1].slice(1) : "";
  view().replaceChildren(
    el("div", { class: "game", "data-testid": "game" },
      el("div", { class: "board-column" },
        header, banner,
        drawBoard(state, { interactive: true, last, fresh: app.animate ? newestLines(state) : [] }),
        pickerRow,
        el("p", { class: "error", id: "error", role: "alert", text: app.error }),
        controls),
      el("div", { class: "side" },
        el("section", { class: "panel", id: "players", "data-testid": "players", "aria-labelledby": "players-title" },
          el("h2", { id: "players-title", text: t("web.players") }), drawSeats(state),
          state.spectators ? el("p", { class: "meta", id: "spectators", text: t("web.spectators", { count: state.spectators }) }) : null),
        links,
        el("section", { class: "panel", "aria-labelledby": "moves-title" }, el("h2", { id: "moves-title", text: t("web.moves") }), moves))),
  );
  app.animate = false;
  document.title = gameTitle(state);
  fitBoard();
  const frame = document.querySelector(".board-frame");
  if (pan && frame) [frame.scrollLeft, frame.scrollTop] = pan;
  scrollMoves();
  const target = focused || app.focus || "a1";
  const cell = parseCell(target);
  const node = document.querySelector(`.cell[data-cell="${target}"]`);
  if (node) node.tabIndex = 0;
  if (focused || app.refocus) focusCell(cell.row, cell.col);
  else if (focusedControl) {
    const again = document.getElementById(focusedControl);
    if (again) again.focus();
  }
  app.refocus = false;
  tickClocks();
}

function cancelPick() {
  const cell = app.selected;
  app.selected = null;
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
  app.invites = [];
  try {
    const data = await api("GET", `/api/games/${id}/invites`, undefined, tokensFor(id)[0]);
    if (app.state && app.state.id === id) {
      app.invites = data.seats;
      drawGame();
    }
  } catch {
    app.invites = [];
  }
}

async function rematch() {
  const state = app.state;
  try {
    const created = await api("POST", `/api/games/${state.id}/rematch`, {}, tokensFor(state.id)[0]);
    for (const token of tokensFor(state.id)) saveToken(created.id, token);
    go(`#/game/${created.id}`);
  } catch (error) {
    app.error = error.message;
    drawGame();
  }
}

// ---------------------------------------------------------------------------- replay page

async function showReplay(id) {
  let data;
  let game;
  try {
    [data, game] = await Promise.all([api("GET", `/api/games/${id}/replay`), api("GET", `/api/games/${id}`)]);
  } catch {
    view().replaceChildren(el("p", { class: "error", text: t("web.no_game") }));
    return;
  }
  let ply = data.frames.length - 1;
  const total = data.frames.length - 1;
  const draw = (animate = false) => {
    app.render = draw;
    const focusId = document.activeElement && document.activeElement.id;
    const frame = data.frames[ply];
    const before = ply > 0 ? data.frames[ply - 1] : frame;
    const state = { rows: data.rows, cols: data.cols, board: frame.board, lines: data.lines };
    const seats = game.seats;
    const status = frame.result ? resultText({ ...frame.result, flagged: ply === total && game.result ? game.result.flagged : [] }, seats)
      : (frame.extra_turn ? t("to_move_again", { name: seats[frame.turn].name }) : t("to_move", { name: seats[frame.turn].name }));
    const step = (to) => () => {
      const next = Math.max(0, Math.min(total, to));
      const forward = next === ply + 1;
      ply = next;
      draw(forward);
    };
    const action = frame.action || "";
    const last = action && !action.startsWith("resign") ? action.slice(1) : "";
    const fresh = animate ? data.lines.slice(before.lines, frame.lines) : [];
    document.title = t("web.title_replay", { ply, total });
    view().replaceChildren(
      el("div", { class: "game", "data-testid": "game" },
        el("div", { class: "board-column" },
          el("h1", { class: "game-title", text: t("web.replay_title") }),
          el("div", { class: "banner", id: "banner", "data-testid": "banner" },
            el("p", { class: "status", id: "status", "aria-live": "polite", text: status })),
          drawBoard(state, { interactive: false, lineCount: frame.lines, last, fresh }),
          el("div", { class: "picker-row", "data-reserve": "" },
            el("p", { id: "replay-ply", "aria-live": "polite", text: t("web.ply_of", { ply, total }) }), zoomControls()),
          el("div", { class: "controls", "data-reserve": "" },
            el("button", { type: "button", id: "replay-first", text: t("web.first"), onclick: step(0) }),
            el("button", { type: "button", id: "replay-prev", text: t("web.prev"), onclick: step(ply - 1) }),
            el("button", { type: "button", id: "replay-next", text: t("web.next"), onclick: step(ply + 1) }),
            el("button", { type: "button", id: "replay-last", text: t("web.last"), onclick: step(total) }),
            el("a", { href: `#/analysis/${id}`, id: "analysis", class: "button-link", text: t("web.analysis") }),
            el("a", { href: `/api/games/${id}/record`, download: `sos-${id}.json`, text: t("web.download") }),
            el("a", { href: "#/", text: t("web.home") }))),
        el("div", { class: "side" },
          el("section", { class: "panel", id: "players", "data-testid": "players" },
            el("h2", { text: t("web.players") }),
            drawSeats({ seats: seats.map((seat) => ({ ...seat, player: seat.player, taken: true })), kind: "local", status: "replay", result: null, clock: null, scores: frame.scores }, frame.scores)),
          el("section", { class: "panel" }, el("h2", { text: t("web.moves") }),
            movesTable(seats, data.moves, { selected: ply, onSelect: (chosen) => { ply = chosen; draw(); } })))));
    fitBoard();
    scrollMoves(ply);
    if (focusId) {
      const again = document.getElementById(focusId);
      if (again) again.focus();
    }
  };
  draw();
}
