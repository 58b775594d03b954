// A tournament's game on the game page: the line naming its tournament and what a win is
// worth now to this browser's player, the Berserk button, and the way back once it is over.
// The tournament (GET /api/tournaments/{id}) is read when the page opens and again when the
// game ends, to show the new score.
import { api, el } from "./dom.js";
import { t } from "./i18n.js";
import { allows } from "./fairplay.js";

// The tournament of the game on screen, as last read: {game, over, data}.
const cup = { game: null, over: false, data: null };

// Reads the tournament once for a game, and once more when it ends; ``redraw`` when it comes.
export function followTournament(state, redraw) {
  if (!state.tournament) return;
  const over = Boolean(state.result);
  if (cup.game === state.id && (cup.over || !over)) return;
  cup.game = state.id;
  cup.over = over;
  if (!cup.data || cup.data.id !== state.tournament.id) cup.data = null;
  api("GET", `/api/tournaments/${encodeURIComponent(state.tournament.id)}`).then((data) => {
    if (cup.game !== state.id) return;
    cup.data = data;
    redraw();
  }).catch(() => {});
}

export function forgetTournament() {
  cup.game = null;
  cup.over = false;
  cup.data = null;
}

function standingOf(name) {
  const lines = (cup.data && cup.data.standings) || [];
  return lines.find((line) => line.name === name) || null;
}

function worthText(state, seat) {
  const data = cup.data;
  if (!data) return "";
  if (data.kind === "swiss") return t("web.in_tournament.swiss_win");
  const name = state.seats[seat].name;
  const line = standingOf(name);
  if (!line) return "";
  const fire = Boolean(line.fire);
  // What a win is worth, and how long a berserk game must last, as the server counts them.
  const parts = [t("web.in_tournament.arena_win", { count: line.win })];
  if (fire) parts.push(t("web.in_tournament.on_fire"));
  // The berserk point: for a seat that went berserk, or may still (the state's allowed says).
  const went = Boolean(state.clock && Array.isArray(state.clock.berserk) && state.clock.berserk.includes(seat));
  if (went) parts.push(t("web.in_tournament.berserk_went", { count: data.berserk_plies }));
  else if (allows(state, [seat], "can_berserk")) parts.push(t("web.in_tournament.berserk_if", { count: data.berserk_plies }));
  return parts.join(" ");
}

function scoreText(state, seat) {
  const line = standingOf(state.seats[seat].name);
  if (!line || !cup.data) return "";
  return t("web.in_tournament.score", { score: line.score, rank: line.rank, players: cup.data.standings.length });
}

// The line under the game's title: the tournament's name (a link to it), then, for a player,
// what a win is worth now, or, once the game is over, their score and the way back.
export function tournamentLine(state, seats, send) {
  const tournament = state.tournament;
  if (!tournament) return null;
  const link = `#/tournament/${encodeURIComponent(tournament.id)}`;
  const seat = seats.length ? seats[0] : null;
  const over = Boolean(state.result);
  const said = seat === null ? "" : (over ? scoreText(state, seat) : worthText(state, seat));
  return el("div", { class: `tournament-line${over ? " over" : ""}`, id: "tournament-line", "data-testid": "tournament-line" },
    el("a", { href: link, id: "tournament-link", text: t("web.in_tournament.name", { name: tournament.name }) }),
    said ? el("span", { class: "meta", id: "tournament-worth", text: said }) : null,
    berserkButton(state, seats, send),
    over ? el("a", { href: link, id: "tournament-back", text: t("web.in_tournament.back") }) : null);
}

// Berserk, for a seat of this browser's that may still go berserk (the state's allowed says).
function berserkButton(state, seats, send) {
  const seat = seats.find((one) => allows(state, [one], "can_berserk"));
  if (seat === undefined) return null;
  return el("button", { type: "button", id: "berserk", class: "berserk", title: t("web.in_tournament.berserk_note"),
    text: t("web.in_tournament.berserk"), onclick: () => send({ type: "berserk", ply: state.ply }) });
}
