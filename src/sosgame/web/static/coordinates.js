// The board's coordinates along its edges (column letters above, row numbers at the left, as
// the text forms write a cell: "c3"), on unless the player turned them off in this browser.
// They stick to the edges of a board that is panned.
import { el } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "sos.coordinates";
export const GUTTER = 20; // px: the width of the numbers' column and the height of the letters' row

export function coordinatesOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function coordinateLabels(rows, cols) {
  const letters = el("div", { class: "coord-cols" });
  for (let col = 0; col < cols; col += 1) letters.append(el("span", { text: String.fromCharCode(97 + col) }));
  const numbers = el("div", { class: "coord-rows" });
  for (let row = 0; row < rows; row += 1) numbers.append(el("span", { text: String(row + 1) }));
  return el("div", { class: "coordinates", "data-testid": "coordinates", "aria-hidden": "true", hidden: !coordinatesOn() },
    el("div", { class: "coord-corner" }), letters, numbers);
}

// The switch, beside the zoom buttons; onChange() sizes the board again.
export function coordinatesToggle(onChange) {
  // The button on the page may be an earlier drawing of this one: the event names it.
  const toggle = el("button", { type: "button", id: "coordinates", class: "coordinates-toggle",
    "aria-pressed": String(coordinatesOn()), title: t("web.coordinates"), onclick: (event) => {
      localStorage.setItem(KEY, coordinatesOn() ? "off" : "on");
      event.currentTarget.setAttribute("aria-pressed", String(coordinatesOn()));
      for (const wrap of document.querySelectorAll(".board-wrap")) wrap.classList.toggle("coords", coordinatesOn());
      for (const labels of document.querySelectorAll(".coordinates")) labels.hidden = !coordinatesOn();
      onChange();
    } },
  "a1", el("span", { class: "visually-hidden", text: ` ${t("web.coordinates")}` }));
  return toggle;
}
