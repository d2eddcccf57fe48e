// Game review and hints in the browser (docs/review.md, docs/protocol.md "Game review").
// The replay page asks the server for the review of its seat (POST /api/tables/{id}/review), follows
// it while the judge works (GET, a decision at a time), and draws it: an evaluation graph under the
// slider (click a point to jump there), the seat's decisions with their labels, and at a flagged
// decision the better move marked on the cards. The table page's hint panel shows the judge's top
// three moves for the decision being made.
import { h, svg } from "./dom.js";
import { t, tMaybe } from "./i18n.js";
import { session } from "./session.js";

export const FLAGGED = ["inaccuracy", "mistake", "blunder"];

/** A share of games (0..1) as a whole percentage. */
export function percent(x) {
  return `${Math.round(Math.max(0, Math.min(1, x)) * 100)}%`;
}

/** The review's phase key (round-2, auction, opening, middle, end) in the reader's words. */
export function phaseText(phase) {
  const round = /^round-(\d+)$/.exec(phase);
  if (round) return t("replay.round_n", { n: Number(round[1]) });
  return tMaybe(`review.phase.${phase}`, phase);
}

export function labelText(label) {
  return tMaybe(`review.label.${label}`, label);
}

/** The estimate of the move played at a decision. */
export function playedEstimate(decision) {
  const key = JSON.stringify(decision.played);
  return decision.moves.find((m) => JSON.stringify(m.action) === key) || decision.moves[0];
}

/** The review's status and its requests, for one seat of one finished table. */
export class ReviewClient {
  constructor(tableId, token, onChange) {
    this.url = `/api/tables/${encodeURIComponent(tableId)}/review`;
    this.headers = { authorization: `Bearer ${token}` };
    this.onChange = onChange;
    this.status = null; // the server's answer: {status, done, total, review, position while queued}
    this.error = null;
    this.timer = null;
  }

  async call(method) {
    try {
      // Asking changes something: a signed-in browser (its session cookie goes along) sends its CSRF token.
      const headers = method === "POST" ? { ...this.headers, "x-csrf-token": (await session()).csrf } : this.headers;
      const res = await fetch(this.url, { method, headers });
      const body = await res.json();
      if (!res.ok) {
        this.error = tMaybe(`review.error.${body.error && body.error.code}`, t("review.error.other"));
      } else {
        this.error = null;
        this.status = body;
      }
    } catch (err) {
      console.error(err);
      this.error = t("review.error.other");
    }
    this.onChange();
    if (this.status && ["queued", "working"].includes(this.status.status) && !this.error) {
      clearTimeout(this.timer);
      // the judge's progress, a decision at a time (or the place in the queue, less often)
      this.timer = setTimeout(() => this.call("GET"), this.status.status === "queued" ? 2000 : 800);
    }
  }

  load() {
    return this.call("GET");
  }

  ask() {
    return this.call("POST");
  }

  /** The decision judged at a step of the record (its state is the replay's step of that number). */
  decisionAt(step) {
    const review = this.status && this.status.status === "done" ? this.status.review : null;
    return review ? review.decisions.find((d) => d.step === step) || null : null;
  }
}

