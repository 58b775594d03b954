// Named players: logging in or claiming a name, the leaderboard, a player's page with their
// rating history as a chart (on one's own page also the account's controls: log out
// everywhere, change the password), and the lobby of public games. The server keeps the
// session (an HttpOnly cookie naming a session it can end); this page only asks who is logged in.
import { api, el, go, router, svg, svgText, view } from "./dom.js";
import { errorText, namesText, settings, t } from "./i18n.js";
import { challengeForm, challengesPanel, seeksPanel } from "./lobby.js";
import { nameText, watchChallenges } from "./challenges.js";

// The named player logged in here (null: a guest), from GET /api/session.
export const account = { player: null };

const RATING_CHART = { width: 440, height: 180, top: 14, bottom: 24, left: 40, right: 12 };

function formatRating(value) {
  return new Intl.NumberFormat(settings.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

function clockText(clock) {
  if (!clock) return t("web.clock_off");
  return t("web.clock_setting", { minutes: Math.round(clock.initial / 60), increment: clock.increment });
}

// ------------------------------------------------------------------------------ the session

export async function loadSession() {
  try {
    account.player = (await api("GET", "/api/session")).player;
  } catch {
    account.player = null;
  }
  drawAccount();
}

export function drawAccount() {
  watchChallenges(Boolean(account.player));
  const box = document.getElementById("account");
  if (!box) return;
  if (account.player) {
    const out = el("button", { type: "button", id: "logout", class: "sound", text: t("web.logout") });
    out.addEventListener("click", async () => {
      await api("DELETE", "/api/session");
      loggedOut();
    });
    box.replaceChildren(
      el("a", { href: `#/players/${encodeURIComponent(account.player.name)}`, id: "me", class: "nav",
        text: t("web.logged_in_as", { name: account.player.name }) }),
      out);
  } else {
    box.replaceChildren(el("a", { href: "#/login", id: "login-link", class: "nav", text: t("web.login") }));
  }
}

function loggedOut() {
  account.player = null;
  drawAccount();
  if (router.render) router.render();
}

// Log out everywhere, and change the password (which also logs out everywhere else).
function accountPanel() {
  const { min_password: least, max_password: most } = settings.config.limits;
  const everywhere = el("button", { type: "button", id: "logout-everywhere", text: t("web.logout_everywhere") });
  const status = el("p", { class: "meta", role: "status", id: "account-status" });
  everywhere.addEventListener("click", async () => {
    try {
      await api("DELETE", "/api/sessions");
    } catch (failure) {
      if (failure.code !== "not_logged_in") {
        status.textContent = errorText(failure.code, failure.message, failure.detail);
        return;
      }
    }
    loggedOut();
  });
  const current = el("input", { type: "password", id: "password-current", autocomplete: "current-password", maxlength: most });
  const fresh = el("input", { type: "password", id: "password-new", autocomplete: "new-password", minlength: least, maxlength: most });
  const form = el("form", { id: "password-change" },
    el("label", { class: "field" }, el("span", { text: t("web.password_current") }), current),
    el("label", { class: "field" }, el("span", { text: t("web.password_new") }), fresh),
    el("p", { class: "meta", text: t("web.password_rule", { least }) }),
    el("div", { class: "buttons" }, el("button", { type: "submit", id: "password-button", text: t("web.password_change") })));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    try {
      account.player = (await api("POST", "/api/session/password", { password: current.value, new_password: fresh.value })).player;
      form.reset();
      status.textContent = t("web.password_changed");
    } catch (failure) {
      if (failure.code === "not_logged_in") loggedOut();
      else status.textContent = loginError(failure);
    }
  });
  return el("section", { class: "panel", id: "account-panel" },
    el("h2", { text: t("web.account_panel") }), form, el("div", { class: "buttons" }, everywhere), status);
}

function loginError(failure) {
  const { min_password: least, max_password: most } = settings.config.limits;
  const known = { name_taken: {}, wrong_password: {}, weak_password: { least, most }, rate_limited: {} };
  if (failure.code in known) return t(`web.login.${failure.code}`, known[failure.code]);
  return errorText(failure.code, failure.message, failure.detail);
}

