// A game's chat: the players' (or, for a spectator, the spectators'), quick phrases for all,
// free text for players with an account. Messages are shown as text, never as HTML; the chat
// can be turned off (kept in this browser) and one person muted.
import { api, el } from "./dom.js";
import { nameText, t } from "./i18n.js";

const PHRASES = ["hello", "good_luck", "good_game", "thanks"];
const MAX_TEXT = 140;

// The chat of the game on screen: its panel (kept across the page's redraws), the log and
// who is muted.
const chat = { game: null, panel: null, log: null, muted: new Set(), send: null, translate: null };

function chatOff() {
  return localStorage.getItem("sos.chat") === "off";
}

// Who is muted in each game, kept in this browser: a reload does not bring them back.
const MUTED = "sos.muted";
const MUTED_GAMES = 50;

function mutedIn(game) {
  try {
    return JSON.parse(localStorage.getItem(MUTED) || "{}")[game] || [];
  } catch {
    return [];
  }
}

function keepMuted() {
  let all;
  try {
    all = JSON.parse(localStorage.getItem(MUTED) || "{}");
  } catch {
    all = {};
  }
  delete all[chat.game];
  all[chat.game] = [...chat.muted];
  // The latest games only: an old game's mutes make room.
  const games = Object.keys(all);
  for (const old of games.slice(0, Math.max(0, games.length - MUTED_GAMES))) delete all[old];
  localStorage.setItem(MUTED, JSON.stringify(all));
}

// A game on screen: its chat (fresh for a new game), sending with `send`; free text only
// for a player with an account. A `player` is told that the players' chat is kept.
export function resetChat(game, send, player) {
  if (chat.game === game && chat.panel) return;
  chat.game = game;
  chat.send = send;
  chat.muted = new Set(mutedIn(game));
  // A live list (a list may not take the role "log"), which the keyboard can scroll.
  chat.log = el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", tabindex: 0,
    "aria-labelledby": "chat-title" });
  const phrases = el("div", { class: "chat-phrases" }, PHRASES.map((phrase) => el("button", {
    type: "button", "data-phrase": phrase, onclick: () => chat.send({ type: "chat", phrase }),
  })));
  const input = el("input", { type: "text", id: "chat-text", maxlength: MAX_TEXT });
  const sendButton = el("button", { type: "submit" });
  const write = el("form", { class: "chat-write", hidden: true }, input, sendButton);
  api("GET", "/api/session").then((session) => { write.hidden = !session.player; }).catch(() => {});
  write.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) chat.send({ type: "chat", text: input.value.trim() });
    input.value = "";
  });
  const toggle = el("button", { type: "button", id: "chat-toggle", "aria-pressed": String(!chatOff()) });
  const kept = player ? el("p", { class: "meta", id: "chat-kept" }) : null;
  const body = el("div", { class: "chat-body" }, chat.log, phrases, write, kept);
  const draw = () => {
    toggle.textContent = chatOff() ? t("web.chat.turn_on") : t("web.chat.turn_off");
    toggle.setAttribute("aria-pressed", String(!chatOff()));
    body.hidden = chatOff();
  };
  toggle.addEventListener("click", () => {
    localStorage.setItem("sos.chat", chatOff() ? "on" : "off");
    draw();
  });
  const title = el("h2", { id: "chat-title" });
  // The panel outlives the page's redraws, so its texts follow a change of language here.
  chat.translate = () => {
    title.textContent = t("web.chat.title");
    for (const button of phrases.children) button.textContent = t(`web.chat.phrase.${button.dataset.phrase}`);
    input.setAttribute("aria-label", t("web.chat.text"));
    sendButton.textContent = t("web.chat.send");
    if (kept) kept.textContent = t("web.chat.kept");
    for (const line of chat.log.children) {
      const phrase = line.dataset.phrase;
      if (phrase) line.querySelector(".chat-said").textContent = t(`web.chat.phrase.${phrase}`);
      line.querySelector(".chat-mute").textContent = t("web.chat.mute", { name: nameText(line.dataset.name, line.dataset.bot) });
    }
    draw();
  };
  chat.translate();
  chat.panel = el("section", { class: "panel chat", id: "chat", "aria-labelledby": "chat-title" }, title, toggle, body);
}

export function chatPanel() {
  if (chat.translate) chat.translate();
  return chat.panel;
}

function who(message) {
  return `${message.seat === null ? "s" : message.seat}:${message.name}`;
}

// `seats`: the game's seats, which say whether a player's seat is a bot's.
export function receiveChat(message, seats = []) {
  if (!chat.log || chatOff() || chat.muted.has(who(message))) return;
  const said = message.phrase ? t(`web.chat.phrase.${message.phrase}`) : message.text;
  const seat = message.seat === null ? null : seats[message.seat];
  const bot = Boolean(message.bot) || Boolean(seat && seat.bot && seat.name === message.name);
  const name = nameText(message.name, bot);
  const mute = el("button", { type: "button", class: "chat-mute", text: t("web.chat.mute", { name }),
    onclick: () => {
      chat.muted.add(who(message));
      keepMuted();
      for (const line of [...chat.log.children]) if (line.dataset.who === who(message)) line.remove();
    } });
  // textContent only: what another player typed is never read as HTML.
  chat.log.append(el("li", { "data-who": who(message), "data-name": message.name, "data-bot": bot ? "true" : null, "data-phrase": message.phrase || null },
    el("strong", { text: name }), ": ", el("span", { class: "chat-said", text: said }), " ", mute));
  while (chat.log.children.length > 100) chat.log.firstChild.remove();
  chat.log.scrollTop = chat.log.scrollHeight;
}
