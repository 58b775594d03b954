// The analysis page: what each move cost, the best move at every ply, mistakes and blunders.
// The server analyses (exact where its solver finishes, its strongest search elsewhere) from
// the last move back; this page asks until the analysis is done, drawing each move's report
// as it comes (in place: what is on screen is patched, never drawn afresh).
import { api, el, patchChildren, router, svg, svgText, view } from "./dom.js";
import { errorText, seatName, settings, t } from "./i18n.js";
import { drawBoard, fitBoard, movesTable, scrollMoves, seatColour, seatMark, zoomControls } from "./board.js";

const CHART = { width: 440, height: 180, top: 22, bottom: 26, left: 30, right: 58 };
const POLL_MS = 700;
// While reports come, a little more often (within the server's rate of four a second).
const STREAM_MS = 300;
// Refusals that only mean "not now" (asked too often, another analysis of this address still
// under way, the server's queue full): the page asks again a little later.
const RETRY_MS = 3000;
const NOT_NOW = ["rate_limited", "analysis_busy", "analysis_queue_full"];

function formatCost(value) {
  return new Intl.NumberFormat(settings.lang, { maximumFractionDigits: 2 }).format(value);
}

export async function showAnalysis(id) {
  const route = router.visits;
  view().replaceChildren(el("p", { text: t("web.connecting") }));
  let data;
  let game;
  try {
    [data, game] = await Promise.all([api("GET", `/api/games/${id}/replay`), api("GET", `/api/games/${id}`)]);
  } catch {
    if (route === router.visits) view().replaceChildren(el("p", { class: "error", text: t("web.no_game") }));
    return;
  }
  if (route !== router.visits) return;
  const page = { id, data, game, analysis: null, done: false, ply: null, error: "", progress: null, scrolled: undefined };
  router.render = () => drawAnalysis(page);
  drawAnalysis(page);
  pollAnalysis(page, route);
}

async function pollAnalysis(page, route) {
  while (route === router.visits) {
    let answer;
    let wait = POLL_MS;
    try {
      answer = await api("GET", `/api/games/${page.id}/analysis`);
    } catch (error) {
      answer = NOT_NOW.includes(error.code) ? { status: "queued", done: 0, total: 0 }
        : { status: "failed", said: errorText(error.code, error.message) };
      if (NOT_NOW.includes(error.code)) wait = RETRY_MS;
    }
    if (route !== router.visits) return;
    if (answer.status === "done") {
      if (answer.ply !== page.data.actions.length) {
        // The game went on since the replay was read: read it again to match.
        page.data = await api("GET", `/api/games/${page.id}/replay`);
        if (route !== router.visits) return;
      }
      page.analysis = answer;
      page.done = true;
      if (page.ply === null) {  // nothing chosen while the reports came: the first slip
        const flagged = answer.moves.find((report) => report.flag === "blunder")
          || answer.moves.find((report) => report.flag === "mistake");
        page.ply = (flagged || answer.moves[0] || { ply: null }).ply;
      }
      drawAnalysis(page);
      return;
    }
    if (answer.status === "failed") {
      page.error = answer.said || t("web.analysis_failed", { message: answer.error || "" });
      drawAnalysis(page);
      return;
    }
    page.progress = answer;
    if (answer.status === "running") wait = STREAM_MS;
    // The reports known so far, with the mode and thresholds they are judged by.
    if (answer.thresholds && answer.moves) page.analysis = answer;
    drawAnalysis(page);
    await new Promise((resolve) => { setTimeout(resolve, wait); });
  }
}

function progressBox(page) {
  const progress = page.progress || { status: "queued", done: 0, total: 0 };
  const text = progress.status === "running"
    ? t("web.analysis_progress", { done: progress.done, total: progress.total })
    : t("web.analysis_queued");
  return el("div", { class: "progress", id: "analysis-progress", "data-testid": "analysis-progress" },
    el("label", { for: "analysis-bar", text }),
    el("progress", { id: "analysis-bar", max: Math.max(1, progress.total), value: progress.done }));
}

function reportsByPly(page) {
  const found = {};
  for (const report of page.analysis ? page.analysis.moves : []) found[report.ply] = report;
  return found;
}

