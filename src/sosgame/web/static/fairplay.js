// Fair play on the game page: the offers standing (draw, takeback, rematch) with their
// answers, the abort button, the first-move and absence countdowns, the claims, and a
// screen-reader announcement whenever any of these changes.
import { announce } from "./announcer.js";
import { el, formatClock } from "./dom.js";
import { seatName, t } from "./i18n.js";

// What this page keeps between states: the countdowns ticking, the last announcement and
// the offers last seen (to say when one is gone).
const fair = { timer: null, ticking: [], announced: "", offers: null };


export function forgetFair() {
  clearInterval(fair.timer);
  fair.ticking = [];
  fair.announced = "";
  fair.offers = null;
}

function names(state, seats) {
  return seats.map((seat) => seatName(state.seats[seat])).join(", ");
}

// Whether any of ``seats`` may do what ``flag`` (and ``kind``, for offers and claims) names:
// the server says so in the state's ``allowed``, one entry per seat, from the rules it
// applies when the action arrives.
export function allows(state, seats, flag, kind) {
  return seats.some((seat) => {
    const value = ((state.allowed || [])[seat] || {})[flag];
    return Boolean(kind === undefined ? value : value && value[kind]);
  });
}

// A line counting down ``ms`` from when the state arrived (``state.receivedAt``).
function countdown(state, id, key, values, ms, onZero) {
  const node = el("p", { class: "meta countdown", id });
  fair.ticking.push({ node, key, values, ends: (state.receivedAt || performance.now()) + ms, onZero });
  return node;
}

function tick() {
  const now = performance.now();
  for (const item of fair.ticking) {
    const left = Math.max(0, item.ends - now);
    // A long wait (a correspondence game's first move) reads as days and hours, not seconds.
    item.node.textContent = t(item.key, { ...item.values, seconds: Math.ceil(left / 1000), time: formatClock(left) });
    if (left === 0 && item.onZero) {
      const again = item.onZero;
      item.onZero = null;
      again();
    }
  }
}

// The panel, for players and spectators alike; ``mine`` are the seats this browser holds,
// ``send`` sends a message, ``redraw`` draws the page again (a claim becomes possible).
export function fairPanel(state, { mine, send, redraw }) {
  clearInterval(fair.timer);
  fair.ticking = [];
  const over = Boolean(state.result);
  const lines = [];
  const spoken = [];
  const buttons = el("div", { class: "fair-controls" });
  const button = (id, label, action, enabled = true) => buttons.append(
    el("button", { type: "button", id, text: label, disabled: !enabled, onclick: action }));

  for (const offer of state.offers) {
    const who = seatName(state.seats[offer.from]);
    const text = t(`web.offer.${offer.offer}`, { name: who });
    const waiting = offer.waiting || [];
    const row = el("div", { class: "offer", "data-offer": offer.offer, id: `offer-${offer.offer}-standing` },
      el("p", { text }),
      waiting.length ? el("p", { class: "meta", text: t("web.offer_waiting", { names: names(state, waiting) }) }) : null);
    if (offer.offer === "rematch" && offer.lapses !== undefined) {
      row.append(countdown(state, `lapse-${offer.offer}`, "web.offer_lapses", {}, offer.lapses, redraw));
    }
    const answer = (accept) => send({ type: "answer", offer: offer.offer, accept, ...(offer.offer === "rematch" ? {} : { ply: state.ply }) });
    if (allows(state, mine, "can_answer", offer.offer)) {
      row.append(
        el("button", { type: "button", id: `accept-${offer.offer}`, text: t("web.accept"), onclick: () => answer(true) }),
        el("button", { type: "button", id: `decline-${offer.offer}`, text: t("web.decline"), onclick: () => answer(false) }));
    }
    if (allows(state, mine, "can_withdraw", offer.offer)) {
      row.append(el("button", { type: "button", id: `withdraw-${offer.offer}`, text: t("web.withdraw"),
        onclick: () => send({ type: "withdraw", offer: offer.offer, ...(offer.offer === "rematch" ? {} : { ply: state.ply }) }) }));
    }
    lines.push(row);
    spoken.push(text);
  }

  // A standing offer shows its own answers: the same offer again would only accept it.
  const offerable = (kind) => allows(state, mine, "can_offer", kind)
    && !state.offers.some((offer) => offer.offer === kind);
  if (offerable("draw")) {
    button("offer-draw", t("web.offer_draw"), () => send({ type: "offer", offer: "draw", ply: state.ply }));
  }
  if (offerable("takeback")) {
    button("offer-takeback", t("web.offer_takeback"), () => send({ type: "offer", offer: "takeback", ply: state.ply }));
  }
  if (offerable("rematch")) {
    // Over the WebSocket: it holds every seat this browser plays.
    button("rematch", t("web.offer_rematch"), () => send({ type: "offer", offer: "rematch" }));
  }
  if (allows(state, mine, "can_abort")) {
    lines.push(el("p", { class: "meta", text: t("web.can_abort") }));
    button("abort", t("web.abort"), () => {
      if (confirm(t("web.abort_confirm"))) send({ type: "abort", ply: state.ply });
    });
  }
  if (state.first_move) {
    const name = seatName(state.seats[state.first_move.seat]);
    lines.push(countdown(state, "first-move", "web.first_move", { name }, state.first_move.left));
  }
  if (state.abandon) {
    const elapsed = performance.now() - (state.receivedAt || performance.now());
    state.abandon.away.forEach((since, seat) => {
      if (since === null || mine.includes(seat)) return;
      const name = seatName(state.seats[seat]);
      const away = since + elapsed;
      const left = state.abandon.after - away;
      if (left <= 0) {
        lines.push(el("p", { id: `away-${seat}`, text: t("web.away_claimable", { name, seconds: Math.round(away / 1000) }) }));
        spoken.push(t("web.away_claimable", { name, seconds: Math.round(away / 1000) }));
      } else {
        lines.push(countdown(state, `away-${seat}`, "web.away", { name }, state.abandon.after - since, redraw));
      }
    });
    if (allows(state, mine, "can_claim", "win")) {
      const present = state.abandon.away.filter((since, seat) => since === null && !state.seats[seat].resigned).length;
      button("claim-win", present > 1 ? t("web.claim_remove") : t("web.claim_win"),
        () => send({ type: "claim", claim: "win", ply: state.ply }));
    }
    if (allows(state, mine, "can_claim", "draw")) {
      button("claim-draw", t("web.claim_draw"), () => send({ type: "claim", claim: "draw", ply: state.ply }));
    }
    // A player back in time is told how long they were away, and how long they could be.
    const back = mine.map((seat) => (state.abandon.back || [])[seat]).find((ms) => typeof ms === "number");
    if (back !== undefined) {
      const values = { seconds: Math.round(back / 1000), limit: Math.round(state.abandon.after / 1000) };
      lines.push(el("p", { id: "you-were-away", text: t("web.you_were_away", values) }));
      spoken.push(t("web.you_were_away", values));
    }
  }

  // An offer gone while the game goes on was declined, withdrawn or lapsed: say so.
  const kinds = new Set(state.offers.map((offer) => offer.offer));
  if (fair.offers && fair.offers.id === state.id && fair.offers.ply === state.ply) {
    for (const kind of fair.offers.kinds) {
      // An accepted offer ends the game (a draw) or makes the rematch: not gone.
      if (kinds.has(kind) || (over && (kind !== "rematch" || state.rematch))) continue;
      const gone = t("web.offer_gone", { offer: t(`web.offer_kind.${kind}`) });
      lines.push(el("p", { class: "meta", id: `offer-${kind}-gone`, text: gone }));
      spoken.push(gone);
    }
  }
  if (!fair.offers || fair.offers.id !== state.id || fair.offers.ply !== state.ply || kinds.size) {
    fair.offers = { id: state.id, ply: state.ply, kinds };
  }
  const said = spoken.join(" ");
  if (said !== fair.announced) {
    fair.announced = said;
    announce(said);  // through the page's one live region, heard once
  }
  if (fair.ticking.length) {
    tick();
    fair.timer = setInterval(tick, 500);
  }
  if (!lines.length && !buttons.childElementCount) return null;
  return el("section", { class: "panel fair", id: "fair-play", "data-testid": "fair-play", "aria-labelledby": "fair-title" },
    el("h2", { id: "fair-title", text: t("web.fair_play") }), ...lines, buttons);
}

