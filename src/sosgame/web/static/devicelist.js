// "My games" of this device: the games played here (devicestore.js), each with its state and
// a link that plays it on.
import { el } from "./dom.js";
import { resultText, t } from "./i18n.js";
import { deviceGames } from "./devicestore.js";

function gameItem(game) {
  const { summary } = game;
  const title = `${summary.rows}x${summary.cols} ${t(`mode.${summary.mode}`)}: ${summary.seats.map((seat) => seat.name).join(", ")}`;
  return el("li", { class: "mine", "data-game": game.id, "data-status": summary.status },
    el("a", { href: `#/device/${game.id}`, text: title }),
    el("span", { class: "meta", text: summary.result ? resultText(summary.result, summary.seats) : t("web.device.unfinished") }),
    el("time", { class: "meta", datetime: new Date(game.updated).toISOString(),
      text: new Date(game.updated).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" }) }));
}

// The list, filled once IndexedDB answers; nothing is shown while this device kept no game.
export function deviceGamesList() {
  const box = el("div", { id: "device-games-box", hidden: true });
  const list = el("ul", { class: "list", id: "device-games", "data-testid": "device-games" });
  deviceGames().then((games) => {
    if (!games.length) return;
    list.replaceChildren(...games.map(gameItem));
    box.replaceChildren(el("h3", { text: t("web.device.my_games") }), list);
    box.hidden = false;
  }).catch(() => {});
  return box;
}
