// The SOS front end. It draws what the server sends and sends what the player does; the
// server alone applies the rules (scoring, turns, results). This entry module holds the
// router, the start page and the join page; each other page has its own module.
import { api, el, go, router, saveToken, tokensFor, view } from "./dom.js";
import { errorText, namesText, seatName, settings, t } from "./i18n.js";
import { boardView } from "./board.js";
import { beep, drawSoundToggle, soundOn } from "./sound.js";
import { drawTheme, setUpTheme } from "./theme.js";
import { drawOffline, setUpOffline } from "./offline.js";
import { closeSocket, showGame } from "./game.js";
import { showReplay } from "./replay.js";
import { showAnalysis } from "./analysis.js";
import { dailyPanel, showPuzzles } from "./puzzles.js";
import { account, drawAccount, loadSession, showLobby, showLogin, showPlayer, showPlayers } from "./players.js";
import { challengesPanel, playNowPanel } from "./lobby.js";
import { myGamesPanel, setUpBadge } from "./mygames.js";
import { startChoices } from "./choices.js";
import { offlineConfig, levelsText, setUpDevice } from "./device.js";
import { showTournaments, tournamentsPanel } from "./tournaments.js";
import { showTournament } from "./tournament.js";
import { showDeviceGame, startDeviceGame } from "./devicegame.js";

// -------------------------------------------------------------------------------- routing

function route() {
  closeSocket();
  router.visits += 1;
  boardView.zoom = 1;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) showGame(parts[1]);
  else if (parts[0] === "device" && parts[1]) showDeviceGame(parts[1]);
  else if (parts[0] === "analysis" && parts[1]) showAnalysis(parts[1]);
  else if (parts[0] === "join" && parts[1] && parts[2]) showJoin(parts[1], Number(parts[2]), parts[3] || null);
  else if (parts[0] === "replay" && parts[1]) showReplay(parts[1]);
  else if (parts[0] === "puzzles") showPuzzles(parts[1] && parts[1] !== "next" ? parts[1] : null);
  else if (parts[0] === "tournaments") showTournaments();
  else if (parts[0] === "tournament" && parts[1]) showTournament(decodeURIComponent(parts[1]));
  else if (parts[0] === "login") showLogin();
  else if (parts[0] === "lobby") showLobby();
  else if (parts[0] === "players" && parts[1]) showPlayer(decodeURIComponent(parts[1]));
  else if (parts[0] === "players") showPlayers();
  else showHome();
}

function translateStatic() {
  document.documentElement.lang = settings.lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  document.title = t("web.title");
  drawSoundToggle();
  drawTheme();
  drawOffline();
  drawAccount();
}

// ----------------------------------------------------------------------------- start page

function showHome() {
  router.render = showHome;
  const form = newGameForm();
  const openList = el("ul", { class: "list", id: "open-games" });
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
      uploadError.textContent = t("web.upload_failed", { message: error.detail || error.message });
    }
  });
  const rules = el("div", { class: "rules" }, t("rules").split("\n").map((line) => el("p", { text: line })));
  view().replaceChildren(
    el("h1", { text: t("web.title") }),
    startChoices(),
    el("div", { class: "home" },
      challengesPanel(Boolean(account.player)),
      playNowPanel(Boolean(account.player)),
      el("section", { class: "panel", "aria-labelledby": "new-game-title" },
        el("h2", { id: "new-game-title", text: t("web.new_game") }), form),
      el("div", {},
        tournamentsPanel(),
        dailyPanel(),
        el("section", { class: "panel" }, el("h2", { text: t("web.open_games") }), openList),
        myGamesPanel(),
        el("section", { class: "panel" },
          el("h2", { text: t("web.upload") }),
          el("label", { class: "field" }, el("span", { text: t("web.upload_file") }), upload),
          uploadError)),
      el("section", { class: "panel" }, el("h2", { text: t("web.rules") }), rules)),
  );
  loadOpenGames(openList);
}

async function loadOpenGames(openList) {
  try {
    const open = await api("GET", "/api/games?list=open");
    openList.replaceChildren(...(open.games.length ? open.games.map((game) =>
      el("li", {},
        el("span", { text: `${game.rows}x${game.cols} ${t(`mode.${game.mode}`)}: ${namesText(game.names, game.bots)}` }),
        game.open_seats.map((seat) => el("a", {
          href: `#/join/${game.id}/${seat}`, text: t("web.join_seat", { name: game.names[seat] }),
        })),
      )) : [el("li", { text: t("web.no_open_games") })]));
  } catch (error) {
    openList.replaceChildren(el("li", { class: "error", text: navigator.onLine ? errorText(error.code, error.message) : t("web.offline") }));
  }
}

