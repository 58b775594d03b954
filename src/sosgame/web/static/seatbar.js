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
