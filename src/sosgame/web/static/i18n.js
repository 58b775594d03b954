// The settings the server gives (levels, seat colours and symbols, limits) and the texts in
// every language, with the language chosen here.
export const settings = {
  // Levels, seat colours and symbols, and the limits of a new game: GET /api/config.
  config: { levels: [], seats: { colours: [], symbols: [], unowned_colour: "#888888" }, limits: {}, pools: [] },
  catalog: {},
  languages: {},
  lang: "en",
};

const plurals = new Map(); // a language's plural rules: made once, as making them is slow

function pluralRules(lang) {
  if (!plurals.has(lang)) plurals.set(lang, new Intl.PluralRules(lang));
  return plurals.get(lang);
}

export function t(key, values = {}) {
  const entry = settings.catalog[key];
  let text = entry ? (entry[settings.lang] || entry.en) : key;
  // A text that depends on a number comes as its plural forms: {"one": ..., "other": ...}.
  if (typeof text === "object") {
    text = text[pluralRules(settings.lang).select(Number(values.count))] || text.other;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

// A refusal in the reader's language: its code's text, and what only that refusal knows
// (the field, the cap), which the server says in English.
export function errorText(code, message, detail) {
  const key = `web.error.${code}`;
  if (!settings.catalog[key]) return t("web.error.other", { message });
  return detail ? `${t(key)} (${detail})` : t(key);
}

// A player's name, with BOT before a bot's.
export function nameText(name, bot) {
  return bot ? `${t("web.bot")} ${name}` : name;
}

// A seat's name as shown: its player's, with BOT before a bot's account.
export function seatName(seat) {
  return nameText(seat.name, seat.bot);
}

// A listed game's names (`names`, and `bots` beside them), BOT before a bot's.
export function namesText(names, bots = []) {
  return names.map((name, index) => nameText(name, bots[index])).join(", ");
}

export function playerLabel(seat) {
  return seat.player === "human" ? t("web.player.human") : t(`web.player.${seat.player}`);
}

function reasonText(result, seats) {
  if (result.flagged && result.flagged.length && ["resignation", "timeout"].includes(result.termination)) {
    return t("web.reason.time", { names: result.flagged.map((s) => seatName(seats[s])).join(", ") });
  }
  return t(`reason.${result.termination}`);
}

// A game's result in words; the seats in `mine` (this browser's player) read "you".
export function resultText(result, seats, mine = []) {
  if (!result.winners.length) return t("aborted");
  const reason = reasonText(result, seats);
  if (result.winners.length === 1) {
    const winner = result.winners[0];
    return mine.includes(winner) ? t("web.you_win", { reason }) : t("winner", { name: seatName(seats[winner]), reason });
  }
  const others = result.winners.filter((s) => !mine.includes(s)).map((s) => seatName(seats[s])).join(", ");
  if (result.winners.some((s) => mine.includes(s))) return t("web.you_draw", { names: others, reason });
  return t("draw", { names: others, reason });
}