function sizeSelect(id, value) {
  const select = el("select", { id });
  // Every size the engine allows, from the server's limits.
  const { min_side: least, max_side: most } = settings.config.limits;
  for (let side = least; side <= most; side += 1) {
    select.append(el("option", { value: side, selected: side === value, text: String(side) }));
  }
  return select;
}

// The seats as the form holds them: a name and a player (a person or a level) each.
function readSeats(seatBox) {
  return [...seatBox.querySelectorAll(".seat")].map((row) => ({
    name: row.querySelector("input").value,
    player: row.querySelector("select").value,
  }));
}

// A row per seat, keeping what was typed into the seats that stay.
function drawSeatRows(seatBox, count) {
  const old = readSeats(seatBox);
  seatBox.replaceChildren();
  for (let seat = 0; seat < count; seat += 1) {
    seatBox.append(seatRow(seat, old[seat] || { name: t("player", { number: seat + 1 }), player: "human" }));
  }
}

function seatRow(seat, previous) {
  const player = el("select", { id: `seat-${seat}-player`, "aria-label": t("web.seat_player", { number: seat + 1 }) },
    ["human", ...settings.config.levels].map((level) => el("option", {
      value: level, selected: level === previous.player,
      text: level === "human" ? t("web.player.human") : t(`web.player.${level}`),
    })));
  const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
  swatch.style.setProperty("background", settings.config.seats.colours[seat]);
  return el("div", { class: "field seat" },
    swatch,
    el("input", { type: "text", id: `seat-${seat}-name`, maxlength: settings.config.limits.max_name, value: previous.name,
      "aria-label": t("web.seat_name", { number: seat + 1 }) }),
    player);
}

function newGameForm() {
  const rows = sizeSelect("rows", 5);
  const cols = sizeSelect("cols", 5);
  const mode = el("select", { id: "mode" },
    el("option", { value: "general", text: t("mode.general") }),
    el("option", { value: "simple", text: t("mode.simple") }));
  const kind = el("select", { id: "kind" },
    el("option", { value: "local", text: t("web.kind.local") }),
    el("option", { value: "online", text: t("web.kind.online") }),
    el("option", { value: "device", text: t("web.kind.device") }));
  const count = el("select", { id: "seat-count" });
  const { min_players: fewest, max_players: most } = settings.config.limits;
  for (let n = fewest; n <= most; n += 1) count.append(el("option", { value: n, text: String(n) }));
  const seatBox = el("div", { id: "seat-list" });
  const drawSeats = () => drawSeatRows(seatBox, Number(count.value));
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
  // Correspondence, for online games: days per move instead of a clock.
  const days = el("select", { id: "days", "data-testid": "days" },
    el("option", { value: "", text: t("web.days_none") }),
    ...settings.config.days_per_move.map((n) => el("option", { value: n, text: t("web.days_setting", { count: n }) })));
  const daysField = el("label", { class: "field", hidden: true }, el("span", { text: t("web.days_per_move") }), days);
  const publicField = el("label", { class: "field", hidden: true }, publicOn, el("span", { text: t("web.public") }));
  // Rated or casual, said before the game starts: only online games between players with
  // accounts can be rated, and the player chooses.
  const named = Boolean(account.player);
  const ratedOn = el("input", { type: "checkbox", id: "rated", checked: named, disabled: !named,
    "aria-describedby": "rated-note" });
  const ratedNote = el("p", { class: "meta", id: "rated-note", "aria-live": "polite" });
  const ratedField = el("div", { id: "rated-field" },
    el("label", { class: "field" }, ratedOn, el("span", { text: t("web.rated_game") })), ratedNote);
  // Games at one screen are never rated: the box is then cleared as well as disabled, and the
  // player's choice comes back with an online game.
  let wantRated = named;
  const sayRated = () => {
    const allowed = named && kind.value === "online";
    ratedOn.disabled = !allowed;
    ratedOn.checked = allowed && wantRated;
    ratedNote.textContent = kind.value !== "online" ? t("web.rated_note_local")
      : !named ? t("web.rated_note_guest")
      : ratedOn.checked ? t("web.rated_note_on") : t("web.rated_note_off");
  };
  ratedOn.addEventListener("change", () => {
    wantRated = ratedOn.checked;
    sayRated();
  });
  sayRated();
  kind.addEventListener("change", () => {
    publicField.hidden = kind.value !== "online";
    daysField.hidden = kind.value !== "online";
    sayRated();
  });
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { id: "new-game" },
    el("label", { class: "field" }, el("span", { text: t("web.rows") }), rows),
    el("label", { class: "field" }, el("span", { text: t("web.cols") }), cols),
    el("label", { class: "field" }, el("span", { text: t("web.mode") }), mode),
    el("label", { class: "field" }, el("span", { text: t("web.kind") }), kind),
    el("label", { class: "field" }, el("span", { text: t("web.seats") }), count),
    seatBox,
    publicField,
    ratedField,
    el("label", { class: "field" }, clockOn, el("span", { text: t("web.clock") })),
    clockFields,
    daysField,
    el("button", { type: "submit", class: "primary", id: "start", text: t("web.start") }),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const least = settings.config.limits.min_long_side;
    if (Math.max(Number(rows.value), Number(cols.value)) < least) {
      error.textContent = t("web.board_too_small", { least });
      return;
    }
    const seats = readSeats(seatBox);
    if (kind.value === "device") {
      const offline = offlineConfig();
      if (!offline.available) error.textContent = t("web.device.not_installed");
      else if (seats.some((seat) => seat.player !== "human" && !offline.levels.includes(seat.player))) error.textContent = levelsText();
      else startDeviceGame({ rows: Number(rows.value), cols: Number(cols.value), mode: mode.value, seats });
      return;
    }
    const body = {
      rows: Number(rows.value), cols: Number(cols.value), mode: mode.value, kind: kind.value, seats,
      clock: clockOn.checked ? { initial: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) } : null,
    };
    if (kind.value === "online" && publicOn.checked) body.public = true;
    if (kind.value === "online") body.rated = named && ratedOn.checked;
    if (kind.value === "online" && days.value) {
      body.days = Number(days.value);
      body.clock = null;
    }
    try {
      const created = await api("POST", "/api/games", body);
      saveToken(created.id, created.token);
      go(`#/game/${created.id}`);
    } catch (failure) {
      error.textContent = errorText(failure.code, failure.message, failure.detail);
    }
  });
  return form;
}

