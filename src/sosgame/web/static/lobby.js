// Quick pairing, seeks and challenges, over the lobby's WebSocket (/ws/lobby): the home page's
// "Play now" pools, the lobby page's seeks, and challenges to a named player. The server pushes
// the seeks, the pools' counts and the challenges as they change. Leaving the page closes the
// socket, which leaves the pool and withdraws this page's seeks and challenges.
import { api, el, go, saveSeekToken, saveToken } from "./dom.js";
import { errorText, settings, t } from "./i18n.js";
import { beep } from "./sound.js";
import { steadily } from "./steady.js";
import { challengeGame, challengerText, nameText, reasonChoice, reasonText } from "./challenges.js";
import { callToGame } from "./tournamentcall.js";

const PROTOCOL = 1;

// The lobby socket of this page: its secret (from `welcome`), what it waits for, the
// correspondence seeks it joined (whose seat tokens are kept) and where the page shows its state.
const lobby = { socket: null, secret: null, ready: null, pool: null, seeks: new Set(), joinedDays: new Set(),
  status: null, offer: null, leave: null, seekList: null, counts: null, challengeList: null,
  challengeStatus: null, challenges: [], sent: new Map(), heard: new Set(), aboutChallenges: false, asked: "" };

export function closeLobby() {
  if (lobby.socket) lobby.socket.close();
  lobby.socket = null;
  lobby.secret = null;
  lobby.ready = null;
  lobby.pool = null;
  lobby.seeks.clear();
  lobby.joinedDays.clear();
  lobby.seekList = lobby.counts = lobby.challengeList = lobby.challengeStatus = null;
  lobby.challenges = [];
  lobby.sent.clear();
  lobby.heard.clear();
}

window.addEventListener("hashchange", closeLobby);

function sendLobby(message) {
  // An error answers the last message: said next to the challenges, or the seeks and pools.
  lobby.aboutChallenges = ["challenge", "accept", "decline", "cancel_challenge"].includes(message.type);
  lobby.socket.send(JSON.stringify({ v: PROTOCOL, ...message }));
}

// The socket, opened (and greeted) once per page.
export function openLobby() {
  if (lobby.ready) return lobby.ready;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  lobby.socket = socket;
  lobby.ready = new Promise((resolve, reject) => {
    socket.addEventListener("open", () => sendLobby({ type: "hello" }));
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "welcome") {
        lobby.secret = message.lobby;
        resolve(message);
      } else receiveLobby(message);
    });
    socket.addEventListener("close", () => reject(new Error("closed")));
  });
  return lobby.ready;
}

function say(text) {
  if (lobby.status) lobby.status.textContent = text;
}

// "Stop looking" shows only while this page waits in a pool.
function looking(yes) {
  if (lobby.leave) lobby.leave.hidden = !yes;
}

function receiveLobby(message) {
  if (message.type === "waiting") {
    say(t("web.pool.waiting"));
    looking(true);
  } else if (message.type === "left") {
    say("");
    looking(false);
  }
  else if (message.type === "joined") {
    // A correspondence seek may fill after this page is gone: its token is kept till then.
    if (lobby.joinedDays.has(message.seek)) saveSeekToken(message.seek, message.token);
    say(t("web.seek.joined"));
  }
  else if (message.type === "offer_computer") showOffer(message.level);
  else if (message.type === "paired" && message.tournament) {
    // Not this page's doing: the page stays until the countdown takes the player to the board.
    saveToken(message.game, message.token);
    callToGame(message);
  } else if (message.type === "paired") {
    const mine = lobby.seeks.size > 0 || lobby.sent.size > 0;
    saveToken(message.game, message.token);
    if (mine) alertFilled();
    closeLobby();
    go(`#/game/${message.game}`);
  } else if (message.type === "seeks") drawSeeksSteadily(message.seeks);
  else if (message.type === "pool_counts") drawCounts(message.counts);
  else if (message.type === "challenges") drawChallengesSteadily(message.challenges);
  else if (message.type === "challengeDeclined") {
    // Said before the list drops it, so the list's "did not take up" does not say it again.
    const one = message.challenge;
    lobby.sent.delete(one.id);
    sayChallenge(t("web.challenge.declined", { name: nameText(one.to, one.to_bot), reason: reasonText(one.declineReason) }));
  } else if (message.type === "challengeCanceled") {
    sayChallenge(t("web.challenge.canceled", { name: nameText(message.challenge.from, message.challenge.from_bot) }));
  }
  else if (message.type === "challenge_sent") {
    lobby.sent.set(message.challenge, message.to);
    sayChallenge(t("web.challenge.sent"));
  } else if (message.type === "error") {
    if (lobby.aboutChallenges && lobby.challengeStatus && message.code === "challenge_refused") {
      sayChallenge(t("web.challenge.refused", { name: lobby.asked, reason: reasonText(message.detail) }));
    } else if (lobby.aboutChallenges && lobby.challengeStatus) sayChallenge(errorText(message.code, message.message, message.detail));
    else say(errorText(message.code, message.message, message.detail));
  }
}

