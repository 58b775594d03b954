// The SOS front end. It draws what the server sends and sends what the player does; the
// server alone applies the rules (scoring, turns, results).
"use strict";

const PROTOCOL = 1;

const app = {
  // Levels, seat colours and symbols, and the limits of a new game: GET /api/config.
  config: { levels: [], seats: { colours: [], symbols: [], unowned_colour: "#888888" }, limits: {} },
  catalog: {},
  languages: {},
  lang: "en",
  render: null, // re-draws the current view after a language change
  socket: null,
  state: null,
  seats: [],
  selected: null,
  hint: null,
  error: "",
  clockTimer: null,
  leaving: null,
  pending: null, // a move made while the connection was down, sent once it is back
  invites: null,
};

// ------------------------------------------------------------------------------- helpers

function t(key, values = {}) {
  const entry = app.catalog[key];
  let text = entry ? (entry[app.lang] || entry.en) : key;
  // A text that depends on a number comes as its plural forms: {"one": ..., "other": ...}.
  if (typeof text === "object") {
    text = text[new Intl.PluralRules(app.lang).select(Number(values.count))] || text.other;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

function cellName(row, col) {
  return String.fromCharCode(97 + col) + String(row + 1);
}

function parseCell(text) {
  return { row: Number(text.slice(1)) - 1, col: text.charCodeAt(0) - 97 };
}

function tokens() {
  try {
    return JSON.parse(localStorage.getItem("sos.tokens") || "{}");
  } catch {
    return {};
  }
}

// Every token this browser holds for a game: one per seat taken here (an older single
// token is read as a list of one).
function tokensFor(game) {
  const held = tokens()[game];
  if (!held) return [];
  return Array.isArray(held) ? held : [held];
}

function saveToken(game, token) {
  const all = tokens();
  const held = tokensFor(game);
  if (!held.includes(token)) held.push(token);
  all[game] = held;
  localStorage.setItem("sos.tokens", JSON.stringify(all));
}

async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error((data.error && data.error.message) || response.statusText);
    error.code = data.error && data.error.code;
    throw error;
  }
  return data;
}

function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

function errorText(code, message) {
  const key = `web.error.${code}`;
  return app.catalog[key] ? t(key) : t("web.error.other", { message });
}

function view() {
  return document.getElementById("view");
}

function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return `${minutes}:${seconds}`;
}

function playerLabel(seat) {
  return seat.player === "human" ? t("web.player.human") : t(`web.player.${seat.player}`);
}

function reasonText(result, seats) {
  if (result.flagged && result.flagged.length && result.termination === "resignation") {
    return t("web.reason.time", { names: result.flagged.map((s) => seats[s].name).join(", ") });
  }
  return t(`reason.${result.termination}`);
}

function resultText(result, seats) {
  const reason = reasonText(result, seats);
  if (result.winners.length === 1) return t("winner", { name: seats[result.winners[0]].name, reason });
  return t("draw", { names: result.winners.map((s) => seats[s].name).join(", "), reason });
}

// -------------------------------------------------------------------------------- routing

function route() {
  closeSocket();
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) showGame(parts[1]);
  else if (parts[0] === "join" && parts[1] && parts[2]) showJoin(parts[1], Number(parts[2]), parts[3] || null);
  else if (parts[0] === "replay" && parts[1]) showReplay(parts[1]);
  else showHome();
}

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function translateStatic() {
  document.documentElement.lang = app.lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  document.title = t("web.title");
}

// ----------------------------------------------------------------------------- start page

function showHome() {
  app.render = showHome;
  const form = newGameForm();
  const openList = el("ul", { class: "list", id: "open-games" });
  const archiveList = el("ul", { class: "list", id: "archive" });
  const upload = el("input", { type: "file", id: "upload", accept: "application/json,.json" });
  const uploadError = el("p", { class: "error", role: "alert" });
  upload.addEventListener("change", async () => {
    const file = upload.files[0];
    if (!file) return;
    try {
      const record = JSON.parse(await file.text());
      const created = await api("POST", "/api/records", record);
      saveToken(created.id, created.token);
      go(`#/game/${created.id}`);
    } catch (error) {
      uploadError.textContent = t("web.upload_failed", { message: error.message });
    }
  });
  const rules = el("div", { class: "rules" }, t("rules").split("\n").map((line) => el("p", { text: line })));
  view().replaceChildren(
    el("h1", { text: t("web.title") }),
    el("div", { class: "home" },
      el("section", { class: "panel", "aria-labelledby": "new-game-title" },
        el("h2", { id: "new-game-title", text: t("web.new_game") }), form),
      el("div", {},
        el("section", { class: "panel" }, el("h2", { text: t("web.open_games") }), openList),
        el("section", { class: "panel" }, el("h2", { text: t("web.archive") }), archiveList),
        el("section", { class: "panel" },
          el("h2", { text: t("web.upload") }),
          el("label", { class: "field" }, el("span", { text: t("web.upload_file") }), upload),
          uploadError)),
      el("section", { class: "panel" }, el("h2", { text: t("web.rules") }), rules)),
  );
  loadLists(openList, archiveList);
}