// On a phone the panel is far below the board: what needs this player now (an offer to
// answer, a claim they may make, the first-move or absence countdown) is also shown in a bar
// fixed at the bottom of the screen, answerable there. It is drawn after the panel, whose
// announcement already told screen readers, so the bar says nothing to them again.
export function fairBar(state, { mine, send }) {
  if (state.result || !mine.length) return null;
  const bar = (text, ...buttons) => el("div", { class: "fair-bar", id: "fair-bar", "data-testid": "fair-bar" },
    text, buttons.length ? el("div", { class: "fair-bar-buttons" }, ...buttons) : null);
  const offer = state.offers.find((item) => item.offer !== "rematch" && allows(state, mine, "can_answer", item.offer));
  if (offer) {
    const answer = (accept) => () => send({ type: "answer", offer: offer.offer, accept, ply: state.ply });
    return bar(el("p", { text: t(`web.offer.${offer.offer}`, { name: seatName(state.seats[offer.from]) }) }),
      el("button", { type: "button", id: `bar-accept-${offer.offer}`, text: t("web.accept"), onclick: answer(true) }),
      el("button", { type: "button", id: `bar-decline-${offer.offer}`, text: t("web.decline"), onclick: answer(false) }));
  }
  if (state.abandon && allows(state, mine, "can_claim", "win")) {
    const seat = state.abandon.away.findIndex((since, index) => since !== null && !mine.includes(index));
    const text = seat >= 0 ? t("web.away_claimable", { name: seatName(state.seats[seat]),
      seconds: Math.round(state.abandon.away[seat] / 1000) }) : t("web.claim_win");
    return bar(el("p", { text }), el("button", { type: "button", id: "bar-claim-win", text: t("web.claim_win"),
      onclick: () => send({ type: "claim", claim: "win", ply: state.ply }) }));
  }
  if (state.first_move) {
    const name = seatName(state.seats[state.first_move.seat]);
    const node = countdown(state, "bar-first-move", "web.first_move", { name }, state.first_move.left);
    tick();
    return bar(node);
  }
  if (state.abandon) {
    const seat = state.abandon.away.findIndex((since, index) => since !== null && !mine.includes(index));
    if (seat >= 0) {
      const since = state.abandon.away[seat];
      const node = countdown(state, "bar-away", "web.away", { name: seatName(state.seats[seat]) }, state.abandon.after - since);
      tick();
      return bar(node);
    }
  }
  return null;
}