function drawAnalysis(page) {
  const select = (ply) => {
    if (!reportsByPly(page)[ply]) return;  // not analysed yet
    page.ply = ply;
    const focusId = document.activeElement && document.activeElement.id;
    drawAnalysis(page);
    const again = focusId && document.getElementById(focusId);
    if (again) again.focus();
  };
  const reports = page.analysis ? page.analysis.moves : [];
  const flags = {};
  for (const item of reports) if (item.flag) flags[item.ply] = item.flag;
  patchChildren(view(), [el("div", { class: "game analysis", id: "analysis", "data-testid": "game" },
    analysisColumn(page, flags, select), analysisSide(page, flags, select))]);
  document.title = t("web.title_analysis");
  fitBoard();
  // Scrolled only when the chosen move changes, so that a list being read stays put.
  if (page.scrolled !== page.ply) scrollMoves(page.ply);
  page.scrolled = page.ply;
}

// The marks of the chosen move on the board: the move played and the best one. A played move
// that cost nothing is a best move too, so it is marked as one, never as a slip.
function moveMarks(report) {
  const marks = {};
  if (!report) return marks;
  const played = report.played.slice(1);
  const playedLabel = t("web.played_here", { move: report.played });
  if (report.cost === 0 || report.played === report.best) {
    const label = `${playedLabel}, ${t("web.best_here", { move: report.played })}`;
    marks[played] = { classes: ["best"], label, ghost: report.played[0] };
    return marks;
  }
  const best = report.best.slice(1);
  const bestLabel = t("web.best_here", { move: report.best });
  if (best === played) {  // the right cell, the wrong letter
    marks[best] = { classes: ["played", "best"], label: `${playedLabel}, ${bestLabel}`, ghost: report.best[0] };
    return marks;
  }
  marks[played] = { classes: ["played"], label: playedLabel, ghost: report.played[0] };
  marks[best] = { classes: ["best"], label: bestLabel, ghost: report.best[0] };
  return marks;
}

// The board before the chosen move (or at the end), its verdict, and the buttons that step.
function analysisColumn(page, flags, select) {
  const { data } = page;
  const report = page.ply ? reportsByPly(page)[page.ply] : null;
  const ply = report ? report.ply : data.frames.length - 1;
  const frame = report ? data.frames[ply - 1] : data.frames[data.frames.length - 1];
  const state = { rows: data.rows, cols: data.cols, board: frame.board, lines: data.lines };
  const previous = ply > 1 ? data.actions[ply - 2] : "";
  const last = report && previous && !previous.startsWith("resign") ? previous.slice(1) : "";
  return el("div", { class: "board-column" },
    el("h1", { class: "game-title", text: t("web.analysis_title", { rows: data.rows, cols: data.cols, mode: t(`mode.${data.mode}`) }) }),
    el("div", { class: "banner", id: "banner", "data-testid": "banner" },
      el("p", { class: "status", id: "analysis-move", "aria-live": "polite", text: report ? moveVerdict(page, report) : "" })),
    drawBoard(state, { lineCount: frame.lines, marks: moveMarks(report), last }),
    el("div", { class: "picker-row", "data-reserve": "move" },
      el("span", { class: "legend" },
        el("span", { class: "key best", "aria-hidden": "true" }), t("web.best_move"), " ",
        el("span", { class: "key played", "aria-hidden": "true" }), t("web.move_played")),
      zoomControls()),
    analysisControls(page, report, flags, select));
}

function analysisControls(page, report, flags, select) {
  const plies = (page.analysis ? page.analysis.moves : []).map((item) => item.ply);
  const at = plies.indexOf(page.ply);
  const step = (delta) => () => { if (at + delta >= 0 && at + delta < plies.length) select(plies[at + delta]); };
  // The flagged move a step of delta leads to, if any: with none, its button is disabled.
  const flagged = (delta) => {
    for (let index = at + delta; index >= 0 && index < plies.length; index += delta) {
      if (flags[plies[index]]) return plies[index];
    }
    return null;
  };
  const nextFlag = (delta) => () => {
    const to = flagged(delta);
    if (to !== null) select(to);
  };
  return el("div", { class: "controls", "data-reserve": "" },
    el("button", { type: "button", id: "analysis-prev-flag", text: t("web.prev_flag"), disabled: flagged(-1) === null, onclick: nextFlag(-1) }),
    el("button", { type: "button", id: "analysis-prev", text: t("web.prev"), disabled: !report || at <= 0, onclick: step(-1) }),
    el("button", { type: "button", id: "analysis-next", text: t("web.next"), disabled: !report || at >= plies.length - 1, onclick: step(1) }),
    el("button", { type: "button", id: "analysis-next-flag", text: t("web.next_flag"), disabled: flagged(1) === null, onclick: nextFlag(1) }),
    el("a", { href: `#/game/${page.id}`, text: t("web.back_to_game") }),
    el("a", { href: `#/replay/${page.id}`, text: t("web.replay") }));
}