async function loadLists(openList, archiveList) {
  try {
    const [open, archive] = await Promise.all([
      api("GET", "/api/games?list=open"),
      api("GET", "/api/games?list=archive"),
    ]);
    openList.replaceChildren(...(open.games.length ? open.games.map((game) =>
      el("li", {},
        el("span", { text: `${game.rows}x${game.cols} ${t(`mode.${game.mode}`)}: ${game.names.join(", ")}` }),
        game.open_seats.map((seat) => el("a", {
          href: `#/join/${game.id}/${seat}`, text: t("web.join_seat", { name: game.names[seat] }),
        })),
      )) : [el("li", { text: t("web.no_open_games") })]));
    archiveList.replaceChildren(...(archive.games.length ? archive.games.map((game) =>
      el("li", {},
        el("span", { text: `${game.rows}x${game.cols} ${t(`mode.${game.mode}`)}: ${game.names.join(", ")}` }),
        el("a", { href: `#/replay/${game.id}`, text: t("web.replay") }),
        el("a", { href: `/api/games/${game.id}/record`, download: `sos-${game.id}.json`, text: t("web.download") }),
      )) : [el("li", { text: t("web.no_archive") })]));
  } catch (error) {
    openList.replaceChildren(el("li", { class: "error", text: error.message }));
  }
}

function sizeSelect(id, value) {
  const select = el("select", { id });
  const { min_side: least, max_side: most } = app.config.limits;
  for (let side = least; side <= most; side += 1) {
    select.append(el("option", { value: side, selected: side === value, text: String(side) }));
  }
  return select;
}

function newGameForm() {
  const rows = sizeSelect("rows", 3);
  const cols = sizeSelect("cols", 3);
  const mode = el("select", { id: "mode" },
    el("option", { value: "general", text: t("mode.general") }),
    el("option", { value: "simple", text: t("mode.simple") }));
  const kind = el("select", { id: "kind" },
    el("option", { value: "local", text: t("web.kind.local") }),
    el("option", { value: "online", text: t("web.kind.online") }));
  const count = el("select", { id: "seat-count" });
  const { min_players: fewest, max_players: most } = app.config.limits;
  for (let n = fewest; n <= most; n += 1) count.append(el("option", { value: n, text: String(n) }));
  const seatBox = el("div", { id: "seat-list" });
  const drawSeats = () => {
    const old = [...seatBox.querySelectorAll(".seat")].map((row) => ({
      name: row.querySelector("input").value,
      player: row.querySelector("select").value,
    }));
    seatBox.replaceChildren();
    for (let seat = 0; seat < Number(count.value); seat += 1) {
      const previous = old[seat] || { name: t("player", { number: seat + 1 }), player: "human" };
      const player = el("select", { id: `seat-${seat}-player`, "aria-label": t("web.seat_player", { number: seat + 1 }) },
        ["human", ...app.config.levels].map((level) => el("option", {
          value: level, selected: level === previous.player,
          text: level === "human" ? t("web.player.human") : t(`web.player.${level}`),
        })));
      seatBox.append(el("div", { class: "field seat" },
        el("span", { class: "swatch", "aria-hidden": "true" }),
        el("input", { type: "text", id: `seat-${seat}-name`, maxlength: app.config.limits.max_name, value: previous.name,
          "aria-label": t("web.seat_name", { number: seat + 1 }) }),
        player));
      seatBox.lastChild.firstChild.style.setProperty("background", app.config.seats.colours[seat]);
    }
  };
  count.addEventListener("change", drawSeats);
  drawSeats();
  const clockOn = el("input", { type: "checkbox", id: "clock-on" });
  const publicOn = el("input", { type: "checkbox", id: "public" });
  const minutes = el("input", { type: "number", id: "clock-minutes", min: 1, max: 180, value: 5 });
  const increment = el("input", { type: "number", id: "clock-increment", min: 0, max: 180, value: 3 });
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { id: "new-game" },
    el("label", { class: "field" }, el("span", { text: t("web.rows") }), rows),
    el("label", { class: "field" }, el("span", { text: t("web.cols") }), cols),
    el("label", { class: "field" }, el("span", { text: t("web.mode") }), mode),
    el("label", { class: "field" }, el("span", { text: t("web.kind") }), kind),
    el("label", { class: "field" }, el("span", { text: t("web.seats") }), count),
    seatBox,
    el("label", { class: "field" }, publicOn, el("span", { text: t("web.public") })),
    el("label", { class: "field" }, clockOn, el("span", { text: t("web.clock") })),
    el("label", { class: "field" }, el("span", { text: t("web.clock_minutes") }), minutes),
    el("label", { class: "field" }, el("span", { text: t("web.clock_increment") }), increment),
    el("button", { type: "submit", class: "primary", id: "start", text: t("web.start") }),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = [...seatBox.querySelectorAll(".seat")].map((row) => ({
      name: row.querySelector("input").value,
      player: row.querySelector("select").value,
    }));
    const body = {
      rows: Number(rows.value), cols: Number(cols.value), mode: mode.value, kind: kind.value, seats,
      clock: clockOn.checked ? { initial: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) } : null,
    };
    if (kind.value === "online" && publicOn.checked) body.public = true;
    try {
      const created = await api("POST", "/api/games", body);
      saveToken(created.id, created.token);
      go(`#/game/${created.id}`);
    } catch (failure) {
      error.textContent = errorText(failure.code, failure.message);
    }
  });
  return form;
}

