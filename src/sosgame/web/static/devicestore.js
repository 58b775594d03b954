// The games played on this device, kept in IndexedDB: finished and unfinished, each as what
// the engine needs to play it on after a reload (its record, what undo took back) and what
// "My games" shows of it. Nothing here knows the rules.
const DATABASE = "sos-device";
const STORE = "games";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function inStore(mode, work) {
  const database = await open();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = database.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  } finally {
    database.close();
  }
}

export function newGameId() {
  return `d${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

// {id, saved, summary: {rows, cols, mode, players, status, result}, updated, uploaded}
export function keepGame(game) {
  return inStore("readwrite", (store) => store.put({ ...game, updated: Date.now() }));
}

export function loadGame(id) {
  return inStore("readonly", (store) => store.get(id));
}

export async function deviceGames() {
  const games = await inStore("readonly", (store) => store.getAll());
  return games.sort((a, b) => b.updated - a.updated);
}
