// "My games": the home page's list of this browser's games (its seat tokens and its account),
// and the header's badge counting those where it is the player's turn.
import { allTokens, el, formatClock, router, saveToken, tokensFor } from "./dom.js";
import { errorText, namesText, resultText, t } from "./i18n.js";
import { deviceGamesList } from "./devicelist.js";

const BADGE_EVERY_MS = 30000;
const BADGE_SOON_MS = 1500;
// The server takes at most this many tokens; the newest games' tokens were saved last.
const MOST_TOKENS = 100;

// GET /api/my-games with this browser's tokens (one "Bearer" each, after commas: a header
// cannot hold line breaks).
async function fetchMine(page) {
  const tokens = allTokens().slice(-MOST_TOKENS);
  const headers = tokens.length ? { authorization: tokens.map((token) => `Bearer ${token}`).join(", ") } : {};
  let response;
  try {
    response = await fetch(`/api/my-games?page=${page}`, { headers });
  } catch {
    throw Object.assign(new Error("offline"), { code: "offline" });
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw Object.assign(new Error(data.error ? data.error.message : response.statusText), { code: data.error && data.error.code });
  }
  // A seek's token (kept before its game was made) is kept by its game from now on.
  for (const game of data.games) {
    for (const token of game.tokens) if (!tokensFor(game.id).includes(token)) saveToken(game.id, token);
  }
  return data;
}

function whenText(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
}

function stateText(game) {
  const seats = game.players.map((name, index) => ({ name, bot: Boolean(game.bots && game.bots[index]) }));
  if (game.result) return resultText(game.result, seats);
  if (!game.your_turn) return game.state === "open" ? t("web.my_games.open") : t("web.my_games.waiting");
  const deadline = game.deadline ? Date.parse(game.deadline) - Date.now() : null;
  const left = game.time_left ?? deadline;
  return left === null ? t("web.my_games.your_turn")
    : t("web.my_games.your_turn_left", { time: formatClock(left) });
}

function gameItem(game) {
  const title = `${game.rows}x${game.cols} ${t(`mode.${game.mode}`)}: ${namesText(game.players, game.bots)}`;
  return el("li", { class: game.your_turn ? "mine your-turn" : "mine", "data-game": game.id },
    el("a", { href: `#/game/${game.id}`, text: title }),
    game.tournament ? el("a", { href: `#/tournament/${encodeURIComponent(game.tournament.id)}`, class: "meta game-tournament",
      text: t("web.in_tournament.name", { name: game.tournament.name }) }) : null,
    el("span", { class: "meta", text: stateText(game) }),
    el("time", { class: "meta", datetime: new Date(game.updated).toISOString(), text: whenText(game.updated) }),
    game.state === "finished" ? el("a", { href: `#/analysis/${game.id}`, text: t("web.analysis") }) : null);
}

// The home page's panel: a page of games, and "More" while there are others.
export function myGamesPanel() {
  const list = el("ul", { class: "list", id: "my-games", "data-testid": "my-games", "aria-labelledby": "my-games-title" });
  const more = el("button", { type: "button", id: "my-games-more", hidden: true, text: t("web.my_games.more") });
  const visit = router.visits;
  let page = 1;
  const load = async () => {
    try {
      const data = await fetchMine(page);
      if (router.visits !== visit) return;
      if (page === 1 && !data.games.length) list.replaceChildren(el("li", { text: t("web.my_games.none") }));
      else list.append(...data.games.map(gameItem));
      more.hidden = !data.more;
      if (page === 1) drawBadge(data.your_turn);
    } catch (error) {
      list.replaceChildren(el("li", { class: "error", text: navigator.onLine ? errorText(error.code, error.message) : t("web.offline") }));
    }
  };
  more.addEventListener("click", () => {
    page += 1;
    load();
  });
  load();
  return el("section", { class: "panel", id: "my-games-panel" },
    el("h2", { id: "my-games-title", text: t("web.my_games") }), list, more, deviceGamesList());
}

function drawBadge(count) {
  const badge = document.getElementById("turn-badge");
  if (!badge) return;
  badge.hidden = !count;
  badge.textContent = String(count);
  badge.setAttribute("aria-label", t("web.my_games.badge", { count }));
  badge.title = badge.getAttribute("aria-label");
}

// The badge: counted on load, on every page change, after a game's changes and every half
// minute while the page is seen (one small request; a hidden tab asks nothing).
export async function refreshBadge() {
  if (document.hidden) return;
  try {
    drawBadge((await fetchMine(1)).your_turn);
  } catch {
    // Offline or refused: the badge keeps its last count.
  }
}

// After a game's socket says something changed: one refresh a little later, however many
// messages come meanwhile.
let soon = null;
export function badgeSoon() {
  if (soon) return;
  soon = setTimeout(() => {
    soon = null;
    refreshBadge();
  }, BADGE_SOON_MS);
}

export function setUpBadge() {
  refreshBadge();
  window.addEventListener("hashchange", refreshBadge);
  document.addEventListener("visibilitychange", refreshBadge);
  setInterval(refreshBadge, BADGE_EVERY_MS);
}