// ----------------------------------------------------------------------------- join page

async function showJoin(id, seat, invite) {
  app.render = () => showJoin(id, seat, invite);
  let game;
  try {
    game = await api("GET", `/api/games/${id}`);
  } catch {
    view().replaceChildren(el("p", { class: "error", text: t("web.no_game") }));
    return;
  }
  const mine = tokensFor(id).length > 0;
  const info = game.seats[seat];
  if (!info || info.taken) {
    view().replaceChildren(
      el("p", { text: t("web.seat_taken") }),
      el("a", { href: `#/game/${id}`, text: t("web.watch") }));
    if (mine) go(`#/game/${id}`);
    return;
  }
  if (!invite && !game.public) {
    view().replaceChildren(
      el("p", { class: "error", id: "invite-missing", text: t("web.invite_missing") }),
      el("a", { href: `#/game/${id}`, text: t("web.watch") }));
    return;
  }
  const name = el("input", { type: "text", id: "join-name", maxlength: app.config.limits.max_name, value: info.name });
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "panel", id: "join" },
    el("h1", { text: t("web.join_title", { number: seat + 1 }) }),
    el("p", { class: "meta", text: `${game.rows}x${game.cols}, ${t(`mode.${game.mode}`)}: ${game.seats.map((s) => s.name).join(", ")}` }),
    el("label", { class: "field" }, el("span", { text: t("web.your_name") }), name),
    el("button", { type: "submit", class: "primary", id: "take-seat", text: t("web.take_seat") }),
    " ",
    el("a", { href: `#/game/${id}`, text: t("web.watch") }),
    error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = { name: name.value };
      if (invite) body.invite = invite;
      const taken = await api("POST", `/api/games/${id}/seats/${seat}`, body);
      saveToken(id, taken.token); // added to any seat this browser already holds here
      go(`#/game/${id}`);
    } catch (failure) {
      error.textContent = failure.code === "seat_taken" ? t("web.seat_taken") : errorText(failure.code, failure.message);
    }
  });
  view().replaceChildren(form);
  name.focus();
}

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
}

