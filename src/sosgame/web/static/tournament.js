// A tournament's page (#/tournament/ID): its settings and status, the podium once it is over,
// the live standings, its games, and the reader's buttons (join, withdraw, pause, come back;
// its creator's invitations). Asked for again every few seconds while the page is seen and
// the tournament not over, and redrawn in place (focus, typing and scroll stay).
import { api, el, patchChildren, router, view } from "./dom.js";
import { errorText, nameText, settings, t } from "./i18n.js";
import { steadily } from "./steady.js";
import { account } from "./players.js";
import { settingsText, statusNode } from "./tournaments.js";

const POLL_MS = 3000;
const PODIUM = 3;

// The tournament on the page, what the reader last did or was told, and the invite's text.
const page = { id: null, tournament: null, said: "", error: "", invite: "" };

export async function showTournament(id) {
  Object.assign(page, { id, tournament: null, said: "", error: "", invite: "" });
  router.render = () => draw();
  const visit = router.visits;
  view().replaceChildren(el("h1", { text: t("web.tournament.loading") }));
  await load(visit);
  if (page.tournament && page.tournament.status !== "finished") poll(visit);
}

async function load(visit) {
  try {
    const found = await api("GET", `/api/tournaments/${encodeURIComponent(page.id)}`);
    if (router.visits !== visit) return;
    page.tournament = found;
  } catch (error) {
    if (router.visits !== visit) return;
    if (!page.tournament) {
      view().replaceChildren(el("h1", { text: t("web.tournaments") }),
        el("p", { class: "error", role: "alert", text: errorText(error.code, error.message) }));
      return;
    }
  }
  redraw();
}

// Standings change as games end: asked for again while the page is seen, until it is over.
function poll(visit) {
  setTimeout(async () => {
    if (router.visits !== visit || !page.tournament) return;
    if (document.visibilityState === "visible") await load(visit);
    if (router.visits === visit && page.tournament.status !== "finished") poll(visit);
  }, POLL_MS);
}

const redraw = steadily(() => draw());

function draw() {
  const one = page.tournament;
  if (!one) return;
  const over = one.status === "finished";
  patchChildren(view(), [
    el("h1", { id: "tournament-name", text: one.name }),
    el("p", { class: "meta", id: "tournament-settings", text: `${settingsText(one)} · ${t("web.tournament.players", { count: one.players })}` }),
    el("p", { id: "tournament-status", class: "tournament-status" }, statusNode(one, { id: "tournament-clock" })),
    actions(one),
    over ? podium(one.standings) : null,
    standings(one),
    games(one),
  ]);
}

function score(value) {
  return new Intl.NumberFormat(settings.lang, { maximumFractionDigits: 1 }).format(value);
}

function isBot(name) {
  return (page.tournament.bot_players || []).includes(name);
}

function playerLink(line) {
  return el("a", { href: `#/players/${encodeURIComponent(line.name)}`, text: nameText(line.name, isBot(line.name)) });
}

function podium(lines) {
  const top = lines.filter((line) => line.rank <= PODIUM);
  if (!top.length) return null;
  return el("section", { class: "panel", id: "podium-panel", "aria-labelledby": "podium-title" },
    el("h2", { id: "podium-title", text: t("web.tournament.podium") }),
    el("ol", { class: "podium", id: "podium" }, top.map((line) =>
      el("li", { class: `podium-place place-${line.rank}`, "data-rank": line.rank },
        el("strong", { class: "podium-rank", text: String(line.rank) }),
        playerLink(line),
        el("span", { class: "meta", text: t("web.tournament.points", { count: line.score }) })))));
}

// A Swiss round's outcome as a mark, with its word for those who do not see it.
const MARKS = { win: "1", draw: "½", loss: "0", forfeit_win: "+", forfeit_loss: "−", bye: "1", late: "½", absent: "0", ongoing: "*" };

function results(one, line) {
  if (one.kind === "arena") {
    return line.games.map((points) => el("span", { class: `result points-${Math.min(points, 4)}`, text: String(points) }));
  }
  return line.games.map((outcome) => {
    const word = t(`web.tournament.outcome.${outcome}`);
    return el("span", { class: `result outcome-${outcome}`, title: word },
      el("span", { "aria-hidden": "true", text: MARKS[outcome] || "?" }), el("span", { class: "visually-hidden", text: word }));
  });
}

