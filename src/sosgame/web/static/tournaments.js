// The tournaments' list (#/tournaments: playing, upcoming, finished, and the form that makes
// one) and the home page's panel; the words every tournament page shares (its settings, its
// status) and the countdowns, which tick in place once a second.
import { api, el, formatClock, router, view } from "./dom.js";
import { errorText, settings, t } from "./i18n.js";
import { challengeGame } from "./challenges.js";
import { account } from "./players.js";
import { tournamentForm } from "./tournamentform.js";

const TICK_MS = 1000;
const HOME_MOST = 5;
let ticker = 0;

// A text with {time} counting down to `until` (ms), kept right by the ticker.
export function countdown(key, until, attrs = {}) {
  const node = el("span", { ...attrs, "data-until": until, "data-text": key, text: countdownText(key, until) });
  if (!ticker) ticker = setInterval(tick, TICK_MS);
  return node;
}

function countdownText(key, until) {
  return t(key, { time: formatClock(until - Date.now()) });
}

function tick() {
  const shown = document.querySelectorAll("[data-until]");
  if (!shown.length) {
    clearInterval(ticker);
    ticker = 0;
  }
  for (const node of shown) {
    const text = countdownText(node.dataset.text, Number(node.dataset.until));
    if (node.textContent !== text) node.textContent = text;
  }
}

export function whenText(ms) {
  return new Intl.DateTimeFormat(settings.lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
}

// "Arena · 55 minutes · 5x5 general, 1 min + 1 s a move, Rated".
export function settingsText(one) {
  const length = one.kind === "arena"
    ? t("web.tournament.minutes_long", { count: one.minutes })
    : t("web.tournament.rounds_long", { count: one.rounds });
  const extras = [one.open ? null : t("web.tournament.by_invitation"), one.bots ? t("web.tournament.bots_allowed") : null];
  return [t(`web.tournament.${one.kind}`), length, challengeGame(one), ...extras].filter(Boolean).join(" · ");
}

// Where it stands: a countdown to its start or its end, its round, or over.
export function statusNode(one, attrs = {}) {
  if (one.status === "created") return countdown("web.tournament.starts_in", one.starts_at, attrs);
  if (one.status === "finished") return el("span", { ...attrs, text: t("web.tournament.finished") });
  if (one.kind === "arena") return countdown("web.tournament.time_left", one.ends_at, attrs);
  return el("span", { ...attrs, text: t("web.tournament.round", { round: one.round, rounds: one.rounds }) });
}

function item(one) {
  const players = t("web.tournament.players", { count: one.players });
  const when = one.status === "created" ? el("span", { class: "meta", text: t("web.tournament.starts_at", { when: whenText(one.starts_at) }) }) : null;
  return el("li", { class: "tournament-item", "data-tournament": one.id },
    el("a", { href: `#/tournament/${one.id}`, text: one.name }),
    el("span", { class: "meta", text: `${settingsText(one)} · ${players}` }),
    when,
    one.status === "finished" ? null : statusNode(one, { class: "tournament-clock" }));
}

function list(id, items) {
  return el("ul", { class: "list tournament-list", id }, items.length ? items.map(item) : el("li", { text: t("web.tournaments.none") }));
}

function failure(error) {
  return navigator.onLine ? errorText(error.code, error.message) : t("web.offline");
}

// A finished tournament's winner, asked for once its line is on screen.
function winnerWhenSeen(listNode) {
  const seen = new IntersectionObserver((entries) => {
    for (const entry of entries.filter((one) => one.isIntersecting)) {
      seen.unobserve(entry.target);
      api("GET", `/api/tournaments/${entry.target.dataset.tournament}`).then((found) => {
        const first = found.standings.find((line) => line.rank === 1);
        if (first) entry.target.append(el("span", { class: "winner", text: t("web.tournament.winner", { name: first.name }) }));
      }).catch(() => {});
    }
  });
  for (const line of listNode.querySelectorAll("li[data-tournament]")) seen.observe(line);
}

export async function showTournaments() {
  router.render = showTournaments;
  const visit = router.visits;
  const lists = el("div", { id: "tournament-lists" }, el("p", { text: t("web.connecting") }));
  const create = account.player ? tournamentForm() : el("p", { class: "meta", id: "tournament-log-in", text: t("web.tournament.log_in") });
  view().replaceChildren(
    el("h1", { text: t("web.tournaments") }),
    lists,
    el("section", { class: "panel", "aria-labelledby": "tournament-create-title" },
      el("h2", { id: "tournament-create-title", text: t("web.tournament.create") }), create));
  let found;
  try {
    found = await api("GET", "/api/tournaments");
  } catch (error) {
    if (router.visits === visit) lists.replaceChildren(el("p", { class: "error", role: "alert", text: failure(error) }));
    return;
  }
  if (router.visits !== visit) return;
  const finished = list("tournaments-finished", found.finished);
  lists.replaceChildren(
    el("section", { class: "panel", "aria-labelledby": "tournaments-playing-title" },
      el("h2", { id: "tournaments-playing-title", text: t("web.tournaments.playing") }), list("tournaments-playing", found.playing)),
    el("section", { class: "panel", "aria-labelledby": "tournaments-upcoming-title" },
      el("h2", { id: "tournaments-upcoming-title", text: t("web.tournaments.upcoming") }), list("tournaments-upcoming", found.upcoming)),
    el("section", { class: "panel", "aria-labelledby": "tournaments-finished-title" },
      el("h2", { id: "tournaments-finished-title", text: t("web.tournaments.finished") }), finished));
  winnerWhenSeen(finished);
}

// The home page's panel: the tournaments playing, then the next to start, drawn when the one
// list answers.
export function tournamentsPanel() {
  const shown = el("ul", { class: "list tournament-list", id: "home-tournaments" });
  const panel = el("section", { class: "panel", id: "tournaments-panel", "aria-labelledby": "tournaments-panel-title" },
    el("h2", { id: "tournaments-panel-title", text: t("web.tournaments") }),
    shown,
    el("a", { href: "#/tournaments", id: "tournaments-all", text: t("web.tournaments.all") }));
  api("GET", "/api/tournaments").then((found) => {
    const next = [...found.playing, ...found.upcoming].slice(0, HOME_MOST);
    shown.replaceChildren(...(next.length ? next.map(item) : [el("li", { text: t("web.tournaments.none") })]));
  }).catch((error) => shown.replaceChildren(el("li", { class: "error", text: failure(error) })));
  return panel;
}
