// Play on the cards: every legal move is described by its parts (renderer.parts(action) → keys
// such as "hand:olive", "count:3", "card:fan", "wing:gallery"). Board elements that stand for a
// part carry data-pick="<key>". The reader clicks parts in any order; the moves that still fit the
// chosen parts decide what is clickable next. A move of one part is played by its click; a move of
// several parts waits for the Confirm button of the pick bar. Parts with no element on the board
// (a count, "end my turn") are offered as buttons in the pick bar.
import { on } from "./dom.js";

/** The parts of each legal entry: [{entry, parts: [key...]}]. */
export function describe(renderer, legal, view, ctx) {
  return legal.map((entry) => {
    let parts = renderer.parts ? renderer.parts(entry.action, view, ctx) : null;
    if (!parts || !parts.length) parts = [`move:${entry.id}`];
    return { entry, parts };
  });
}

function fits(move, chosen) {
  return chosen.every((k) => move.parts.includes(k));
}

/** What the chosen parts leave: the moves that still fit, those complete, and the next clickable keys. */
export function options(moves, chosen) {
  const fitting = moves.filter((m) => fits(m, chosen));
  const complete = fitting.filter((m) => m.parts.length === chosen.length);
  const next = new Set();
  for (const m of fitting) for (const k of m.parts) if (!chosen.includes(k)) next.add(k);
  return { fitting, complete, next };
}

/** Keeps only the chosen parts some legal move still has (after a new state). */
export function prune(moves, chosen) {
  const out = [];
  for (const k of chosen) if (moves.some((m) => fits(m, [...out, k]))) out.push(k);
  return out;
}

/** Marks the board's data-pick elements: clickable (next), chosen, or inert. */
export function decorate(board, state, onPick) {
  for (const el of board.querySelectorAll("[data-pick]")) {
    const key = el.getAttribute("data-pick");
    const chosen = state.chosen.includes(key);
    const next = state.next.has(key);
    if (!chosen && !next) continue;
    el.classList.add(chosen ? "picked" : "pickable");
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.setAttribute("data-act", "pick");
    el.setAttribute("aria-pressed", chosen ? "true" : "false");
    const activate = (ev) => {
      if (ev.target.closest && ev.target.closest(".card-info")) return; // the ⓘ of a card opens its text
      ev.preventDefault();
      ev.stopPropagation();
      onPick(key, ev);
    };
    on(el, "click", activate);
    on(el, "keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") activate(ev);
    });
  }
}

/** The keys of `next` with no element in any of `places` (the board, and on a phone the hand in
 * its dock): they become buttons in the pick bar. */
export function offBoard(places, next) {
  const present = new Set(places.flatMap((place) => Array.from(place.querySelectorAll("[data-pick]"), (el) => el.getAttribute("data-pick"))));
  return [...next].filter((k) => !present.has(k));
}