function standings(one) {
  const head = ["rank", "player", "rating", "score", "fire", "results"].map((key) =>
    el("th", { scope: "col", text: key === "fire" ? "" : t(`web.tournament.${key}`) },
      key === "fire" ? el("span", { class: "visually-hidden", text: t("web.tournament.fire") }) : null));
  const body = one.standings.map((line) => el("tr", { "data-player": line.name },
    el("td", { class: "number", text: String(line.rank) }),
    el("td", {}, playerLink(line)),
    el("td", { class: "number", text: String(line.rating) }),
    el("td", { class: "number", text: score(line.score) }),
    el("td", { class: "fire" }, line.fire
      ? el("span", { role: "img", class: "on-fire", "aria-label": t("web.tournament.fire"), title: t("web.tournament.fire"), text: "🔥" }) : null),
    el("td", { class: "results" }, results(one, line))));
  return el("section", { class: "panel", id: "standings-panel", "aria-labelledby": "standings-title" },
    el("h2", { id: "standings-title", text: t("web.tournament.standings") }),
    one.standings.length
      ? el("table", { class: "table standings", id: "standings" }, el("thead", {}, el("tr", {}, head)), el("tbody", {}, body))
      : el("p", { id: "standings-empty", text: t("web.tournament.nobody") }));
}

function games(one) {
  const shown = [...one.games].reverse();
  return el("section", { class: "panel", id: "games-panel", "aria-labelledby": "tournament-games-title" },
    el("h2", { id: "tournament-games-title", text: t("web.tournament.games") }),
    shown.length ? el("ul", { class: "list", id: "tournament-games" }, shown.map((game) =>
      el("li", { "data-game": game.id },
        el("a", { href: `#/game/${game.id}`, text: `${nameText(game.first, isBot(game.first))} – ${nameText(game.second, isBot(game.second))}` }),
        el("span", { class: "meta", text: game.status === "finished" ? t("web.tournament.game_over") : t("web.tournament.game_playing") }))))
      : el("p", { id: "tournament-no-games", text: t("web.tournament.no_games") }));
}

// The reader's buttons, as where they stand says; its creator invites by name.
function actions(one) {
  if (one.status === "finished") return null;
  if (!account.player || !one.me) return el("p", { class: "meta", id: "tournament-actions", text: t("web.tournament.log_in") });
  const { me } = one;
  const active = me.joined && !me.paused && !me.withdrawn;
  const state = me.withdrawn ? t("web.tournament.you_withdrew") : me.paused ? t("web.tournament.you_paused")
    : me.joined ? t("web.tournament.you_in") : "";
  const buttons = [];
  if (!me.joined) buttons.push(button("tournament-join", "web.tournament.join", "join", true));
  else if (!active) buttons.push(button("tournament-come-back", "web.tournament.come_back", "join", true));
  if (active && one.status === "started") buttons.push(button("tournament-pause", "web.tournament.pause", "pause"));
  if (me.joined && !me.withdrawn) buttons.push(button("tournament-withdraw", "web.tournament.withdraw", "withdraw"));
  return el("div", { id: "tournament-actions" },
    el("p", { id: "tournament-me", role: "status", text: page.said || state }),
    el("div", { class: "buttons" }, buttons),
    me.creator && !one.open ? inviteForm() : null,
    el("p", { class: "error", role: "alert", id: "tournament-action-error", text: page.error }));
}

function button(id, label, action, primary = false) {
  return el("button", { type: "button", id, class: primary ? "primary" : null, text: t(label), onclick: () => act(action) });
}

async function act(action) {
  const visit = router.visits;
  try {
    await api("POST", `/api/tournaments/${encodeURIComponent(page.id)}/${action}`);
    Object.assign(page, { said: "", error: "" });
  } catch (error) {
    page.error = errorText(error.code, error.message, error.detail);
  }
  if (router.visits === visit) await load(visit);
}

function inviteForm() {
  const name = el("input", { type: "text", id: "tournament-invite-name", value: page.invite, maxlength: settings.config.limits.max_name,
    oninput: (event) => { page.invite = event.target.value; } });
  return el("form", { id: "tournament-invite", onsubmit: (event) => { event.preventDefault(); invite(); } },
    el("label", { class: "field" }, el("span", { text: t("web.tournament.invite") }), name),
    el("button", { type: "submit", id: "tournament-invite-send", text: t("web.tournament.invite_send") }));
}

async function invite() {
  try {
    const done = await api("POST", `/api/tournaments/${encodeURIComponent(page.id)}/invite`, { name: page.invite });
    Object.assign(page, { said: t("web.tournament.invited", { name: done.name }), error: "", invite: "" });
  } catch (error) {
    Object.assign(page, { said: "", error: errorText(error.code, error.message, error.detail) });
  }
  draw();
  // A typed value outlives a changed attribute: an invitation sent empties the field itself.
  const field = document.getElementById("tournament-invite-name");
  if (field) field.value = page.invite;
}
