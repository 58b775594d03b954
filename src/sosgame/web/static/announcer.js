// The one live region (in the page itself, never redrawn) that tells a screen reader what
// happens in a game: every move as it is made, whose turn it is, and the result.
import { resultText, seatName, t } from "./i18n.js";

export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region || !text) return;
  // The same words again (two quiet moves alike) are still a change, so they are read.
  region.textContent = region.textContent === text ? `${text}\u00a0` : text;
}

// Whose turn it is, or the result.
export function turnText(state, mine = []) {
  if (state.result) return resultText(state.result, state.seats, mine);
  if (state.status === "open") return t("web.waiting");
  if (mine.includes(state.turn)) return state.extra_turn ? t("web.your_turn_again") : t("web.your_turn");
  const name = seatName(state.seats[state.turn]);
  return state.extra_turn ? t("to_move_again", { name }) : t("to_move", { name });
}

// What changed from the state before to this one, in words: the move just made (with its
// points and who moves next), a move taken back, or (on a first look) whose turn it is.
// The seats in `mine` (this browser's player) are "you".
export function announcement(before, state, mine = []) {
  const next = turnText(state, mine);
  if (!before || before.id !== state.id) return next;
  // No move, yet the game may have changed: every seat taken (it starts), or a result
  // without a move (an abort, a claim).
  if (state.ply === before.ply) return next === turnText(before, mine) ? "" : next;
  if (state.ply < before.ply) return t("web.announce_undo", { next });
  if (state.ply !== before.ply + 1) return next;
  const action = state.actions[state.actions.length - 1];
  if (action.startsWith("resign")) {
    const seat = Number(action.split(":")[1]);
    const resigned = mine.includes(seat) ? t("web.announce_you_resign") : t("web.announce_resign", { name: seatName(state.seats[seat]) });
    return t("web.announce_then", { move: resigned, next });
  }
  const mover = before.turn;
  const name = seatName(state.seats[mover]);
  const mineMoved = mine.includes(mover);
  const words = { name, letter: action[0], cell: action.slice(1) };
  let move = mineMoved ? t("web.announce_you_move", words) : t("web.announce_move", words);
  const points = state.scores[mover] - before.scores[mover];
  if (points > 0) move = t("web.announce_points", { move, count: points });
  if (!state.result && state.turn === mover && state.extra_turn) {
    return mineMoved ? t("web.announce_you_again", { move }) : t("web.announce_again", { move, name });
  }
  return t("web.announce_then", { move, next });
}
