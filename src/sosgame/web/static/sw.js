// The service worker: keeps the app's own files (the page, its scripts, styles, icons, texts
// and settings) so that the app starts without a network. Each is fetched from the network
// first and the kept copy answers only when the network does not; games, lists and the
// analysis are never kept: they need the server. With no network, it answers the server's
// other questions itself ("offline"), so that no request leaves the page.
// Play on this device: Pyodide's files and the engine's wheel are kept in a cache of their
// own once fetched (the page fetches them when the player turns offline play on); their
// paths name their versions, so a kept file answers at once and never goes out of date.
const CACHE = "sos-app-v5";
const ENGINE_CACHE = "sos-engine";
const APP_FILES = [
  "/",
  "/manifest.json",
  "/api/i18n",
  "/api/config",
  "/static/style.css",
  "/static/app.js",
  "/static/analysis.js",
  "/static/announcer.js",
  "/static/board.js",
  "/static/choices.js",
  "/static/challenges.js",
  "/static/chat.js",
  "/static/coordinates.js",
  "/static/device.js",
  "/static/devicegame.js",
  "/static/devicelist.js",
  "/static/devicestore.js",
  "/static/dom.js",
  "/static/engine-worker.js",
  "/static/fairplay.js",
  "/static/game.js",
  "/static/gametournament.js",
  "/static/i18n.js",
  "/static/lobby.js",
  "/static/mygames.js",
  "/static/offline.js",
  "/static/players.js",
  "/static/puzzles.js",
  "/static/replay.js",
  "/static/seatbar.js",
  "/static/share.js",
  "/static/sound.js",
  "/static/steady.js",
  "/static/theme.js",
  "/static/tournament.js",
  "/static/tournamentcall.js",
  "/static/tournamentform.js",
  "/static/tournaments.js",
  "/static/favicon.svg",
  "/static/icon-192.png",
  "/static/icon-512.png",
];

self.addEventListener("install", (event) => {
  // A file that fails to load leaves the others kept: the app still starts offline.
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(
    APP_FILES.map((path) => cache.add(path).catch(() => undefined)))).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE && name !== ENGINE_CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

function kept(url) {
  return url.origin === self.location.origin && APP_FILES.includes(url.pathname);
}

function engineFile(request, url) {
  return caches.open(ENGINE_CACHE).then((cache) => cache.match(url.pathname).then((found) => found
    || fetch(request).then((response) => {
      if (response.ok) cache.put(url.pathname, response.clone());
      return response;
    })));
}

function offlineAnswer() {
  const error = { error: { code: "offline", message: "offline" } };
  return new Response(JSON.stringify(error), { status: 503, headers: { "content-type": "application/json" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/offline/")) {
    event.respondWith(engineFile(request, url));
    return;
  }
  const page = request.mode === "navigate" && url.pathname === "/";
  if (!page && !kept(url)) {
    if (url.pathname.startsWith("/api/")) event.respondWith(fetch(request).catch(offlineAnswer));
    return;
  }
  const key = page ? "/" : url.pathname;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  }).catch(() => caches.match(key).then((found) => found || Response.error())));
});
