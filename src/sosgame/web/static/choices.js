// The home page's first choices: play the computer (a 5x5 general game against the medium
// level, at once), play a friend (the form, set for an online game with an invite link) and
// play online (the quick-pairing pools); and the control that turns play on this device on,
// where "play the computer" goes when the server cannot be reached.
import { api, el, go, saveToken } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { account } from "./players.js";
import { offlineConfig, offlineControl } from "./device.js";
import { startDeviceGame } from "./devicegame.js";

const COMPUTER_GAME = { rows: 5, cols: 5, mode: "general", kind: "local" };
const COMPUTER_LEVEL = "medium";

async function playComputer(error) {
  const me = account.player ? account.player.name : t("player", { number: 1 });
  const seats = [{ name: me }, { name: t(`web.player.${COMPUTER_LEVEL}`), player: COMPUTER_LEVEL }];
  // With no server to reach, the game is played on this device.
  const onDevice = () => startDeviceGame({ rows: COMPUTER_GAME.rows, cols: COMPUTER_GAME.cols, mode: COMPUTER_GAME.mode, seats });
  if (!navigator.onLine && offlineConfig().available) {
    onDevice();
    return;
  }
  try {
    const created = await api("POST", "/api/games", { ...COMPUTER_GAME, seats });
    saveToken(created.id, created.token);
    go(`#/game/${created.id}`);
  } catch (failure) {
    if (failure.code === "offline" && offlineConfig().available) onDevice();
    else error.textContent = errorText(failure.code, failure.message, failure.detail);
  }
}

// The form below, set for two people online: the game's page then gives the invite link.
function playFriend() {
  const kind = document.getElementById("kind");
  const count = document.getElementById("seat-count");
  kind.value = "online";
  kind.dispatchEvent(new Event("change"));
  count.value = "2";
  count.dispatchEvent(new Event("change"));
  document.getElementById("seat-1-player").value = "human";
  document.getElementById("new-game").scrollIntoView({ block: "start" });
  document.getElementById("start").focus();
}

function playOnline() {
  const panel = document.getElementById("play-now");
  panel.scrollIntoView({ block: "start" });
  (panel.querySelector("button.pool:not([disabled])") || panel.querySelector("button")).focus();
}

export function startChoices() {
  const error = el("p", { class: "error", role: "alert" });
  const choice = (id, label, note, action) => el("button", {
    type: "button", class: "choice", id, "data-testid": id, "aria-describedby": `${id}-note`,
    onclick: action,
  }, el("strong", { text: label }), el("span", { class: "meta", id: `${id}-note`, text: note }));
  return el("section", { class: "choices", "aria-labelledby": "choices-title" },
    el("h2", { class: "visually-hidden", id: "choices-title", text: t("web.choice.title") }),
    choice("play-computer", t("web.choice.computer"), t("web.choice.computer_note"), () => playComputer(error)),
    choice("play-friend", t("web.choice.friend"), t("web.choice.friend_note"), playFriend),
    choice("play-online", t("web.choice.online"), t("web.choice.online_note"), playOnline),
    offlineControl(),
    error);
}