export function showLogin() {
  router.render = showLogin;
  document.title = t("web.title_login");
  const name = el("input", { type: "text", id: "login-name", autocomplete: "username", maxlength: settings.config.limits.max_name });
  const password = el("input", { type: "password", id: "login-password", autocomplete: "current-password",
    maxlength: settings.config.limits.max_password });
  const error = el("p", { class: "error", role: "alert", id: "login-error" });
  const send = async (path) => {
    error.textContent = "";
    try {
      account.player = (await api("POST", path, { name: name.value, password: password.value })).player;
      drawAccount();
      go(`#/players/${encodeURIComponent(account.player.name)}`);
    } catch (failure) {
      error.textContent = loginError(failure);
    }
  };
  const claim = el("button", { type: "button", id: "claim", text: t("web.claim") });
  claim.addEventListener("click", () => send("/api/players"));
  const form = el("form", { class: "panel narrow", id: "login" },
    el("h1", { text: t("web.account_title") }),
    el("p", { class: "meta", text: t("web.account_help") }),
    el("label", { class: "field" }, el("span", { text: t("web.name") }), name),
    el("label", { class: "field" }, el("span", { text: t("web.password") }), password),
    el("p", { class: "meta", text: t("web.password_rule", { least: settings.config.limits.min_password }) }),
    el("div", { class: "buttons" },
      el("button", { type: "submit", class: "primary", id: "login-button", text: t("web.login") }), " ", claim),
    error);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send("/api/session");
  });
  view().replaceChildren(form);
  name.focus();
}

// --------------------------------------------------------------------------- the leaderboard

// The leaderboard's tab: people's ratings or bots' (one scale for both).
const leaderboard = { kind: "person" };

function kindTabs() {
  const tab = (kind, label) => el("button", { type: "button", role: "tab", id: `tab-${kind}`, class: "tab",
    "aria-selected": String(leaderboard.kind === kind), "aria-controls": "leaderboard", tabindex: leaderboard.kind === kind ? "0" : "-1",
    text: t(label), onclick: () => { leaderboard.kind = kind; showPlayers(kind); } });
  const tabs = el("div", { role: "tablist", class: "tabs", id: "leaderboard-tabs", "aria-label": t("web.leaderboard.kinds") },
    tab("person", "web.leaderboard.people"), tab("bot", "web.leaderboard.bots"));
  // Arrow keys move between the tabs, as a tab list is used.
  tabs.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight"].includes(event.key)) return;
    leaderboard.kind = leaderboard.kind === "person" ? "bot" : "person";
    showPlayers(leaderboard.kind);
  });
  return tabs;
}

export async function showPlayers(focusKind = null) {
  const route = router.visits;
  router.render = showPlayers;
  document.title = t("web.title_players");
  let data;
  try {
    data = await api("GET", `/api/players?kind=${leaderboard.kind}`);
  } catch (error) {
    view().replaceChildren(el("p", { class: "error", text: errorText(error.code, error.message) }));
    return;
  }
  if (route !== router.visits) return;
  const head = (...names) => el("thead", {}, el("tr", {}, names.map((name) => el("th", { scope: "col", text: name }))));
  const board = el("table", { class: "table", "data-testid": "leaderboard", id: "leaderboard" },
    el("caption", { text: t("web.leaderboard") }),
    head(t("web.rank"), t("web.name"), t("web.rating"), t("web.rated_games")),
    el("tbody", {}, data.players.length ? data.players.map((player, index) => el("tr", {},
      el("td", { text: String(index + 1) }),
      el("td", {}, botMark(player), el("a", { href: `#/players/${encodeURIComponent(player.name)}`, text: player.name })),
      el("td", { class: "number", text: formatRating(player.rating) }),
      el("td", { class: "number", text: String(player.rated_games) }),
    )) : [el("tr", {}, el("td", { colspan: 4, text: t(leaderboard.kind === "bot" ? "web.no_bots_rated" : "web.no_players") }))]));
  const computers = el("table", { class: "table", id: "computer-ratings" },
    el("caption", { text: t("web.computer_ratings") }),
    head(t("web.level"), t("web.rating")),
    el("tbody", {}, data.computers.map((computer) => el("tr", {},
      el("td", { text: t(`web.player.${computer.level}`) }),
      el("td", { class: "number", text: formatRating(computer.rating) })))));
  view().replaceChildren(
    el("h1", { text: t("web.leaderboard") }),
    el("div", { class: "home" },
      el("section", { class: "panel scroll" }, kindTabs(), board,
        el("p", { class: "meta", id: "provisional-help", text: t("web.provisional_help") })),
      el("section", { class: "panel scroll" }, computers,
        el("p", { class: "meta", text: t("web.rating_help") }))));
  if (typeof focusKind === "string") document.getElementById(`tab-${focusKind}`).focus();
}

