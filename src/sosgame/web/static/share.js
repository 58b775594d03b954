// Sharing an invitation: the system's share sheet where the browser has one (Web Share API),
// else the link copied to the clipboard.
import { el } from "./dom.js";
import { t } from "./i18n.js";

// The link last copied: its button keeps saying so when the page is drawn again.
let copiedUrl = null;

export function shareButton(url, title) {
  const button = el("button", { type: "button", id: "share", class: "primary share", "data-testid": "share",
    text: t(copiedUrl === url ? "web.share_copied" : "web.share"), onclick: () => share(url, title) });
  return el("div", { class: "share-row", id: "share-row" }, button,
    el("span", { class: "meta", text: t("web.share_help") }));
}

// The button on the page now: a state that came while the browser shared or copied may
// have drawn it again.
function shown() {
  return document.getElementById("share");
}

async function share(url, title) {
  if (navigator.share) {
    try {
      await navigator.share({ title, text: title, url });
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return; // the player closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    copiedUrl = url;
    if (shown()) shown().textContent = t("web.share_copied");
  } catch {
    if (shown()) shown().textContent = t("web.share_failed");
  }
}
