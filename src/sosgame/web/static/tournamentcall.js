// A tournament's new game, told on a lobby socket (`paired` with `tournament`): a short
// countdown first, so that the player is not taken from what they were doing without a word,
// then the board. Both lobby sockets of a page hear it, and a socket greeted anew hears it
// again while the game goes on: each game is called once a page.
import { api, el, go } from "./dom.js";
import { t } from "./i18n.js";
import { beep } from "./sound.js";

const COUNT_FROM = 3;
const called = new Set();
const call = { game: null, name: "", count: 0, timer: 0 };

export function callToGame(message) {
  if (called.has(message.game)) return;
  called.add(message.game);
  // Already on its board (a page opened anew there): nothing to call.
  if (location.hash === `#/game/${message.game}`) return;
  clearInterval(call.timer);
  Object.assign(call, { game: message.game, name: "", count: COUNT_FROM });
  api("GET", `/api/tournaments/${encodeURIComponent(message.tournament)}`).then((found) => {
    if (call.game !== message.game) return;
    call.name = found.name;
    draw();
  }).catch(() => {});
  draw();
  document.getElementById("tournament-call-go").focus();
  beep("end");
  call.timer = setInterval(() => {
    call.count -= 1;
    if (call.count <= 0) goNow();
    else draw();
  }, 1000);
}

function goNow() {
  clearInterval(call.timer);
  const box = document.getElementById("tournament-call");
  if (box) box.remove();
  const game = call.game;
  call.game = null;
  if (game) go(`#/game/${game}`);
}

function draw() {
  let box = document.getElementById("tournament-call");
  const text = call.name ? t("web.tournament.call", { name: call.name, count: call.count })
    : t("web.tournament.call_unnamed", { count: call.count });
  if (!box) {
    box = el("section", { id: "tournament-call", class: "tournament-call", role: "dialog",
      "aria-labelledby": "tournament-call-title", "aria-describedby": "tournament-call-text" },
    el("h2", { id: "tournament-call-title", text: t("web.tournament.call_title") }),
    el("p", { id: "tournament-call-text", "aria-live": "assertive", "aria-atomic": "true" }),
    el("button", { type: "button", class: "primary", id: "tournament-call-go", text: t("web.tournament.go_now"), onclick: goNow }));
    document.body.append(box);
  }
  box.querySelector("#tournament-call-text").textContent = text;
}