// ------------------------------------------------------------------------ a player's page

function ratingChart(history) {
  const { width, height, top, bottom, left, right } = RATING_CHART;
  const values = history.map((point) => point.rating);
  const low = Math.min(0, ...values);
  const high = Math.max(low + 1, ...values);
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const x = (index) => left + (history.length < 2 ? plotWidth / 2 : (index / (history.length - 1)) * plotWidth);
  const y = (value) => top + plotHeight - ((value - low) / (high - low)) * plotHeight;
  const chart = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "data-testid": "rating-chart", id: "rating-chart", "aria-label": t("web.rating_chart") });
  const axis = svg("g", { class: "axis" });
  axis.append(svg("line", { x1: left, x2: left + plotWidth, y1: y(low), y2: y(low) }));
  axis.append(svg("line", { x1: left, x2: left, y1: top, y2: top + plotHeight }));
  axis.append(svgText(left - 4, y(high) + 4, formatRating(high), { "text-anchor": "end" }));
  axis.append(svgText(left - 4, y(low) + 4, formatRating(low), { "text-anchor": "end" }));
  axis.append(svgText(left + plotWidth / 2, height - 4, t("web.rated_games"), { "text-anchor": "middle", class: "tick" }));
  chart.append(axis);
  const points = history.map((point, index) => `${x(index).toFixed(1)},${y(point.rating).toFixed(1)}`);
  chart.append(svg("polyline", { class: "rating-line", points: points.join(" ") }));
  history.forEach((point, index) => {
    const dot = svg("circle", { class: "rating-point", cx: x(index), cy: y(point.rating), r: 3.5 });
    const tip = svg("title");
    tip.textContent = `${index + 1}: ${formatRating(point.rating)}`;
    dot.append(tip);
    chart.append(dot);
  });
  return chart;
}

function outcomeText(game) {
  if (!game.result) return t("web.in_progress");
  // An aborted game has no winners, yet nobody lost it.
  if (game.result.termination === "aborted") return t("web.aborted_game");
  const won = game.result.winners.includes(game.seat);
  if (won && game.result.winners.length > 1) return t("web.drew");
  return won ? t("web.won") : t("web.lost");
}

export async function showPlayer(name) {
  const route = router.visits;
  router.render = () => showPlayer(name);
  document.title = t("web.title_player", { name });
  let data;
  try {
    data = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  } catch {
    if (route === router.visits) view().replaceChildren(el("p", { class: "error", text: t("web.no_player") }));
    return;
  }
  if (route !== router.visits) return;
  const games = el("ul", { class: "list", id: "player-games" }, data.games.length ? data.games.map((game) =>
    el("li", {},
      el("span", { text: `${game.rows}x${game.cols} ${t(`mode.${game.mode}`)}: ${namesText(game.names, game.bots)}` }),
      game.tournament ? el("a", { href: `#/tournament/${encodeURIComponent(game.tournament.id)}`, class: "meta game-tournament",
        text: t("web.in_tournament.name", { name: game.tournament.name }) }) : null,
      el("span", { class: "meta", text: outcomeText(game) }),
      el("span", { class: "meta", text: game.rating ? t("web.rating_after", { rating: formatRating(game.rating.rating) }) : t("web.unrated") }),
      // A private game comes without its id (its link) unless this is the player's own page.
      game.id ? el("a", { href: game.status === "finished" ? `#/replay/${game.id}` : `#/game/${game.id}`,
        text: game.status === "finished" ? t("web.replay") : t("web.watch") }) : null,
    )) : [el("li", { text: t("web.no_games") })]);
  const own = account.player && account.player.name === data.name;
  const challenges = own ? [] : [challengesPanel(Boolean(account.player)), challengeForm(Boolean(account.player), data.name)];
  view().replaceChildren(
    el("h1", { id: "player-name" }, botMark(data), data.name),
    el("p", { class: "meta", id: "player-rating",
      text: t("web.player_rating", { rating: formatRating(data.rating), count: data.rated_games }) }),
    ...(data.provisional ? [el("p", { class: "meta", id: "player-provisional", text: t("web.player_provisional") })] : []),
    el("div", { class: "home" },
      el("section", { class: "panel" }, el("h2", { text: t("web.rating_history") }),
        data.history.length ? ratingChart(data.history) : el("p", { text: t("web.no_history") })),
      el("section", { class: "panel" }, el("h2", { text: t("web.player_games") }), games),
      tournamentsPanel(data.tournaments || [])),
    ...(own ? [accountPanel(), limitsPanel()] : challenges));
}