// The players' summary, the chart (or the progress while the server works) and the moves.
function analysisSide(page, flags, select) {
  const reports = page.analysis ? page.analysis.moves : [];
  const pending = page.done || !page.analysis ? [] : page.analysis.pending;
  const chartPanel = el("section", { class: "panel chart-panel", "aria-labelledby": "chart-title" },
    el("h2", { id: "chart-title", text: page.analysis ? t(`web.chart_title.${page.analysis.mode}`) : t("web.chart_pending") }),
    page.error ? el("p", { class: "error", role: "alert", id: "analysis-error", text: page.error })
      : [page.analysis ? drawChart(page, reports, select) : null, page.done ? null : progressBox(page)]);
  return el("div", { class: "side" },
    el("section", { class: "panel", id: "players", "data-testid": "players", "aria-labelledby": "players-title" },
      el("h2", { id: "players-title", text: t("web.players") }), summaryTable(page)),
    chartPanel,
    el("section", { class: "panel", "aria-labelledby": "moves-title" },
      el("h2", { id: "moves-title", text: t("web.moves") }),
      movesTable(page.game.seats, page.data.moves, { selected: page.ply, flags, pending, onSelect: page.analysis ? select : null })));
}

// "Move 5, Bao: Ob2 cost 4 points (a blunder). Best: Sb2." with exact or estimated.
function moveVerdict(page, report) {
  const name = seatName(page.game.seats[report.seat]);
  const parts = [t("web.move_by", { ply: report.ply, name, move: report.played })];
  if (report.cost === null) parts.push(t("web.not_costed"));
  else if (report.cost === 0) parts.push(t("web.cost_none"));
  else parts.push(t("web.cost_of", { cost: formatCost(report.cost) }));
  if (report.flag) parts.push(t(`web.flag.${report.flag}`));
  if (report.played !== report.best || report.cost) parts.push(t("web.best_is", { move: report.best }));
  parts.push(report.exact ? t("web.exact") : t("web.estimated"));
  return parts.join(" · ");
}

function summaryTable(page) {
  const seats = page.game.seats;
  const players = page.done ? page.analysis.players : null;
  const scores = page.data.frames[page.data.frames.length - 1].scores;
  const head = el("tr", {}, el("th", { scope: "col", text: t("web.player_column") }),
    el("th", { scope: "col", text: t("web.score_column") }),
    players ? [el("th", { scope: "col", text: t("web.total_cost") }),
      el("th", { scope: "col", text: t("web.mistakes") }), el("th", { scope: "col", text: t("web.blunders") })] : null);
  const rows = seats.map((seat, index) => {
    const summary = players ? players[index] : null;
    return el("tr", { "data-seat": index },
      el("th", { scope: "row" }, seatMark(index), " ", seatName(seat)),
      el("td", { class: "score", text: String(scores[index]) }),
      summary ? [el("td", { class: "total-cost", text: formatCost(summary.total_cost) }),
        el("td", { class: "mistakes", text: String(summary.mistakes) }),
        el("td", { class: "blunders", text: String(summary.blunders) })] : null);
  });
  // A region the keyboard can reach, so that a table wider than a phone scrolls without a mouse.
  return el("div", { class: "table-box", tabindex: 0, role: "group", "aria-labelledby": "players-title" },
    el("table", { class: "summary", id: "analysis-summary", "data-testid": "analysis-summary" },
      el("thead", {}, head), el("tbody", {}, rows)));
}

