// Light or dark colours: the system's choice, until the player flips the header's switch
// (kept in this browser).
import { t } from "./i18n.js";

const KEY = "sos.theme";
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

function dark() {
  const chosen = localStorage.getItem(KEY);
  return chosen ? chosen === "dark" : systemDark.matches;
}

export function drawTheme() {
  document.documentElement.dataset.theme = dark() ? "dark" : "light";
  const toggle = document.getElementById("theme");
  if (!toggle) return;
  toggle.setAttribute("aria-pressed", String(dark()));
  toggle.textContent = t("web.dark_mode");
}

export function setUpTheme() {
  drawTheme();
  systemDark.addEventListener("change", drawTheme);
  document.getElementById("theme").addEventListener("click", () => {
    localStorage.setItem(KEY, dark() ? "light" : "dark");
    drawTheme();
  });
}
