// Challenges to the player logged in here, on every page: a lobby socket of its own that
// lives from page to page (the page's own lobby socket dies with the page) and only listens.
// A challenge shows in a prompt at the foot of the page, read out as it comes (by the page's
// one live region), with Accept and
// Decline (and the reason); the pages that list challenges themselves (home, lobby, a
// player's page) keep the prompt hidden.
import { el, go, saveToken } from "./dom.js";
import { nameText, settings, t } from "./i18n.js";
import { beep } from "./sound.js";
import { announce } from "./announcer.js";
import { callToGame } from "./tournamentcall.js";

const PROTOCOL = 1;
const RETRY_MS = 5000;

// Lichess's reasons (board: this board or mode), as the server takes them.
export const DECLINE_REASONS = ["generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual",
  "board", "noBot", "onlyBot"];

const watch = { socket: null, wanted: false, received: [], heard: new Set(), said: "" };

// The lobby's pages import it from here too.
export { nameText };

export function reasonText(reason) {
  return t(`web.decline.${DECLINE_REASONS.includes(reason) ? reason : "generic"}`);
}

// The reasons as a choice, the generic one first.
export function reasonChoice(id) {
  return el("select", { id, class: "challenge-reason", "aria-label": t("web.challenge.reason") },
    DECLINE_REASONS.map((reason) => el("option", { value: reason, text: reasonText(reason) })));
}

function ratingText(seeker) {
  if (!seeker) return t("web.seek.guest");
  const rating = new Intl.NumberFormat(settings.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(seeker.rating);
  return seeker.provisional ? t("web.rating_provisional", { rating }) : rating;
}

function clockLabel(clock, days) {
  if (days) return t("web.days_setting", { count: days });
  if (!clock) return t("web.clock_off");
  return t("web.clock_setting", { minutes: Math.round(clock.initial / 60), increment: clock.increment });
}

// "6x6 general, 3 min + 2 s, rated".
export function challengeGame(one) {
  return `${one.rows}x${one.cols} ${t(`mode.${one.mode}`)}, ${clockLabel(one.clock, one.days)}, ${one.rated ? t("web.rated") : t("web.casual")}`;
}

export function challengerText(one) {
  return t("web.challenge.from", { name: nameText(one.from, one.from_bot), rating: ratingText(one.seeker) });
}

// Listen from now on (a player has logged in), or stop (logged out).
export function watchChallenges(loggedIn) {
  watch.wanted = loggedIn;
  if (!loggedIn) {
    if (watch.socket) watch.socket.close();
    watch.socket = null;
    watch.received = [];
    drawPrompt();
    return;
  }
  if (watch.socket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  watch.socket = socket;
  socket.addEventListener("open", () => send({ type: "hello" }));
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (watch.socket !== socket) return;
    watch.socket = null;
    if (watch.wanted) setTimeout(() => { if (watch.wanted) watchChallenges(true); }, RETRY_MS);
  });
}

function send(message) {
  if (watch.socket && watch.socket.readyState === WebSocket.OPEN) {
    watch.socket.send(JSON.stringify({ v: PROTOCOL, ...message }));
  }
}

function receive(message) {
  if (message.type === "challenges") {
    watch.received = message.challenges.filter((one) => !one.mine);
    const fresh = watch.received.filter((one) => !watch.heard.has(one.id));
    watch.heard = new Set(watch.received.map((one) => one.id));
    // What was said (a withdrawal, just before this list) stays until a new challenge comes.
    if (fresh.length) watch.said = "";
    drawPrompt(fresh.length > 0);
  } else if (message.type === "challengeCanceled") {
    watch.said = t("web.challenge.canceled", { name: nameText(message.challenge.from, message.challenge.from_bot) });
    drawPrompt(false, true);
  } else if (message.type === "paired" && message.tournament) {
    // A tournament's game answers no challenge: those to this player still stand.
    saveToken(message.game, message.token);
    callToGame(message);
  } else if (message.type === "paired") {
    saveToken(message.game, message.token);
    watch.received = [];
    drawPrompt();
    go(`#/game/${message.game}`);
  } else if (message.type === "error") {
    watch.said = t(`web.error.${message.code}`);
    drawPrompt(false, true);
  }
}

// The page lists the challenges itself: the prompt would say them twice.
function pageLists() {
  return Boolean(document.getElementById("challenges-panel"));
}

function prompt() {
  let box = document.getElementById("challenge-prompt");
  if (!box) {
    box = el("section", { id: "challenge-prompt", class: "challenge-prompt", "aria-labelledby": "challenge-prompt-title", hidden: true });
    document.body.append(box);
    // A page drawn later may list the challenges itself, or stop doing so.
    new MutationObserver(() => drawPrompt()).observe(document.getElementById("view"), { childList: true });
  }
  return box;
}

// Drawn again on each change; a new challenge is heard (the title, a sound, the live region).
export function drawPrompt(fresh = false, said = false) {
  const box = prompt();
  const shown = pageLists() ? [] : watch.received;
  const hadFocus = box.contains(document.activeElement);
  box.hidden = shown.length === 0 && !watch.said;
  const live = el("p", { class: "meta", id: "challenge-prompt-live",
    text: shown.length ? `${challengerText(shown[0])}: ${challengeGame(shown[0])}` : watch.said });
  box.replaceChildren(
    el("h2", { id: "challenge-prompt-title", text: t("web.challenge.title_list") }),
    live,
    el("ul", { class: "list" }, shown.map((one) => {
      const reason = reasonChoice(`challenge-prompt-reason-${one.id}`);
      return el("li", { "data-challenge": one.id, class: "received" },
        el("strong", { text: challengerText(one) }),
        el("span", { text: challengeGame(one) }),
        el("div", { class: "buttons" },
          el("button", { type: "button", class: "primary challenge-accept", text: t("web.challenge.accept"),
            onclick: () => send({ type: "accept", challenge: one.id }) }),
          reason,
          el("button", { type: "button", class: "challenge-decline", text: t("web.challenge.decline"),
            onclick: () => send({ type: "decline", challenge: one.id, reason: reason.value }) })));
    })),
    shown.length || !watch.said ? "" : el("button", { type: "button", id: "challenge-prompt-close", text: t("web.close"),
      onclick: () => { watch.said = ""; drawPrompt(); } }));
  if (fresh && shown.length) {
    document.title = t("web.challenge.new_title");
    beep("end");
  }
  if ((fresh && shown.length) || (said && !shown.length)) announce(live.textContent);
  // Answered: the focus goes back to the page rather than to nowhere.
  if (hadFocus && !box.contains(document.activeElement)) {
    const next = box.querySelector("button");
    (next || document.getElementById("view")).focus();
  }
}