// The chart: a bar per analysed move, as high as it cost, in the mover's colour, with "?" over
// a mistake and "??" over a blunder, and dashed lines at the two thresholds. It is a slider:
// the arrow keys (or a click) choose the move shown on the board.
function drawChart(page, reports, select) {
  const scale = chartScale(page, reports);
  const current = reports.find((report) => report.ply === page.ply);
  const chart = svg("svg", {
    class: "chart", viewBox: `0 0 ${CHART.width} ${CHART.height}`, role: "slider", tabindex: 0, id: "analysis-chart",
    "data-testid": "analysis-chart", "aria-label": t(`web.chart_title.${page.analysis.mode}`),
    "aria-valuemin": reports.length ? reports[0].ply : 0,
    "aria-valuemax": reports.length ? reports[reports.length - 1].ply : 0,
    "aria-valuenow": page.ply || 0,
    "aria-valuetext": current ? moveVerdict(page, current) : "",
  });
  chart.append(chartAxis(page, scale));
  reports.forEach((report) => chart.append(chartBar(page, report, scale)));
  for (const ply of page.done ? [] : page.analysis.pending) chart.append(pendingSlot(ply, scale));
  // The chart stays on screen while reports come (it is patched), so its handlers read the
  // page as it is when they run.
  chart.addEventListener("click", (event) => {
    const group = event.target.closest("[data-ply]");
    if (group) select(Number(group.dataset.ply));
  });
  chart.addEventListener("keydown", (event) => {
    const plies = page.analysis.moves.map((report) => report.ply);
    const at = plies.indexOf(page.ply);
    const to = { ArrowLeft: at - 1, ArrowDown: at - 1, ArrowRight: at + 1, ArrowUp: at + 1, Home: 0, End: plies.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    select(plies[Math.max(0, Math.min(plies.length - 1, to))]);
  });
  return chart;
}

// Where things go in the chart: the highest cost shown, y of a cost, and a move's slot and bar.
function chartScale(page, reports) {
  const { width, height, top, bottom, left, right } = CHART;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const most = Math.max(page.analysis.thresholds.blunder * 1.25, ...reports.map((report) => report.cost || 0));
  // A slot per move, analysed or not, so that a move's bar never moves as the others come.
  const count = reports.length + (page.done ? 0 : page.analysis.pending.length);
  const slot = plotWidth / Math.max(1, count);
  return {
    plotWidth, plotHeight, most, slot, count,
    y: (value) => top + plotHeight - (value / most) * plotHeight,
    bar: Math.max(0.6, Math.min(slot * 0.72, 40)),
  };
}

// The axis with its two thresholds and about ten move numbers under it.
function chartAxis(page, scale) {
  const { height, left } = CHART;
  const { plotWidth, most, slot, count, y } = scale;
  const thresholds = page.analysis.thresholds;
  const axis = svg("g", { class: "axis" });
  axis.append(svg("line", { x1: left, x2: left + plotWidth, y1: y(0), y2: y(0) }));
  axis.append(svgText(left - 6, y(0) + 4, formatCost(0), { "text-anchor": "end" }));
  axis.append(svgText(left - 6, y(most) + 4, formatCost(Number(most.toFixed(1))), { "text-anchor": "end" }));
  for (const kind of ["mistake", "blunder"]) {
    const at = y(thresholds[kind]);
    axis.append(svg("line", { class: `threshold ${kind}`, x1: left, x2: left + plotWidth, y1: at, y2: at }));
    axis.append(svgText(left + plotWidth + 4, at + 4, t(`web.flag.${kind}`), { class: `threshold-label ${kind}` }));
  }
  const every = Math.max(1, Math.ceil(count / 10));
  for (let index = 0; index < count; index += 1) {
    if (index % every === 0 || index === count - 1) {
      axis.append(svgText(left + (index + 0.5) * slot, height - 3, String(index + 1), { "text-anchor": "middle", class: "tick" }));
    }
  }
  return axis;
}

// One move's bar, with the move's verdict as its tooltip and "?" or "??" over a flagged move.
function chartBar(page, report, scale) {
  const { top, left } = CHART;
  const { plotHeight, slot, bar, y } = scale;
  const x = left + (report.ply - 1) * slot;
  const group = svg("g", { class: `move-bar${report.ply === page.ply ? " current" : ""}`, "data-ply": report.ply });
  group.append(svg("rect", { class: "slot", x, y: top - 10, width: slot, height: plotHeight + 10 }));
  const cost = report.cost || 0;
  const barHeight = report.cost === null ? 0 : Math.max(1.5, y(0) - y(cost));
  const drawn = svg("rect", {
    class: `bar${report.flag ? ` ${report.flag}` : ""}${report.cost === null ? " unknown" : ""}`,
    x: x + (slot - bar) / 2, y: y(0) - Math.max(barHeight, report.cost === null ? 3 : 0),
    width: bar, height: Math.max(barHeight, report.cost === null ? 3 : 0),
    fill: report.cost === null ? "#9a9a9a" : seatColour(report.seat),
  });
  const tip = svg("title");
  tip.textContent = moveVerdict(page, report);
  drawn.append(tip);
  group.append(drawn);
  if (report.flag) {
    group.append(svgText(x + slot / 2, y(0) - barHeight - 4, report.flag === "blunder" ? "??" : "?",
      { class: `flag-mark ${report.flag}`, "text-anchor": "middle" }));
  }
  return group;
}

// The slot of a move not analysed yet: empty, and marked so.
function pendingSlot(ply, scale) {
  const { top, left } = CHART;
  const group = svg("g", { class: "move-bar pending", "data-ply": ply, "aria-busy": "true" });
  group.append(svg("rect", { class: "slot", x: left + (ply - 1) * scale.slot, y: top - 10, width: scale.slot, height: scale.plotHeight + 10 }));
  return group;
}
