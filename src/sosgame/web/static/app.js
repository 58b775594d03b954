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
  zoom: 1, // the board's zoom over the size that fits the window
  moveList: null, // {id, moves: [{action, seat, points}]} of the game on screen
  animate: false, // draw the newest lines growing (once, as they are made)
  sound: null, // the AudioContext, made on the first sound
  route: 0, // counts page changes, so that a page's late answers find it gone
  player: null, // the named player logged in here (null: a guest), from GET /api/session
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
  app.route += 1;
  app.zoom = 1;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) showGame(parts[1]);
  else if (parts[0] === "analysis" && parts[1]) showAnalysis(parts[1]);
  else if (parts[0] === "join" && parts[1] && parts[2]) showJoin(parts[1], Number(parts[2]), parts[3] || null);
  else if (parts[0] === "replay" && parts[1]) showReplay(parts[1]);
  else if (parts[0] === "login") showLogin();
  else if (parts[0] === "lobby") showLobby();
  else if (parts[0] === "players" && parts[1]) showPlayer(decodeURIComponent(parts[1]));
  else if (parts[0] === "players") showPlayers();
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
  drawSoundToggle();
  drawAccount();
}

// ---------------------------------------------------------------------------------- sound

// Sounds are off until the player turns them on; the choice is kept in this browser.
function soundOn() {
  return localStorage.getItem("sos.sound") === "on";
}

function drawSoundToggle() {
  const toggle = document.getElementById("sound");
  toggle.setAttribute("aria-pressed", String(soundOn()));
  toggle.textContent = soundOn() ? t("web.sound_on") : t("web.sound_off");
}

// Short tones made by WebAudio, no sound files: a move, an SOS, the end of the game.
function beep(kind) {
  if (!soundOn()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  app.sound = app.sound || new Context();
  const notes = { move: [587], line: [659, 880], end: [523, 659, 784] }[kind];
  const start = app.sound.currentTime;
  notes.forEach((frequency, index) => {
    const at = start + index * 0.12;
    const tone = app.sound.createOscillator();
    const gain = app.sound.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
    tone.connect(gain).connect(app.sound.destination);
    tone.start(at);
    tone.stop(at + 0.18);
  });
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
        el("a", { href: `#/analysis/${game.id}`, text: t("web.analysis") }),
        el("a", { href: `/api/games/${game.id}/record`, download: `sos-${game.id}.json`, text: t("web.download") }),
      )) : [el("li", { text: t("web.no_archive") })]));
  } catch (error) {
    openList.replaceChildren(el("li", { class: "error", text: error.message }));
  }
}

function sizeSelect(id, value) {
  const select = el("select", { id });
  // Every size the engine allows, from the server's limits.
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
  const clockFields = el("div", { id: "clock-fields", hidden: true },
    el("label", { class: "field" }, el("span", { text: t("web.clock_minutes") }), minutes),
    el("label", { class: "field" }, el("span", { text: t("web.clock_increment") }), increment));
  clockOn.addEventListener("change", () => { clockFields.hidden = !clockOn.checked; });
  const publicField = el("label", { class: "field", hidden: true }, publicOn, el("span", { text: t("web.public") }));
  kind.addEventListener("change", () => { publicField.hidden = kind.value !== "online"; });
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { id: "new-game" },
    el("label", { class: "field" }, el("span", { text: t("web.rows") }), rows),
    el("label", { class: "field" }, el("span", { text: t("web.cols") }), cols),
    el("label", { class: "field" }, el("span", { text: t("web.mode") }), mode),
    el("label", { class: "field" }, el("span", { text: t("web.kind") }), kind),
    el("label", { class: "field" }, el("span", { text: t("web.seats") }), count),
    seatBox,
    publicField,
    el("label", { class: "field" }, clockOn, el("span", { text: t("web.clock") })),
    clockFields,
    el("button", { type: "submit", class: "primary", id: "start", text: t("web.start") }),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const least = app.config.limits.min_long_side;
    if (Math.max(Number(rows.value), Number(cols.value)) < least) {
      error.textContent = t("web.board_too_small", { least });
      return;
    }
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
  // A named player plays under their name (the server sets it).
  const name = el("input", { type: "text", id: "join-name", maxlength: app.config.limits.max_name,
    value: app.player ? app.player.name : info.name, disabled: Boolean(app.player) });
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
  document.getElementById("sound").addEventListener("click", () => {
    localStorage.setItem("sos.sound", soundOn() ? "off" : "on");
    drawSoundToggle();
    beep("move");
  });
  translateStatic();
  await loadSession();
  window.addEventListener("hashchange", route);
  route();
}

start();