// ----------------------------------------------------------------------------- join page

async function showJoin(id, seat, invite) {
  router.render = () => showJoin(id, seat, invite);
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
  const name = el("input", { type: "text", id: "join-name", maxlength: settings.config.limits.max_name,
    value: account.player ? account.player.name : info.name, disabled: Boolean(account.player) });
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "panel", id: "join" },
    el("h1", { text: t("web.join_title", { number: seat + 1 }) }),
    el("p", { class: "meta", text: `${game.rows}x${game.cols}, ${t(`mode.${game.mode}`)}: ${game.seats.map(seatName).join(", ")}` }),
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
      error.textContent = failure.code === "seat_taken" ? t("web.seat_taken") : errorText(failure.code, failure.message, failure.detail);
    }
  });
  view().replaceChildren(form);
  name.focus();
}

// ------------------------------------------------------------------------------- starting

async function start() {
  const [data, config] = await Promise.all([api("GET", "/api/i18n"), api("GET", "/api/config")]);
  settings.config = config;
  settings.catalog = data.catalog;
  settings.languages = data.languages;
  const saved = localStorage.getItem("sos.lang");
  const wanted = saved || (navigator.language || "en").slice(0, 2);
  settings.lang = wanted in settings.languages ? wanted : "en";
  const select = document.getElementById("language");
  for (const [code, name] of Object.entries(settings.languages)) {
    select.append(el("option", { value: code, selected: code === settings.lang, text: name }));
  }
  select.addEventListener("change", () => {
    settings.lang = select.value;
    localStorage.setItem("sos.lang", settings.lang);
    translateStatic();
    if (router.render) router.render();
  });
  document.getElementById("sound").addEventListener("click", () => {
    localStorage.setItem("sos.sound", soundOn() ? "off" : "on");
    drawSoundToggle();
    beep("move");
  });
  setUpTheme();
  setUpOffline();
  setUpDevice();
  translateStatic();
  await loadSession();
  setUpBadge();
  router.route = route;
  window.addEventListener("hashchange", route);
  route();
}

start();
