// What the table page and the replay page share: which renderer draws a game, the event wording
// (the game's own, else the generic one) and the result table.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import generic from "../games/generic.js";

export const RENDERERS = { "mamma-mia": "mamma_mia", "sweet-nose": "sweet_nose", mottainai: "mottainai" };

/** The game's renderer module (games/<file>.js), or the generic one. */
export async function loadRenderer(game) {
  const file = RENDERERS[game];
  if (!file) return generic;
  try {
    return (await import(`../games/${file}.js`)).default;
  } catch (err) {
    console.error(err);
    return generic;
  }
}

/** The server's own mark before a decision a bot made for a human seat (docs/protocol.md). */
function botPlayedLines(ev, ctx) {
  const reason = ["clock", "away", "host"].includes(ev.data.reason) ? ev.data.reason : "away";
  const text =
    ev.data.seat === ctx.you
      ? ctx.t(`log.bot_played_you.${reason}`)
      : ctx.t(`log.bot_played.${reason}`, { who: ctx.seatName(ev.data.seat) });
  return [{ text, cls: "bot-played" }];
}

/** An event in words: a list of strings or {text, cls}. */
export function eventLines(renderer, ev, ctx) {
  if (ev.event === "bot_played") return botPlayedLines(ev, ctx);
  // The server's own mark of an undo (docs/protocol.md), the same in every game.
  if (ev.event === "undone") return [{ text: ctx.t("log.undone", { who: ctx.seatName(ev.data.seat) }), cls: "undone" }];
  const lines = renderer.eventLines ? renderer.eventLines(ev, ctx) : null;
  return lines === null || lines === undefined ? generic.eventLines(ev, ctx) : lines;
}

/** A bot's name: "Bot (medium)", or "Bot 3 (medium)" with its seat's number when another bot at the
 * table has the same level (three "Bot (random)" made the log unreadable: who did what?). */
export function botName(info, seats) {
  const level = t(`level.${info.level}`);
  const twin = seats.some((s) => s.seat !== info.seat && s.kind === "bot" && s.level === info.level);
  return twin ? t("ui.bot_named_seat", { n: info.seat + 1, level }) : t("ui.bot_named", { level });
}

/** The result as a table: place (★ for the winners), player, score. */
/** A seat's name, linked to its player's page when an account holds it (ctx.newTab: in a new tab). */
export function playerName(seat, ctx) {
  const info = ctx.seatInfo ? ctx.seatInfo(seat) : {};
  const name = ctx.seatName(seat);
  return info.kind === "human" && info.account && info.name
    ? h("a", { href: `/players/${encodeURIComponent(info.name)}`, class: "player-link", target: ctx.newTab ? "_blank" : null, rel: ctx.newTab ? "noopener" : null }, name)
    : name;
}

export function resultTable(result, renderer, ctx) {
  const r = result;
  const rows = r.places
    .map((place, seat) => ({ seat, place, score: r.scores[seat], tiebreak: r.tiebreaks ? r.tiebreaks[seat] : null }))
    .sort((a, b) => a.place - b.place || a.seat - b.seat);
  return h(
    "table",
    { class: "result-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("result.place")), h("th", {}, t("result.player")), h("th", {}, renderer.scoreLabel ? renderer.scoreLabel(ctx) : t("result.score")),
      ctx.ratingCell ? h("th", {}, t("result.rating")) : null)),
    h(
      "tbody",
      {},
      rows.map((row) =>
        h(
          "tr",
          { class: r.winners.includes(row.seat) ? "winner" : "" },
          h("td", {}, r.winners.includes(row.seat) ? `★ ${row.place}` : String(row.place)),
          h("td", {}, playerName(row.seat, ctx)),
          h("td", {}, String(row.score)),
          ctx.ratingCell ? h("td", { class: "result-rating" }, ctx.ratingCell(row.seat)) : null,
        ),
      ),
    ),
  );
}