function drawBoard(state, options) {
  const { interactive, lineCount } = options;
  const wrap = el("div", { class: "board-wrap" });
  const board = el("div", {
    class: "board", id: "board", role: "grid",
    "aria-label": t("web.board", { rows: state.rows, cols: state.cols }),
  });
  board.style.setProperty("--cols", state.cols);
  wrap.style.setProperty("--cols", Math.max(state.cols, state.rows));
  const last = state.actions && state.actions.length ? state.actions[state.actions.length - 1] : "";
  for (let row = 0; row < state.rows; row += 1) {
    const line = el("div", { role: "row", class: "visually-hidden-row" });
    line.style.setProperty("display", "contents");
    for (let col = 0; col < state.cols; col += 1) {
      const name = cellName(row, col);
      const letter = state.board[row][col];
      const filled = letter !== ".";
      const classes = ["cell"];
      if (filled) classes.push("filled");
      if (last.slice(1) === name) classes.push("last");
      if (app.selected === name) classes.push("selected");
      if (app.hint && app.hint.slice(1) === name) classes.push("hint");
      const cell = el("button", {
        type: "button", role: "gridcell", class: classes.join(" "), "data-cell": name,
        "aria-label": filled ? t("web.cell_letter", { cell: name, letter }) : t("web.cell_empty", { cell: name }),
        "aria-disabled": filled || !interactive ? "true" : null,
        tabindex: "-1", text: filled ? letter : "",
      });
      if (interactive) {
        cell.addEventListener("click", () => {
          if (filled || !myTurn(app.state)) return;
          app.selected = name;
          drawGame();
          const picker = document.querySelector(".picker button.letter");
          if (picker) picker.focus();
        });
        cell.addEventListener("keydown", (event) => boardKey(event, row, col));
      }
      line.append(cell);
    }
    board.append(line);
  }
  const overlay = svg("svg", { class: "lines", viewBox: `0 0 ${state.cols} ${state.rows}`, preserveAspectRatio: "none", "aria-hidden": "true" });
  const lines = lineCount === undefined ? state.lines : state.lines.slice(0, lineCount);
  for (const found of lines) {
    const a = parseCell(found.cells[0]);
    const b = parseCell(found.cells[2]);
    const colour = found.owner === null ? app.config.seats.unowned_colour : app.config.seats.colours[found.owner];
    overlay.append(svg("line", {
      x1: a.col + 0.5, y1: a.row + 0.5, x2: b.col + 0.5, y2: b.row + 0.5, stroke: colour,
      "data-owner": found.owner === null ? "" : found.owner,
    }));
  }
  wrap.append(board, overlay);
  return wrap;
}

function focusCell(row, col) {
  const cell = document.querySelector(`.cell[data-cell="${cellName(row, col)}"]`);
  if (!cell) return;
  for (const other of document.querySelectorAll(".cell")) other.tabIndex = -1;
  cell.tabIndex = 0;
  cell.focus();
  app.focus = cellName(row, col);
}

function boardKey(event, row, col) {
  const state = app.state;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (event.key in moves) {
    event.preventDefault();
    const [dr, dc] = moves[event.key];
    focusCell(Math.min(state.rows - 1, Math.max(0, row + dr)), Math.min(state.cols - 1, Math.max(0, col + dc)));
  } else if (event.key === "s" || event.key === "S" || event.key === "o" || event.key === "O") {
    event.preventDefault();
    if (state.board[row][col] === ".") play(event.key.toUpperCase(), cellName(row, col));
  }
}

