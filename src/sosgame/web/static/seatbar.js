// The compact bar above the board on a phone: each player's mark, name, points and clock,
// whose turn it is, and who is thinking; the players' panel below has the details.
import { el, formatClock } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { seatColour, seatMark } from "./board.js";

export function seatBar(state, scores = state.scores) {
  const bar = el("ol", { class: "seat-bar", "data-testid": "seat-bar", "aria-label": t("web.players") });
  state.seats.forEach((seat, index) => {
    const turn = !state.result && state.status === "playing" && state.turn === index;
    const chip = el("li", { class: turn ? "turn" : "", "data-seat": index, "aria-current": turn ? "true" : null },
      seatMark(index),
      el("span", { class: "bar-name", text: seatName(seat) }),
      berserkMark(state, index),
      state.thinking === index ? el("span", { class: "bar-thinking", text: "…", title: t("web.thinking") }) : null,
      state.clock ? el("span", { class: "clock", "data-seat": index, text: formatClock(state.clock.remaining[index]),
        title: state.days ? t("web.days_setting", { count: state.days }) : null }) : null,
      el("span", { class: "bar-score", "aria-label": t("web.points", { name: seatName(seat), count: scores[index] }),
        text: String(scores[index]) }));
    chip.style.setProperty("--seat", seatColour(index));
    bar.append(chip);
  });
  return bar;
}

// A seat that went berserk in a tournament's game (half its time, no increment) says so.
export function berserkMark(state, index) {
  const clock = state.clock;
  if (!clock || !Array.isArray(clock.berserk) || !clock.berserk.includes(index)) return null;
  const label = t("web.in_tournament.berserk_label", { name: seatName(state.seats[index]) });
  return el("span", { class: "berserk-mark", "data-seat": index, role: "img", "aria-label": label, title: label,
    text: t("web.in_tournament.berserk_mark") });
}
