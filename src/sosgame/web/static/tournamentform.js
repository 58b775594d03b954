// The form that makes a tournament (POST /api/tournaments): every setting, those shown
// following its kind (an Arena's length and clock, a Swiss's rounds and clock or days).
import { api, el, go } from "./dom.js";
import { errorText, settings, t } from "./i18n.js";

const START_MINUTES = 5;

function field(label, input, attrs = {}) {
  return el("label", { class: "field", ...attrs }, el("span", { text: t(label) }), input);
}

function check(label, input) {
  return el("label", { class: "field" }, input, el("span", { text: t(label) }));
}

function number(id, min, max, value) {
  return el("input", { type: "number", id, min, max, value, required: true });
}

function sizeSelect(id) {
  const { min_side: least, max_side: most } = settings.config.limits;
  const select = el("select", { id });
  for (let side = least; side <= most; side += 1) select.append(el("option", { value: side, selected: side === 5, text: String(side) }));
  return select;
}

// A refused field: the server's detail names it ('clock.initial', 'name'); that input is
// marked and focused.
function markField(form, detail) {
  for (const node of form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  const named = /'([a-z_.]+)'/.exec(detail || "");
  const input = named && form.querySelector(`[data-field="${named[1]}"]`);
  if (!input) return;
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

export function tournamentForm() {
  const kind = el("select", { id: "tournament-kind", "data-field": "kind" },
    ["arena", "swiss"].map((one) => el("option", { value: one, text: t(`web.tournament.${one}`) })));
  const name = el("input", { type: "text", id: "tournament-name", "data-field": "name", minlength: 2, maxlength: 60, required: true });
  const rows = sizeSelect("tournament-rows");
  const cols = sizeSelect("tournament-cols");
  rows.dataset.field = "rows";
  cols.dataset.field = "cols";
  const mode = el("select", { id: "tournament-mode", "data-field": "mode" },
    ["general", "simple"].map((one) => el("option", { value: one, text: t(`mode.${one}`) })));
  const timing = el("select", { id: "tournament-timing" },
    el("option", { value: "clock", text: t("web.tournament.clock") }),
    el("option", { value: "days", text: t("web.days_per_move") }));
  const initial = number("tournament-clock-minutes", 1, 180, 3);
  initial.dataset.field = "clock.initial";
  const increment = number("tournament-clock-increment", 0, 180, 2);
  increment.dataset.field = "clock.increment";
  const days = el("select", { id: "tournament-days", "data-field": "days" },
    settings.config.days_per_move.map((n) => el("option", { value: n, text: t("web.days_setting", { count: n }) })));
  const rated = el("input", { type: "checkbox", id: "tournament-rated", "data-field": "rated", checked: true });
  const startIn = number("tournament-start-in", 0, 10080, START_MINUTES);
  startIn.dataset.field = "starts_at";
  const startAt = el("input", { type: "datetime-local", id: "tournament-start-at", step: 1 });
  const minutes = number("tournament-minutes", 5, 720, 30);
  minutes.dataset.field = "minutes";
  const rounds = number("tournament-rounds", 3, 15, 5);
  rounds.dataset.field = "rounds";
  const bots = el("input", { type: "checkbox", id: "tournament-bots", "data-field": "bots" });
  const open = el("input", { type: "checkbox", id: "tournament-open", "data-field": "open", checked: true });
  const timingField = field("web.tournament.time_control", timing);
  const clockFields = el("div", { id: "tournament-clock" },
    field("web.clock_minutes", initial), field("web.clock_increment", increment));
  const daysField = field("web.days_per_move", days);
  const minutesField = field("web.tournament.length", minutes);
  const roundsField = field("web.tournament.rounds", rounds);
  // An Arena always has a clock; a Swiss may be played by days a move instead.
  const follow = () => {
    const arena = kind.value === "arena";
    timingField.hidden = arena;
    const byDays = !arena && timing.value === "days";
    clockFields.hidden = byDays;
    daysField.hidden = !byDays;
    minutesField.hidden = !arena;
    roundsField.hidden = arena;
    for (const input of [initial, increment]) input.disabled = byDays;
    minutes.disabled = !arena;
    rounds.disabled = arena;
  };
  kind.addEventListener("change", follow);
  timing.addEventListener("change", follow);
  follow();
  const error = el("p", { class: "error", role: "alert", id: "tournament-error" });
  const form = el("form", { id: "tournament-form" },
    field("web.tournament.kind", kind), field("web.tournament.name", name),
    field("web.rows", rows), field("web.cols", cols), field("web.mode", mode),
    timingField, clockFields, daysField,
    minutesField, roundsField,
    field("web.tournament.start_in", startIn), field("web.tournament.start_at", startAt),
    check("web.rated_game", rated), check("web.tournament.allow_bots", bots), check("web.tournament.open", open),
    el("button", { type: "submit", class: "primary", id: "tournament-create", text: t("web.tournament.make") }),
    error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const arena = kind.value === "arena";
    const byDays = !arena && timing.value === "days";
    // A local date and time, when given, is read in the reader's own time zone.
    const startsAt = startAt.value ? new Date(startAt.value).getTime() : Date.now() + Number(startIn.value) * 60_000;
    const body = {
      kind: kind.value, name: name.value, rows: Number(rows.value), cols: Number(cols.value), mode: mode.value,
      clock: byDays ? null : { initial: Math.round(Number(initial.value) * 60), increment: Number(increment.value) },
      days: byDays ? Number(days.value) : null,
      rated: rated.checked, starts_at: Math.round(startsAt), bots: bots.checked, open: open.checked,
      minutes: arena ? Number(minutes.value) : null,
      rounds: arena ? null : Number(rounds.value),
    };
    try {
      const made = await api("POST", "/api/tournaments", body);
      go(`#/tournament/${made.id}`);
    } catch (failure) {
      error.textContent = errorText(failure.code, failure.message, failure.detail);
      markField(form, failure.detail);
    }
  });
  return form;
}
