// Small helpers shared by every page: building the DOM, the board's cell names, the tokens
// this browser holds, the HTTP API, and the router's state.

// The page on screen: how to draw it again (after a language change), and a count of page
// changes, so that a page's late answers find it gone. The entry module sets `route`.
import { t } from "./i18n.js";

export const router = { render: null, visits: 0, route: null };

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) listen(node, name.slice(2), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A node's handlers live on the node, called through one listener per event type, so that
// patching a page in place (`patch`) can give a kept node the handlers of its new drawing.
function listen(node, type, handler) {
  if (!node.handlers) node.handlers = {};
  if (!(type in node.handlers)) {
    node.addEventListener(type, (event) => {
      const current = node.handlers[type];
      if (current) current(event);
    });
  }
  node.handlers[type] = handler;
}

// Redraw only what changed: make the children of the live `parent` those of a fresh drawing
// (`wanted`), keeping every node that is still there (with its focus, scroll and layout) and
// changing only its attributes, texts and handlers. Nodes match by type, tag and id.
export function patchChildren(parent, wanted) {
  const next = wanted.filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
  next.forEach((child, index) => {
    const current = parent.childNodes[index];
    if (!current) parent.append(child);
    else if (current === child) return;
    else if (sameKind(current, child)) patch(current, child);
    else parent.insertBefore(child, current);
  });
  while (parent.childNodes.length > next.length) parent.lastChild.remove();
}

function sameKind(current, child) {
  if (current.nodeType !== child.nodeType || current.nodeName !== child.nodeName) return false;
  return current.nodeType !== Node.ELEMENT_NODE || current.id === child.id;
}

function patch(target, source) {
  if (target.nodeType !== Node.ELEMENT_NODE) {
    if (target.nodeValue !== source.nodeValue) target.nodeValue = source.nodeValue;
    return;
  }
  // Most of a redraw is the same as before: the browser compares that quickly, and then only
  // the handlers (which may hold the newest state) are handed over.
  if (target.isEqualNode(source)) {
    takeHandlers(target, source);
    return;
  }
  for (const { name } of [...target.attributes]) if (!source.hasAttribute(name)) target.removeAttribute(name);
  for (const { name, value } of source.attributes) if (target.getAttribute(name) !== value) target.setAttribute(name, value);
  handOver(target, source);
  patchChildren(target, [...source.childNodes]);
}

function handOver(target, source) {
  const handlers = source.handlers || {};
  for (const type of Object.keys(target.handlers || {})) if (!(type in handlers)) target.handlers[type] = null;
  for (const [type, handler] of Object.entries(handlers)) listen(target, type, handler);
}

// The handlers of two equal trees: from the new drawing to the kept nodes.
function takeHandlers(target, source) {
  if (target.handlers || source.handlers) handOver(target, source);
  let kept = target.firstElementChild;
  for (let drawn = source.firstElementChild; drawn; drawn = drawn.nextElementSibling) {
    takeHandlers(kept, drawn);
    kept = kept.nextElementSibling;
  }
}

export function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

// A text in an SVG drawing, at (x, y).
export function svgText(x, y, text, attrs = {}) {
  const node = svg("text", { x, y, ...attrs });
  node.textContent = text;
  return node;
}

export function cellName(row, col) {
  return String.fromCharCode(97 + col) + String(row + 1);
}

export function parseCell(text) {
  return { row: Number(text.slice(1)) - 1, col: text.charCodeAt(0) - 97 };
}

function tokens() {
  try {
    return JSON.parse(localStorage.getItem("sos.tokens") || "{}");
  } catch {
    return {};
  }
}

// Every token this browser holds for a game: one per seat taken here (an older single
// token is read as a list of one).
export function tokensFor(game) {
  const held = tokens()[game];
  if (!held) return [];
  return Array.isArray(held) ? held : [held];
}

// Every seat token this browser holds, of every game.
export function allTokens() {
  return Object.values(tokens()).flat();
}

// A seek's seat token is kept under "seek:" and the seek's id until its game is known.
const SEEK = "seek:";

export function saveToken(game, token) {
  const all = tokens();
  const held = tokensFor(game);
  if (!held.includes(token)) held.push(token);
  all[game] = held;
  if (!game.startsWith(SEEK)) {
    for (const [key, kept] of Object.entries(all)) {
      if (key.startsWith(SEEK) && [kept].flat().includes(token)) delete all[key];
    }
  }
  localStorage.setItem("sos.tokens", JSON.stringify(all));
}

// The seat token of a seek this browser made or joined: the game it makes is learnt from
// `paired` or, if the page was gone by then, from "My games" (which then saves it by game).
export function saveSeekToken(seek, token) {
  saveToken(SEEK + seek, token);
}

export async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    // No answer at all (no network, or the server is down): the browser's own words for it
    // are in its language, not the page's, so the page says it with the code "offline".
    const error = new Error("offline");
    error.code = "offline";
    throw error;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error((data.error && data.error.message) || response.statusText);
    error.code = data.error && data.error.code;
    error.detail = data.error && data.error.detail;
    throw error;
  }
  return data;
}

export function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

export function view() {
  return document.getElementById("view");
}

// Time left as a clock shows it: m:ss, h:mm:ss under a day, days and h:mm beyond.
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const seconds = String(total % 60).padStart(2, "0");
  if (total >= 86400) {
    // A correspondence game's days per move: days and hours left, then minutes.
    const days = Math.floor(total / 86400);
    const hours = Math.floor((total % 86400) / 3600);
    const minutes = String(Math.floor((total % 3600) / 60)).padStart(2, "0");
    return t("web.time_left_days", { days, time: `${hours}:${minutes}` });
  }
  if (total >= 3600) {
    // Under a day: hours, minutes and seconds, as a long clock shows them.
    const minutes = String(Math.floor((total % 3600) / 60)).padStart(2, "0");
    return `${Math.floor(total / 3600)}:${minutes}:${seconds}`;
  }
  return `${Math.floor(total / 60)}:${seconds}`;
}

export function go(hash) {
  if (location.hash === hash) router.route();
  else location.hash = hash;
}