// The latest tournaments the player is in, with their rank and score in each.
function tournamentsPanel(entered) {
  const number = (value) => new Intl.NumberFormat(settings.lang).format(value);
  const items = entered.map((one) => el("li", { "data-tournament": one.id },
    el("a", { href: `#/tournament/${encodeURIComponent(one.id)}`, text: one.name }),
    el("span", { class: "meta", text: `${t(`web.player_tournaments.${one.kind}`)} · ${t(`web.player_tournaments.${one.status}`)}` }),
    one.rank === null ? null : el("span", { class: "meta player-tournament-rank",
      text: t("web.player_tournaments.rank", { rank: one.rank, players: one.players, score: number(one.score) }) })));
  return el("section", { class: "panel", id: "player-tournaments", "aria-labelledby": "player-tournaments-title" },
    el("h2", { id: "player-tournaments-title", text: t("web.player_tournaments.title") }),
    el("ul", { class: "list" }, items.length ? items : [el("li", { text: t("web.player_tournaments.none") })]));
}

// Who may challenge this player, and to what games (GET/PUT /api/account/challenge-limits).
function limitsPanel() {
  const status = el("p", { class: "meta", id: "limits-status", role: "status", "aria-live": "polite" });
  const form = el("form", { id: "limits-form" });
  const panel = el("section", { class: "panel", id: "limits-panel", "aria-labelledby": "limits-title" },
    el("h2", { id: "limits-title", text: t("web.limits.title") }), form, status);
  fillLimits(form, status);
  return panel;
}

async function fillLimits(form, status) {
  let limits;
  try {
    limits = await api("GET", "/api/account/challenge-limits");
  } catch (failure) {
    status.textContent = errorText(failure.code, failure.message, failure.detail);
    return;
  }
  const { min_side: least, max_side: most } = settings.config.limits;
  const accept = el("select", { id: "limits-accept" }, ["nobody", "rated", "registered", "everyone"].map((value) =>
    el("option", { value, selected: value === limits.accept, text: t(`web.limits.accept.${value}`) })));
  const side = (id, value) => el("input", { type: "number", id, min: least, max: most, value: value ?? "", placeholder: t("web.limits.any") });
  const minutes = (id, value) => el("input", { type: "number", id, min: 0, max: 180, step: "any",
    value: value === null ? "" : value / 60, placeholder: t("web.limits.any") });
  const check = (id, on) => el("input", { type: "checkbox", id, checked: on });
  const fields = {
    min_side: side("limits-min-side", limits.min_side), max_side: side("limits-max-side", limits.max_side),
    min_initial: minutes("limits-min-minutes", limits.min_initial), max_initial: minutes("limits-max-minutes", limits.max_initial),
    general: check("limits-general", limits.modes.includes("general")), simple: check("limits-simple", limits.modes.includes("simple")),
    untimed: check("limits-untimed", limits.untimed), days: check("limits-days", limits.days),
    rated: check("limits-rated", limits.rated), casual: check("limits-casual", limits.casual), bots: check("limits-bots", limits.bots),
  };
  const field = (label, input) => el("label", { class: "field" }, el("span", { text: t(label) }), input);
  const box = (label, input) => el("label", { class: "field" }, input, el("span", { text: t(label) }));
  form.replaceChildren(
    field("web.limits.accept", accept),
    field("web.limits.min_side", fields.min_side), field("web.limits.max_side", fields.max_side),
    el("fieldset", { class: "field" }, el("legend", { text: t("web.limits.modes") }),
      box("mode.general", fields.general), box("mode.simple", fields.simple)),
    field("web.limits.min_minutes", fields.min_initial), field("web.limits.max_minutes", fields.max_initial),
    box("web.limits.untimed", fields.untimed), box("web.limits.days", fields.days),
    box("web.limits.rated", fields.rated), box("web.limits.casual", fields.casual), box("web.limits.bots", fields.bots),
    el("div", { class: "buttons" }, el("button", { type: "submit", class: "primary", id: "limits-save", text: t("web.limits.save") })));
  const number = (input, scale = 1) => (input.value === "" ? null : Math.round(Number(input.value) * scale));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const body = { accept: accept.value, min_side: number(fields.min_side), max_side: number(fields.max_side),
      modes: ["general", "simple"].filter((mode) => fields[mode].checked),
      min_initial: number(fields.min_initial, 60), max_initial: number(fields.max_initial, 60) };
    for (const flag of ["untimed", "days", "rated", "casual", "bots"]) body[flag] = fields[flag].checked;
    try {
      await api("PUT", "/api/account/challenge-limits", body);
      status.textContent = t("web.limits.saved");
    } catch (failure) {
      status.textContent = errorText(failure.code, failure.message, failure.detail);
    }
  };
}