function sayChallenge(text) {
  if (lobby.challengeStatus) lobby.challengeStatus.textContent = text;
}

function ratingText(seeker) {
  if (!seeker) return t("web.seek.guest");
  const rating = new Intl.NumberFormat(settings.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(seeker.rating);
  return seeker.provisional ? t("web.rating_provisional", { rating }) : rating;
}

function rangeText(range) {
  if (!range) return t("web.seek.any_rating");
  if (range.min === null) return t("web.seek.range_max", { max: range.max });
  if (range.max === null) return t("web.seek.range_min", { min: range.min });
  return t("web.seek.range", { min: range.min, max: range.max });
}

// The pushed lists wait for a press under way: a Join or Accept button is not swept away.
const drawSeeksSteadily = steadily(drawSeeks);
const drawChallengesSteadily = steadily(drawChallenges);

// The seeks as the server pushed them: each this player may take, or its own.
function drawSeeks(seeks) {
  if (!lobby.seekList) return;
  lobby.seekList.replaceChildren(...(seeks.length ? seeks.map((seek) => el("li", { "data-seek": seek.id },
    el("strong", { text: `${seek.rows}x${seek.cols}` }),
    el("span", { text: `${t(`mode.${seek.mode}`)}, ${clockLabel(seek.clock, seek.days)}` }),
    el("span", { class: "meta rated", text: seek.rated ? t("web.rated") : t("web.casual") }),
    el("span", { class: "seeker", text: `${seek.name} (${ratingText(seek.seeker)})` }),
    el("span", { class: "meta range", text: rangeText(seek.rating) }),
    el("span", { class: "meta", text: t("web.seek.players", { joined: seek.joined, players: seek.players }) }),
    seek.mine || lobby.seeks.has(seek.id) ? el("span", { class: "meta", text: t("web.seek.yours") })
      : el("button", { type: "button", class: "join", text: t("web.seek.join"),
        onclick: () => {
          if (seek.days) lobby.joinedDays.add(seek.id);
          sendLobby({ type: "join_seek", seek: seek.id });
        } }),
  )) : [el("li", { text: t("web.seek.none") })]));
}

function drawCounts(counts) {
  if (!lobby.counts) return;
  for (const [pool, count] of Object.entries(counts)) {
    const shown = lobby.counts.querySelector(`[data-count="${CSS.escape(pool)}"]`);
    if (shown) shown.textContent = t("web.pool.count", { count });
  }
}

// The challenges to this player (accept or decline) and from it (cancel).
function drawChallenges(challenges) {
  const gone = [...lobby.sent.keys()].filter((id) => !challenges.some((one) => one.id === id));
  for (const id of gone) {
    sayChallenge(t("web.challenge.not_accepted", { name: lobby.sent.get(id) }));
    lobby.sent.delete(id);
  }
  lobby.challenges = challenges;
  if (!lobby.challengeList) return;
  const received = challenges.filter((one) => !one.mine);
  const items = challenges.map((one) => {
    const reason = one.mine ? null : reasonChoice(`challenge-reason-${one.id}`);
    return el("li", { "data-challenge": one.id, class: one.mine ? "sent" : "received" },
      el("strong", { text: one.mine ? t("web.challenge.to", { name: nameText(one.to, one.to_bot) }) : challengerText(one) }),
      el("span", { text: challengeGame(one) }),
      ...(one.mine ? [el("span", { class: "meta", text: t("web.challenge.waiting", { name: one.to }) }),
        el("button", { type: "button", class: "challenge-cancel", text: t("web.challenge.cancel"),
          onclick: () => { lobby.sent.delete(one.id); sendLobby({ type: "cancel_challenge", challenge: one.id }); } })]
        : [el("button", { type: "button", class: "primary challenge-accept", text: t("web.challenge.accept"),
          onclick: () => sendLobby({ type: "accept", challenge: one.id }) }),
        reason,
        el("button", { type: "button", class: "challenge-decline", text: t("web.challenge.decline"),
          onclick: () => sendLobby({ type: "decline", challenge: one.id, reason: reason.value }) })]),
    );
  });
  if (received.length > 1) {
    items.push(el("li", {}, el("button", { type: "button", id: "challenge-decline-all", text: t("web.challenge.decline_all"),
      onclick: () => sendLobby({ type: "decline" }) })));
  }
  lobby.challengeList.replaceChildren(...items);
  lobby.challengeList.closest("section").hidden = challenges.length === 0;
  // A new challenge is heard even in a background tab.
  if (received.some((one) => !lobby.heard.has(one.id))) {
    document.title = t("web.challenge.new_title");
    beep("end");
  }
  lobby.heard = new Set(received.map((one) => one.id));
}

// The challenges this player received or sent, on every page that has the lobby's socket.
export function challengesPanel(loggedIn) {
  lobby.challengeList = el("ul", { class: "list", id: "challenges" });
  lobby.challengeStatus = lobby.challengeStatus || el("p", { class: "meta", id: "challenge-status", role: "status", "aria-live": "polite" });
  // The status is the challenge form's once one is drawn after this panel.
  const panel = el("section", { class: "panel", id: "challenges-panel", "aria-labelledby": "challenges-title", hidden: true },
    el("h2", { id: "challenges-title", text: t("web.challenge.title_list") }), lobby.challengeList, lobby.challengeStatus);
  if (loggedIn) openLobby().catch(() => {});
  return panel;
}

// A challenge to a named player: the game's settings, sent on the lobby's socket.
export function challengeForm(loggedIn, name = null) {
  lobby.challengeStatus = lobby.challengeStatus || el("p", { class: "meta", id: "challenge-status", role: "status", "aria-live": "polite" });
  const heading = el("h2", { id: "challenge-title", text: t("web.challenge.title") });
  if (!loggedIn) {
    return el("section", { class: "panel", id: "challenge-panel", "aria-labelledby": "challenge-title" },
      heading, el("p", { id: "challenge-login", text: t("web.challenge.account_needed") }));
  }
  const [who, whoField] = number("challenge-name", t("web.challenge.name"), { type: "text", maxlength: 40, required: true });
  if (name) { who.value = name; whoField.hidden = true; }
  const [rows, rowsField] = number("challenge-rows", t("web.rows"), { min: 3, max: 26, value: 5 });
  const [cols, colsField] = number("challenge-cols", t("web.cols"), { min: 3, max: 26, value: 5 });
  const [minutes, minutesField] = number("challenge-minutes", t("web.clock_minutes"), { min: 0, max: 180, value: 3 });
  const [increment, incrementField] = number("challenge-increment", t("web.clock_increment"), { min: 0, max: 180, value: 2 });
  const mode = el("select", { id: "challenge-mode" },
    el("option", { value: "general", text: t("mode.general") }),
    el("option", { value: "simple", text: t("mode.simple") }));
  const rated = el("input", { type: "checkbox", id: "challenge-rated" });
  const days = el("select", { id: "challenge-days" },
    el("option", { value: "", text: t("web.days_none") }),
    ...settings.config.days_per_move.map((n) => el("option", { value: n, text: t("web.days_setting", { count: n }) })));
  days.addEventListener("change", () => { minutes.disabled = increment.disabled = Boolean(days.value); });
  const form = el("form", { id: "challenge-form" }, whoField, rowsField, colsField,
    el("label", { class: "field" }, el("span", { text: t("web.mode") }), mode),
    minutesField, incrementField,
    el("label", { class: "field" }, el("span", { text: t("web.days_per_move") }), days),
    el("label", { class: "field" }, rated, el("span", { text: t("web.pool.rated") })),
    el("button", { type: "submit", class: "primary", id: "challenge-send",
      text: name ? t("web.challenge.send_to", { name }) : t("web.challenge.send") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const message = { type: "challenge", name: who.value.trim(), rows: Number(rows.value), cols: Number(cols.value),
      mode: mode.value, rated: rated.checked,
      clock: Number(minutes.value) > 0 && !days.value ? { initial: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) } : null };
    if (days.value) message.days = Number(days.value);
    lobby.asked = message.name;
    try {
      await openLobby();
      sendLobby(message);
    } catch (failure) {
      sayChallenge(errorText(failure.code, failure.message, failure.detail));
    }
  });
  return el("section", { class: "panel", id: "challenge-panel", "aria-labelledby": "challenge-title" },
    heading, form, lobby.challengeStatus);
}

// The creator of a seek is told it filled even in a background tab: the title, a sound (if
// sounds are on) and a notification (if allowed).
function alertFilled() {
  document.title = t("web.seek.filled_title");
  beep("end");
  if ("Notification" in window && Notification.permission === "granted") {
    new Notification(t("web.seek.filled_title"), { body: t("web.seek.filled") });
  }
}

function showOffer(level) {
  if (!lobby.offer) return;
  const button = el("button", { type: "button", class: "primary", id: "pool-play-computer",
    text: t("web.pool.play_computer", { level: t(`web.player.${level}`) }),
    onclick: () => sendLobby({ type: "play_computer" }) });
  lobby.offer.replaceChildren(el("p", { text: t("web.pool.nobody") }), button);
}

function clockLabel(clock, days) {
  if (days) return t("web.days_setting", { count: days });
  if (!clock) return t("web.clock_off");
  return t("web.clock_setting", { minutes: Math.round(clock.initial / 60), increment: clock.increment });
}

// The home page's "Play now": a button per pool.
export function playNowPanel(loggedIn) {
  const list = el("div", { class: "pools", id: "pools" });
  lobby.status = el("p", { class: "meta", id: "pool-status", role: "status", "aria-live": "polite" });
  lobby.offer = el("div", { id: "pool-offer" });
  const cancel = el("button", { type: "button", id: "pool-leave", text: t("web.pool.leave"), hidden: true,
    onclick: () => { if (lobby.socket) sendLobby({ type: "leave" }); lobby.offer.replaceChildren(); } });
  lobby.leave = cancel;
  // The pools come with the settings the app started from: drawn at once, they move nothing.
  list.replaceChildren(...settings.config.pools.map((pool) => el("button", {
    type: "button", class: "pool", "data-pool": pool.id, disabled: pool.rated && !loggedIn,
    title: pool.rated && !loggedIn ? t("web.pool.account_needed") : null,
    text: `${pool.rows}x${pool.cols} ${t(`mode.${pool.mode}`)}, ${clockLabel(pool.clock, pool.days)}, ${pool.rated ? t("web.pool.rated") : t("web.pool.casual")}`,
    onclick: async () => {
      await openLobby();
      lobby.offer.replaceChildren();
      sendLobby({ type: "pool", pool: pool.id });
    },
  })));
  // Players waiting in each pool, as the server pushes them.
  for (const button of list.children) {
    button.append(" ", el("span", { class: "meta pool-count", "data-count": button.dataset.pool }));
  }
  lobby.counts = list;
  openLobby().catch(() => {});
  return el("section", { class: "panel", id: "play-now", "aria-labelledby": "play-now-title" },
    el("h2", { id: "play-now-title", text: t("web.play_now") }), list, lobby.status, lobby.offer, cancel);
}

function number(id, label, attrs) {
  const input = el("input", { type: "number", id, ...attrs });
  return [input, el("label", { class: "field" }, el("span", { text: label }), input)];
}

// The lobby page's seeks: the form for a new one, and those this player may take.
export function seeksPanel(loggedIn) {
  const list = el("ul", { class: "list", id: "seeks" });
  lobby.status = el("p", { class: "meta", id: "seek-status", role: "status", "aria-live": "polite" });
  const [rows, rowsField] = number("seek-rows", t("web.rows"), { min: 3, max: 26, value: 5 });
  const [cols, colsField] = number("seek-cols", t("web.cols"), { min: 3, max: 26, value: 5 });
  const [players, playersField] = number("seek-players", t("web.seats"), { min: 2, max: 8, value: 2 });
  const [minutes, minutesField] = number("seek-minutes", t("web.clock_minutes"), { min: 0, max: 180, value: 3 });
  const [increment, incrementField] = number("seek-increment", t("web.clock_increment"), { min: 0, max: 180, value: 2 });
  const [low, lowField] = number("seek-min", t("web.seek.min_rating"), { step: "any" });
  const [high, highField] = number("seek-max", t("web.seek.max_rating"), { step: "any" });
  const mode = el("select", { id: "seek-mode" },
    el("option", { value: "general", text: t("mode.general") }),
    el("option", { value: "simple", text: t("mode.simple") }));
  const rated = el("input", { type: "checkbox", id: "seek-rated", disabled: !loggedIn });
  // Correspondence: days per move instead of the clock (such a seek lives a day).
  const days = el("select", { id: "seek-days" },
    el("option", { value: "", text: t("web.days_none") }),
    ...settings.config.days_per_move.map((n) => el("option", { value: n, text: t("web.days_setting", { count: n }) })));
  days.addEventListener("change", () => { minutes.disabled = increment.disabled = Boolean(days.value); });
  const form = el("form", { id: "new-seek" }, rowsField, colsField,
    el("label", { class: "field" }, el("span", { text: t("web.mode") }), mode),
    playersField, minutesField, incrementField,
    el("label", { class: "field" }, el("span", { text: t("web.days_per_move") }), days),
    lowField, highField,
    el("label", { class: "field" }, rated, el("span", { text: t("web.pool.rated") })),
    el("button", { type: "submit", class: "primary", id: "seek-create", text: t("web.seek.create") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { rows: Number(rows.value), cols: Number(cols.value), mode: mode.value,
      players: Number(players.value), rated: rated.checked,
      clock: Number(minutes.value) > 0 && !days.value ? { initial: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) } : null };
    if (days.value) body.days = Number(days.value);
    if (low.value !== "" || high.value !== "") {
      body.rating = { min: low.value === "" ? null : Number(low.value), max: high.value === "" ? null : Number(high.value) };
    }
    try {
      await openLobby();
      if ("Notification" in window && Notification.permission === "default") Notification.requestPermission();
      const made = await api("POST", "/api/seeks", body, lobby.secret);
      // A clock seek dies with this page; a correspondence seek may fill after it is gone.
      if (body.days) saveSeekToken(made.id, made.token);
      lobby.seeks.add(made.id);
      say(t("web.seek.waiting"));
    } catch (failure) {
      say(errorText(failure.code, failure.message, failure.detail));
    }
  });
  lobby.seekList = list;
  list.replaceChildren(el("li", { text: t("web.seek.none") }));
  openLobby().catch((error) => say(errorText(error.code, error.message)));
  return el("section", { class: "panel", id: "seeks-panel", "aria-labelledby": "seeks-title" },
    el("h2", { id: "seeks-title", text: t("web.seek.title") }), form, lobby.status, list);
}
