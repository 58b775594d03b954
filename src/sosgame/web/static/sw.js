// The service worker: keeps the app's own files (the page, its scripts, styles, icons, texts
// and settings) so that the app starts without a network. Each is fetched from the network
// first and the kept copy answers only when the network does not; games, lists and the
// analysis are never kept: they need the server.
const CACHE = "sos-app-v4";
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
  "/static/dom.js",
  "/static/fairplay.js",
  "/static/game.js",
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
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

function kept(url) {
  return url.origin === self.location.origin && APP_FILES.includes(url.pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const page = request.mode === "navigate" && url.pathname === "/";
  if (!page && !kept(url)) return;
  const key = page ? "/" : url.pathname;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  }).catch(() => caches.match(key).then((found) => found || Response.error())));
});
