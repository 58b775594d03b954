// Sharing an invitation: the system's share sheet where the browser has one (Web Share API),
// else the link copied to the clipboard.
import { el } from "./dom.js";
import { t } from "./i18n.js";

export function shareButton(url, title) {
  // The button on the page may be an earlier drawing of this one: the event names it.
  const button = el("button", { type: "button", id: "share", class: "primary share", "data-testid": "share",
    text: t("web.share"), onclick: (event) => share(event.currentTarget, url, title) });
  return el("div", { class: "share-row", id: "share-row" }, button,
    el("span", { class: "meta", text: t("web.share_help") }));
}

async function share(button, url, title) {
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
    button.textContent = t("web.share_copied");
  } catch {
    button.textContent = t("web.share_failed");
  }
}
