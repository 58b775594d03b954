// Play on this device: the engine runs in a Web Worker (engine-worker.js, Pyodide and the
// engine's wheel, both served by the app), and the offline-play control downloads them once,
// with its progress shown, into the cache the service worker answers from. Nothing of it is
// fetched before the player turns offline play on or starts a game on this device.
import { el } from "./dom.js";
import { settings, t } from "./i18n.js";

const READY_KEY = "sos.offline";
// The cache of the versioned files (sw.js answers from it): a path names its version.
const ENGINE_CACHE = "sos-engine";

export function offlineConfig() {
  return settings.config.offline || { available: false, levels: [] };
}

// The files of this version as one key: offline play is ready once they were kept for it.
function filesKey() {
  return (offlineConfig().files || []).map((file) => file.url).join(" ");
}

export function offlineReady() {
  return offlineConfig().available && localStorage.getItem(READY_KEY) === filesKey();
}

export function levelsText() {
  const names = offlineConfig().levels.map((level) => t(`web.device.level.${level}`));
  return t("web.device.levels", { levels: names.join(", ") });
}

// ------------------------------------------------------------------------------ the worker

const engine = { worker: null, booting: null, next: 1, waiting: new Map() };

function call(op, args) {
  return new Promise((resolve, reject) => {
    const id = engine.next;
    engine.next += 1;
    engine.waiting.set(id, { resolve, reject });
    engine.worker.postMessage({ id, op, args });
  });
}

function startEngine() {
  if (!engine.booting) {
    const config = offlineConfig();
    engine.worker = new Worker("/static/engine-worker.js", { type: "module" });
    engine.worker.addEventListener("message", (event) => {
      const { id, ok, value, error } = event.data;
      const waiting = engine.waiting.get(id);
      engine.waiting.delete(id);
      if (ok) waiting.resolve(value);
      else waiting.reject(new Error(error));
    });
    engine.booting = call("boot", { pyodide: config.pyodide, engine: config.engine }).catch((error) => {
      engine.worker.terminate();
      engine.booting = null;
      throw error;
    });
  }
  return engine.booting;
}

// One call on the engine: "start", "resume", "act" or "state" (see sosgame.ai.device), or
// "run" (Python code, for the tests and the benchmark).
export async function engineCall(op, args) {
  await startEngine();
  return call(op, args);
}

// ------------------------------------------------------------------------- turning it on

async function download(progress) {
  const files = offlineConfig().files;
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  const cache = await caches.open(ENGINE_CACHE);
  let done = 0;
  for (const file of files) {
    const found = await cache.match(file.url);
    const response = found || await fetch(file.url);
    if (!response.ok) throw new Error(`${file.url}: ${response.status}`);
    // Kept here as well as by the service worker, which may not control the page yet.
    if (!found) await cache.put(file.url, response.clone());
    const reader = response.body.getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      done += value.length;
      progress(done, total);
    }
  }
  // A new version's files replace the old ones.
  const wanted = new Set(files.map((file) => file.url));
  for (const request of await cache.keys()) {
    if (!wanted.has(new URL(request.url).pathname)) await cache.delete(request);
  }
}

// The download's state, and the drawings of the controls that show it: a download started
// by one (or by installing the app, or by a first game on this device) shows in every one.
const control = { busy: false, draws: new Set() };

function redraw() {
  for (const draw of control.draws) {
    if (draw.box.isConnected) draw();
    else control.draws.delete(draw);
  }
}

// Downloads the files, starts the engine once to be sure it runs, then says it is ready.
export async function turnOnOffline() {
  if (control.busy || offlineReady()) return;
  control.busy = true;
  control.error = "";
  try {
    await download((done, total) => {
      control.progress = { done, total };
      redraw();
    });
    control.progress = null;
    control.starting = true;
    redraw();
    await startEngine();
    localStorage.setItem(READY_KEY, filesKey());
  } catch (error) {
    control.error = t("web.device.failed", { message: error.message });
  } finally {
    control.busy = false;
    control.starting = false;
    control.progress = null;
    redraw();
  }
}

function megabytes(bytes) {
  return new Intl.NumberFormat(settings.lang, { maximumFractionDigits: 1 }).format(bytes / 1e6);
}

// The control that turns offline play on (the home page's): what it would download, its
// progress, and then that offline play is ready, with the levels it offers.
export function offlineControl() {
  const box = el("div", { class: "offline-play", id: "offline-play-box" });
  const draw = () => {
    const config = offlineConfig();
    const size = (config.files || []).reduce((sum, file) => sum + file.bytes, 0);
    let text;
    if (!config.available) text = t("web.device.not_installed");
    else if (offlineReady()) text = t("web.device.ready");
    else if (control.progress) {
      text = t("web.device.downloading", { percent: Math.floor((100 * control.progress.done) / control.progress.total) });
    } else if (control.starting) text = t("web.device.starting");
    else text = t("web.device.turn_on", { size: megabytes(size) });
    const button = el("button", {
      type: "button", class: "choice", id: "offline-play", "data-testid": "offline-play",
      "data-state": !config.available ? "missing" : offlineReady() ? "ready" : control.busy ? "busy" : "off",
      disabled: !config.available || offlineReady() || control.busy,
      "aria-describedby": "offline-play-note offline-play-compare", onclick: () => turnOnOffline(),
    }, el("strong", { text }), el("span", { class: "meta", id: "offline-play-note", text: levelsText() }));
    // How the levels here compare with the server's (measured by benchmarks/offline_strength.py).
    const compare = el("p", { class: "meta", id: "offline-play-compare", text: t("web.device.compare") });
    const bar = control.progress
      ? el("progress", { max: control.progress.total, value: control.progress.done, "aria-label": text })
      : null;
    box.replaceChildren(button, compare, bar, control.error ? el("p", { class: "error", role: "alert", text: control.error }) : null);
  };
  draw.box = box;
  control.draws.add(draw);
  draw();
  return box;
}

// An installed app plays offline: installing it turns offline play on.
export function setUpDevice() {
  window.addEventListener("appinstalled", () => {
    if (offlineConfig().available) turnOnOffline();
  });
}
