// Starting without a network: the service worker keeps the app's files, and a line at the
// top of the page says what needs the connection while it is down.
import { t } from "./i18n.js";

export function drawOffline() {
  const box = document.getElementById("offline");
  if (!box) return;
  box.hidden = navigator.onLine;
  box.textContent = navigator.onLine ? "" : t("web.offline");
}

export function setUpOffline() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  window.addEventListener("online", drawOffline);
  window.addEventListener("offline", drawOffline);
  drawOffline();
}