/** The evaluation graph: the judge's win chance of each move played, over the game's steps. */
export function evaluationGraph(review, steps, current, go) {
  const W = 640; // (the steps keep the width they had before the axes took their room: close points stay apart)
  const H = 150;
  // room for the axes' numbers and names: the chance to win up the left (named above it, where a
  // long name fits in any language), the game's steps below
  const left = 42;
  const right = 12;
  const top = 30;
  const bottom = 34;
  const x = (step) => left + ((W - left - right) * step) / Math.max(1, steps);
  const y = (win) => top + (H - top - bottom) * (1 - win);
  const points = review.decisions.map((d) => ({ d, win: playedEstimate(d).win, best: d.moves[0].win }));
  const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-graph", id: "review-graph", role: "img" });
  graph.setAttribute("aria-label", t("review.graph"));
  const label = (attrs, text) => {
    const el = svg("text", attrs);
    el.textContent = text;
    return el;
  };
  graph.append(svg("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "review-axis" }));
  graph.append(svg("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: "review-axis" }));
  for (const win of [0, 0.5, 1]) {
    graph.append(label({ x: left - 5, y: y(win), "text-anchor": "end", "dominant-baseline": "middle", class: "review-tick" }, percent(win)));
  }
  for (const step of [...new Set([0, Math.round(steps / 2), steps])]) {
    graph.append(label({ x: x(step), y: H - bottom + 13, "text-anchor": "middle", class: "review-tick" }, String(step)));
  }
  graph.append(label({ x: 4, y: 13, class: "review-axis-title", id: "review-y-title" }, `↑ ${t("review.axis_win")}`));
  graph.append(label({ x: (left + W - right) / 2, y: H - 4, "text-anchor": "middle", class: "review-axis-title", id: "review-x-title" }, `${t("review.axis_step")} →`));
  const fair = 1 / review.players;
  graph.append(svg("line", { x1: left, x2: W - right, y1: y(fair), y2: y(fair), class: "review-fair" }));
  graph.append(svg("line", { x1: x(current), x2: x(current), y1: top, y2: H - bottom, class: "review-now" }));
  if (points.length > 1) {
    const line = points.map((p) => `${x(p.d.step).toFixed(1)},${y(p.win).toFixed(1)}`).join(" ");
    graph.append(svg("polyline", { points: line, class: "review-line" }));
  }
  // A point is no wider than half the gap to its nearest neighbour: in a long game the decisions lie
  // a few units apart, and a full-size point would cover the middle of the next one (a click there
  // would open the wrong decision).
  const xs = points.map((p) => x(p.d.step));
  const gap = (i) => Math.min(i > 0 ? xs[i] - xs[i - 1] : Infinity, i + 1 < xs.length ? xs[i + 1] - xs[i] : Infinity);
  points.forEach((p, i) => {
    const size = Math.min(FLAGGED.includes(p.d.label) ? 6 : 4, Math.max(1.5, gap(i) / 2 - 0.1));
    const dot = svg("circle", {
      cx: x(p.d.step).toFixed(1),
      cy: y(p.win).toFixed(1),
      r: size.toFixed(1),
      class: `review-point label-${p.d.label}${p.d.step === current ? " current" : ""}`,
      "data-step": p.d.step,
      "data-label": p.d.label,
      tabindex: 0,
    });
    const title = svg("title", {});
    title.textContent = t("review.point", { n: p.d.step, label: labelText(p.d.label), win: percent(p.win) });
    dot.append(title);
    dot.addEventListener("click", () => go(p.d.step));
    dot.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        go(p.d.step);
      }
    });
    graph.append(dot);
  });
  // A tap anywhere on the graph opens the decision nearest along the steps: the points are a few
  // pixels wide on a phone, far under a finger's 44 px, and a tap beside one would do nothing.
  if (points.length) {
    graph.classList.add("review-graph-pickable");
    graph.addEventListener("click", (ev) => {
      if (ev.target instanceof Element && ev.target.closest(".review-point")) return; // the point's own click
      const matrix = graph.getScreenCTM();
      if (!matrix) return;
      const at = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(matrix.inverse());
      let nearest = 0;
      xs.forEach((px, i) => { if (Math.abs(px - at.x) < Math.abs(xs[nearest] - at.x)) nearest = i; });
      go(points[nearest].d.step);
    });
  }
  return graph;
}

// The summary's figures, as parlor.review.summary computes them (docs/review.md, "The summary"):
// the same constants (tests/review/test_summary.py checks they agree). A loss counts only when it
// is COUNT_SIGNIFICANCE standard errors above zero: below that it is mostly the judge's noise.
export const COUNT_SIGNIFICANCE = 1;
// The curve of a review without score losses (b, of the loss in points) and the blended summary's b
// (of the share of what a decision could cost that the move gave away, 0..1).
export const ACCURACY = { a: 1.0317, b: 0.17, c: 0.0317 };
export const SHARE_ACCURACY_B = 6.0;
export const STAKE_FLOOR = 0.05;
export const BLENDED_FLOOR = 1.0;
export const SCORE_POINTS = { "mamma-mia": 23.3, "mottainai": 4.94, "sweet-nose": 2.71 };
export const LOWER_SCORE_WINS = ["sweet-nose"];
// A decision that could cost no more than this (points of win chance) does not count in the blended summary.
export const INDIFFERENT_ROOM = 1.0;
// A counting decision weighs also by what it could cost (its room, at least INDIFFERENT_ROOM), to this power.
export const ROOM_WEIGHT_POWER = 1.0;
// The blended accuracy mixes the weighted mean and the weighted harmonic mean (each accuracy at least HARMONIC_FLOOR there).
export const HARMONIC_SHARE = 0.5;
export const HARMONIC_FLOOR = 0.05;
export const PLAYED_LIKE_MIN_DECISIONS = 8;
export const PLAYED_LIKE = {
  "mamma-mia": { "random": 0.402, "easy": 0.547, "medium": 0.555, "hard": 0.747, "expert": 0.82 },
  "mottainai": { "random": 0.41, "easy": 0.49, "medium": 0.538, "hard": 0.687, "expert": 0.794 },
  "sweet-nose": { "random": 0.307, "easy": 0.373, "medium": 0.389, "hard": 0.634, "expert": 0.827 }
};

/** A decision's loss if it is significant, else 0. */
export function countedLoss(d) {
  const se = d.loss_se === null || d.loss_se === undefined ? Infinity : d.loss_se;
  return d.loss > 0 && Number.isFinite(se) && d.loss >= COUNT_SIGNIFICANCE * se ? d.loss : 0;
}

/** A decision's loss in expected final score (game points) if it is significant, else 0 (also when unmeasured). */
export function countedScoreLoss(d) {
  const loss = d.score_loss;
  const se = d.score_loss_se === null || d.score_loss_se === undefined ? Infinity : d.score_loss_se;
  return typeof loss === "number" && loss > 0 && Number.isFinite(se) && loss >= COUNT_SIGNIFICANCE * se ? loss : 0;
}

/** The best move's win chance is above one half: a move that keeps the win is sound whatever it scores. */
function winning(d) {
  return (d.moves[0].win ?? 0) > 0.5;
}

/** What was at stake at a decision: 2 sqrt(p (1 - p)) of the best move's win chance. */
function atStake(d) {
  const p = Math.max(0, Math.min(1, d.moves[0].win ?? 0));
  return 2 * Math.sqrt(p * (1 - p));
}

/** The decision's loss as a share of win chance: the win share where the game is open, the score loss
 * (times the game's SCORE_POINTS) where it is decided; the win share alone in a review without score losses. */
export function blendedLoss(d, game, blended) {
  const win = countedLoss(d);
  if (!blended || winning(d)) return win;
  const u = atStake(d);
  return u * win + ((1 - u) * (SCORE_POINTS[game] ?? 0) * countedScoreLoss(d)) / 100;
}

/** True when every decision carries a score loss (reviews made before it was measured do not). */
export function hasScoreLosses(decisions) {
  return decisions.length > 0 && decisions.every((d) => typeof d.score_loss === "number");
}

/** What the decision could cost, as a share of win chance: the best move's value minus the worst's, each
 * move valued as blendedLoss values a loss (its win share where the game is open or won; where it is
 * decided, its expected score times SCORE_POINTS, mixed by what is at stake). */
export function room(d, game) {
  const sign = LOWER_SCORE_WINS.includes(game) ? -1 : 1;
  const u = atStake(d);
  const points = (SCORE_POINTS[game] ?? 0) / 100;
  const value = winning(d) ? (m) => m.win ?? 0 : (m) => u * (m.win ?? 0) + (1 - u) * points * sign * (m.score ?? 0);
  const values = d.moves.map(value);
  return Math.max(...values) - Math.min(...values);
}

/** The decisions that count: all of them in a review without score losses; in a blended one, those that
 * could cost more than INDIFFERENT_ROOM (all of them if none could). */
function counting(decisions, game, blended) {
  if (!blended) return decisions;
  const kept = decisions.filter((d) => room(d, game) * 100 > INDIFFERENT_ROOM);
  return kept.length ? kept : decisions;
}

/** The share of what the decision could cost (room) that the move played gave away: at most 1, 0 where
 * nothing could be lost. */
export function shareGivenAway(d, game) {
  const could = room(d, game);
  return could > 0 ? Math.min(1, blendedLoss(d, game, true) / could) : 0;
}

/** Accuracy of the decisions (0..1): over the decisions that count, the mix of the weighted mean and the
 * weighted harmonic mean (HARMONIC_SHARE) of a curve of the share each gave away of what it could cost
 * (the stake-weighted mean of a gentler curve of the win-share loss in points, with the old weights,
 * over every decision, when a decision carries no score loss). */
export function accuracyOf(decisions, game = "", blended = hasScoreLosses(decisions)) {
  const curve = (x) => Math.max(0, Math.min(1, ACCURACY.a * Math.exp(-x) - ACCURACY.c));
  let weights = 0;
  let sum = 0;
  let inverse = 0;
  for (const d of counting(decisions, game, blended)) {
    const stake = Math.max(blended && !winning(d) ? BLENDED_FLOOR : STAKE_FLOOR, atStake(d));
    const w = blended ? stake * Math.max(room(d, game), INDIFFERENT_ROOM / 100) ** ROOM_WEIGHT_POWER : stake;
    const value = curve(blended ? SHARE_ACCURACY_B * shareGivenAway(d, game) : ACCURACY.b * 100 * countedLoss(d));
    weights += w;
    sum += w * value;
    inverse += w / Math.max(value, HARMONIC_FLOOR);
  }
  if (!weights) return 0;
  if (!blended) return sum / weights;
  return (1 - HARMONIC_SHARE) * (sum / weights) + HARMONIC_SHARE * (weights / inverse);
}

/** The bot level whose measured accuracy in this game is nearest, or null. */
export function playedLike(game, accuracy, decisions) {
  const levels = PLAYED_LIKE[game];
  if (!levels || decisions < PLAYED_LIKE_MIN_DECISIONS) return null;
  return Object.keys(levels).sort((x, y) => Math.abs(levels[x] - accuracy) - Math.abs(levels[y] - accuracy) || (x < y ? -1 : 1))[0];
}

function accuracy(decisions, game, blended) {
  return decisions.length ? percent(accuracyOf(decisions, game, blended)) : "—";
}

/** The seat's decisions with their labels: click one to jump to it. */
export function decisionList(review, current, go, moveText) {
  const list = h("ol", { class: "review-decisions", id: "review-decisions" });
  for (const d of review.decisions) {
    const played = playedEstimate(d);
    const better = FLAGGED.includes(d.label); // its loss is said where the judge is sure enough to flag it
    list.append(
      h(
        "li",
        { class: `review-decision label-${d.label}${d.step === current ? " current" : ""}`, "data-step": d.step, "data-label": d.label },
        h(
          "button",
          { type: "button", class: "link", onclick: () => go(d.step) },
          h("span", { class: `review-label label-${d.label}` }, labelText(d.label)),
          " ",
          h("span", { class: "review-step" }, t("review.at_step", { n: d.step, phase: phaseText(d.phase) })),
          " · ",
          moveText(d.played, d.step),
          " ",
          h("small", { class: "muted" }, t("review.win", { win: percent(played.win) })),
          better ? h("small", { class: "review-loss" }, " ", t("review.loss", { n: Math.round(d.loss * 100) })) : null,
        ),
      ),
    );
  }
  return list;
}

/** The review's summary: accuracy over every decision and per phase, the win chance given away
 * over the game, and the bot level the play was most like. */
export function reviewSummary(review) {
  const phases = [];
  for (const d of review.decisions) if (!phases.includes(d.phase)) phases.push(d.phase);
  const total = review.decisions.reduce((sum, d) => sum + countedLoss(d), 0);
  // One rule for the whole review: one resumed from a review made before score losses were measured
  // is summarised from the win share alone, every phase alike.
  const blended = hasScoreLosses(review.decisions);
  const like = playedLike(review.game, accuracyOf(review.decisions, review.game, blended), review.decisions.length);
  return h(
    "p",
    { class: "review-summary", id: "review-summary" },
    t("review.accuracy", { n: accuracy(review.decisions, review.game, blended) }),
    // (the brackets, commas and full stop are the language's own: 「（…、…）。」 in Japanese and Chinese)
    phases.length > 1 ? t("review.phase_list", { list: phases.map((p) => `${phaseText(p)} ${accuracy(review.decisions.filter((d) => d.phase === p), review.game, blended)}`).join(t("review.list_sep")) }) : "",
    t("review.sentence_end"),
    h("span", { id: "review-total-loss" }, t("review.total_loss", { n: Math.round(total * 100) })),
    like ? h("span", { id: "review-played-like" }, " ", t("review.played_like", { level: tMaybe(`level.${like}`, like) })) : null,
  );
}

// A sentence of the catalog with a DOM node where a placeholder goes: a move's words may be an
// element (Sweet Nose draws a sweetness assignment as the five sweets with their values), which
// t() would write as "[object HTMLSpanElement]". The catalog puts the move in the language's own
// quotation marks ("You played “Put the order … in the oven”"): a move's text is a button label,
// capitalised as one, and quoted it reads as the label it is in every language, whatever word
// (a card's or a tile's name, a verb) it starts with.
const SLOT = "\uE000"; // a private-use character: no catalog text has one, and t() leaves it as it is

/** ``t(key, params)`` as a <span>, with ``nodes[name]`` (a string or an element) at ``{name}``. */
export function sentence(key, params, nodes) {
  const names = Object.keys(nodes);
  const filled = t(key, { ...params, ...Object.fromEntries(names.map((n, i) => [n, `${SLOT}${i}${SLOT}`])) });
  const out = h("span", {});
  filled.split(SLOT).forEach((piece, i) => {
    if (i % 2 === 0) {
      if (piece) out.append(piece);
    } else {
      const node = nodes[names[Number(piece)]];
      out.append(node instanceof Node ? node : String(node));
    }
  });
  return out;
}

// Why the better move is better (parlor.review.explain, docs/review.md "Why the better move is
// better"): each reason holds in at least WHY_AGREEMENT of the worlds the seat thought possible
// (the same constant as explain.py's AGREEMENT; tests/review/test_explain.py checks they agree).
export const WHY_AGREEMENT = 0.9;

/** A flagged decision's reasons ({key, n}) as a paragraph in the reader's words, or null when the
 * judge could say nothing for sure (a reason of a key this page does not know is left out). */
export function whyText(decision) {
  const reasons = (decision.why || []).filter((r) => tMaybe(`review.why.${r.key}`, null) !== null);
  if (!reasons.length) return null;
  return h(
    "p",
    { class: "review-why", id: "review-why" },
    t("review.why", { p: percent(WHY_AGREEMENT) }),
    " ",
    ...reasons.map((r, i) => h("span", { class: "review-reason", "data-key": r.key }, i ? " " : "", t(`review.why.${r.key}`, r))),
  );
}

/** The board keys of ``action``'s parts with what to write on each ({key: text or null}): the
 * renderer's ``reviewMarks`` where it has one (a Sweet Nose assignment marks every sweetness card
 * with the value the move gives it), else its ``parts`` (the keys of play on the cards). */
function marksOf(renderer, action, view, ctx) {
  const marks = renderer.reviewMarks ? renderer.reviewMarks(action, view, ctx) : null;
  if (marks) return marks;
  const parts = renderer.parts ? renderer.parts(action, view, ctx) || [] : [];
  return Object.fromEntries(parts.map((k) => [k, null]));
}

/** Marks the parts of ``action`` on the board (a flagged decision's better move), with ``cls``. */
export function markMove(board, renderer, action, view, ctx, cls) {
  const marks = marksOf(renderer, action, view, ctx);
  let marked = 0;
  for (const el of board.querySelectorAll("[data-pick]")) {
    const key = el.getAttribute("data-pick");
    if (!(key in marks)) continue;
    el.classList.add(cls);
    if (marks[key] !== null && marks[key] !== undefined) el.append(h("span", { class: "review-mark", "aria-label": t("review.marked_value", { value: marks[key] }) }, `→${marks[key]}`));
    marked += 1;
  }
  return marked;
}

/** The top of the page's visible part: below the top bar, which stays on the screen as it scrolls. */
export function visibleTop() {
  const bar = document.querySelector(".topbar");
  return bar && getComputedStyle(bar).position === "sticky" ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
}

/** Scrolls so that ``target`` shows, and with it the ``also`` elements when they all fit the screen. */
export function bringIntoView(target, also = []) {
  const room = 8; // a little space between the top bar and the verdict
  const from = visibleTop() + room;
  const height = window.innerHeight - from;
  const boxes = [target, ...also].map((el) => el.getBoundingClientRect());
  const top = Math.min(...boxes.map((b) => b.top));
  const bottom = Math.max(...boxes.map((b) => b.bottom));
  if (bottom - top <= height) {
    // the verdict and the marked move together, centred in what the screen shows
    if (top < from || bottom > window.innerHeight) window.scrollBy({ top: top - from - (height - (bottom - top)) / 2, behavior: "instant" });
  } else {
    // the verdict at the top of what shows (it names the move and says where it is marked)
    window.scrollBy({ top: boxes[0].top - from, behavior: "instant" });
  }
}

/** The hint panel at the table: the judge's top moves for this decision with their win chances. */
export function hintPanel(hint, moveText, pending, error) {
  const box = h("div", { class: "hint-panel", id: "hint-panel", "aria-live": "polite" });
  if (pending) box.append(h("p", { class: "muted", id: "hint-pending" }, t("hint.thinking")));
  if (error) box.append(h("p", { class: "error", id: "hint-error" }, error));
  if (hint) {
    box.append(
      h("h3", {}, t("hint.title")),
      h(
        "ol",
        { class: "hint-moves", id: "hint-moves" },
        hint.moves.map((m) => h("li", { class: "hint-move", "data-win": m.win }, moveText(m.action), " ", h("strong", {}, percent(m.win)))),
      ),
      h("p", { class: "muted small" }, t("hint.note")),
    );
  }
  return box;
}