// A bot's account says so before its name, wherever a player is shown.
function botMark(player) {
  return player.bot ? el("span", { class: "bot-mark", "data-testid": "bot-mark", text: `${t("web.bot")} ` }) : null;
}

// ------------------------------------------------------------------------------ the lobby

function seatText(seat) {
  const who = seat.free ? t("web.free_seat") : nameText(seat.name, seat.bot);
  if (!seat.rating) return who;
  const rating = formatRating(seat.rating.rating);
  return `${who} (${seat.provisional ? t("web.rating_provisional", { rating }) : rating})`;
}

export async function showLobby() {
  const route = router.visits;
  router.render = showLobby;
  document.title = t("web.title_lobby");
  let data;
  try {
    data = await api("GET", "/api/lobby");
  } catch (error) {
    view().replaceChildren(el("p", { class: "error", text: errorText(error.code, error.message) }));
    return;
  }
  if (route !== router.visits) return;
  const list = el("ul", { class: "list", "data-testid": "lobby", id: "lobby" }, data.games.length ? data.games.map((game) =>
    el("li", { "data-game": game.id },
      el("strong", { text: `${game.rows}x${game.cols}` }),
      el("span", { text: t(`mode.${game.mode}`) }),
      el("span", { class: "meta", text: clockText(game.clock) }),
      el("span", { class: "meta rated", text: game.rated ? t("web.rated") : t("web.casual") }),
      el("span", { text: game.seats.map(seatText).join(", ") }),
      game.open_seats.map((seat) => el("a", { href: `#/join/${game.id}/${seat}`, class: "join",
        text: t("web.join_seat_number", { number: seat + 1 }) })),
    )) : [el("li", { text: t("web.lobby_empty") })]);
  const loggedIn = Boolean(account.player);
  const playing = el("ul", { class: "list", id: "playing" }, el("li", { text: t("web.playing.none") }));
  view().replaceChildren(
    el("h1", { text: t("web.lobby") }),
    challengesPanel(loggedIn),
    el("section", { class: "panel" },
      el("p", { class: "meta", text: loggedIn ? t("web.lobby_named", { name: account.player.name }) : t("web.lobby_guest") }),
      list),
    seeksPanel(loggedIn),
    challengeForm(loggedIn),
    el("section", { class: "panel", id: "playing-panel", "aria-labelledby": "playing-title" },
      el("h2", { id: "playing-title", text: t("web.playing.title") }), playing));
  followPlaying(playing, route);
}

// The games being played, read again every few seconds while the lobby is shown.
const PLAYING_SECONDS = 5;

async function followPlaying(list, route) {
  while (route === router.visits && list.isConnected) {
    try {
      const data = await api("GET", "/api/games?list=playing");
      list.replaceChildren(...(data.games.length ? data.games.map((game) => el("li", { "data-game": game.id },
        el("a", { href: `#/game/${game.id}`, class: "watch",
          text: t("web.playing.watch", { size: `${game.rows}x${game.cols}`, mode: t(`mode.${game.mode}`), names: namesText(game.names, game.bots) }) }),
      )) : [el("li", { text: t("web.playing.none") })]));
    } catch (error) {
      list.replaceChildren(el("li", { class: "error", text: errorText(error.code, error.message) }));
    }
    await new Promise((done) => setTimeout(done, PLAYING_SECONDS * 1000));
  }
}