function drawSeats(state) {
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
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.setProperty("background", app.config.seats.colours[index]);
    const item = el("li", { class: turn ? "turn" : "", "data-seat": index },
      swatch,
      el("span", {}, el("strong", { text: seat.name }), " ", el("span", { class: "meta", text: `(${details.join(", ")})` }), " ", presence),
      clock ? el("span", { class: "clock", "data-seat": index, text: formatClock(clock.remaining[index]) }) : el("span"),
      el("span", { class: "score", "aria-label": t("web.points", { name: seat.name, count: state.scores[index] }), text: String(state.scores[index]) }));
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

function drawGame() {
  const state = app.state;
  if (!state) return;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.cell : null;
  const local = state.kind === "local";
  const mine = app.seats.length > 0;
  const over = Boolean(state.result);
  const controls = el("div", { class: "controls" });
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
  button("new-game", t("web.new_game"), () => go("#/"));
  controls.append(el("a", { href: `/api/games/${state.id}/record`, download: `sos-${state.id}.json`, id: "download", text: t("web.download") }));
  if (over) controls.append(el("a", { href: `#/replay/${state.id}`, id: "replay", text: t("web.replay") }));

  const picker = el("div", { class: "picker", id: "picker" });
  if (app.selected && myTurn(state)) {
    picker.append(
      el("span", { text: t("web.pick_letter", { cell: app.selected }) }),
      el("button", { type: "button", class: "letter", id: "pick-S", text: "S", onclick: () => play("S", app.selected) }),
      el("button", { type: "button", class: "letter", id: "pick-O", text: "O", onclick: () => play("O", app.selected) }),
      el("button", { type: "button", id: "pick-cancel", text: t("web.cancel"), onclick: () => { app.selected = null; drawGame(); } }));
  } else if (app.hint) {
    picker.append(el("span", { id: "hint-text", text: t("web.hint_is", { move: app.hint }) }));
  }

  const extra = state.extra_turn && !over
    ? el("div", { class: "extra", id: "extra-turn", role: "alert", text: t("web.extra_turn", { name: state.seats[state.turn].name }) })
    : null;
  const result = over ? el("div", { class: "result", id: "result", role: "alert", text: resultText(state.result, state.seats) }) : null;
  const moves = el("ol", { class: "moves", id: "moves" }, state.actions.map((action) => el("li", { text: action })));
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
  const header = el("h1", { text: t("web.game_title", { rows: state.rows, cols: state.cols, mode: t(`mode.${state.mode}`) }) });
  view().replaceChildren(
    header,
    el("div", { class: "game" },
      el("div", {},
        el("p", { class: "status", id: "status", "aria-live": "polite", text: statusLine(state) }),
        extra, result,
        drawBoard(state, { interactive: true }),
        picker,
        el("p", { class: "error", id: "error", role: "alert", text: app.error }),
        controls),
      el("div", {},
        el("section", { class: "panel" }, el("h2", { text: t("web.players") }), drawSeats(state),
          state.spectators ? el("p", { class: "meta", id: "spectators", text: t("web.spectators", { count: state.spectators }) }) : null),
        links,
        el("section", { class: "panel" }, el("h2", { text: t("web.moves") }), moves))),
  );
  const target = focused || app.focus || "a1";
  const cell = parseCell(target);
  const node = document.querySelector(`.cell[data-cell="${target}"]`);
  if (node) node.tabIndex = 0;
  if (focused) focusCell(cell.row, cell.col);
  tickClocks();
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
  try {
    data = await api("GET", `/api/games/${id}/replay`);
  } catch {
    view().replaceChildren(el("p", { class: "error", text: t("web.no_game") }));
    return;
  }
  const game = await api("GET", `/api/games/${id}`);
  let ply = data.frames.length - 1;
  const draw = () => {
    app.render = draw;
    const frame = data.frames[ply];
    const state = {
      rows: data.rows, cols: data.cols, board: frame.board, lines: data.lines,
      actions: data.actions.slice(0, ply),
    };
    const seats = game.seats;
    const status = frame.result ? resultText({ ...frame.result, flagged: ply === data.frames.length - 1 && game.result ? game.result.flagged : [] }, seats)
      : (frame.extra_turn ? t("to_move_again", { name: seats[frame.turn].name }) : t("to_move", { name: seats[frame.turn].name }));
    const step = (to) => () => { ply = Math.max(0, Math.min(data.frames.length - 1, to)); draw(); };
    view().replaceChildren(
      el("h1", { text: t("web.replay_title") }),
      el("p", { class: "status", id: "status", "aria-live": "polite", text: status }),
      el("p", { id: "replay-ply", text: t("web.ply_of", { ply, total: data.frames.length - 1 }) }),
      drawBoard(state, { interactive: false, lineCount: frame.lines }),
      el("div", { class: "controls" },
        el("button", { type: "button", id: "replay-first", text: t("web.first"), onclick: step(0) }),
        el("button", { type: "button", id: "replay-prev", text: t("web.prev"), onclick: step(ply - 1) }),
        el("button", { type: "button", id: "replay-next", text: t("web.next"), onclick: step(ply + 1) }),
        el("button", { type: "button", id: "replay-last", text: t("web.last"), onclick: step(data.frames.length - 1) }),
        el("a", { href: `/api/games/${id}/record`, download: `sos-${id}.json`, text: t("web.download") }),
        el("a", { href: "#/", text: t("web.home") })),
      el("ul", { class: "seats" }, seats.map((seat, index) => {
        const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
        swatch.style.setProperty("background", app.config.seats.colours[index]);
        return el("li", {}, swatch, el("strong", { text: seat.name }), el("span"), el("span", { class: "score", text: String(frame.scores[index]) }));
      })),
    );
  };
  draw();
}

// ------------------------------------------------------------------------------- starting

async function start() {
  const [data, config] = await Promise.all([api("GET", "/api/i18n"), api("GET", "/api/config")]);
  app.config = config;
  app.catalog = data.catalog;
  app.languages = data.languages;
  const saved = localStorage.getItem("sos.lang");
  const wanted = saved || (navigator.language || "en").slice(0, 2);
  app.lang = wanted in app.languages ? wanted : "en";
  const select = document.getElementById("language");
  for (const [code, name] of Object.entries(app.languages)) {
    select.append(el("option", { value: code, selected: code === app.lang, text: name }));
  }
  select.addEventListener("change", () => {
    app.lang = select.value;
    localStorage.setItem("sos.lang", app.lang);
    translateStatic();
    if (app.render) app.render();
  });
  translateStatic();
  window.addEventListener("hashchange", route);
  route();
}

start();
