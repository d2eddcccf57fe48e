// The phone table (a screen up to PHONE wide): the players as compact chips that open on a tap, and
// the text sheet — a card's or tile's text shown at the bottom of the screen when a card that plays
// nothing is tapped, or when any card is pressed and held. Phones have no hover, and a small ⓘ
// beside a large playable card draws the finger's tap onto itself (Chromium moves a tap that
// lands near a small button onto it): so the phone table has no ⓘ at all.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const PHONE = "(max-width: 700px)";
// A press this long opens the text instead of playing the card (?hold=<ms> changes it: the browser
// tests, whose taps a loaded machine may stretch, lengthen it).
const HOLD_MS = new URLSearchParams(location.search).has("hold") ? Number(new URLSearchParams(location.search).get("hold")) || 550 : 550;
const SLOP_PX = 10; // a finger that moves further is scrolling the row, not pressing

/**
 * The players as chips: the seat's colour, name, what the renderer sums up, the clock; a tap on the
 * head opens the seat's whole area (renderer.seatDetails). What the seat has that is playable now
 * (renderer.seatLive) is always shown under the head, so no move waits behind a closed chip.
 * opts: {seats, you, toMove, renderer, view, ctx, isOpen(seat), toggle(seat), extras(seat)}
 */
export function playerChips(opts) {
  const { seats, renderer, view, ctx } = opts;
  // Your own chip first, then the others in seat order from your left.
  const n = seats.length;
  const mine = opts.you === null || opts.you === undefined ? 0 : opts.you;
  // A renderer whose dock already says everything about you leaves your own chip out (ownChip).
  const order = seats
    .filter((s) => renderer.ownChip !== false || s.seat !== opts.you)
    .sort((a, b) => ((a.seat - mine + n) % n) - ((b.seat - mine + n) % n));
  return h(
    "ul",
    { class: "pchips", id: "players", "data-key": "players", "aria-label": t("ui.players") },
    order.map((s) => {
      // An opened chip shows the whole area, the playable things included.
      const details = opts.isOpen(s.seat) && renderer.seatDetails ? renderer.seatDetails(s.seat, view, ctx) : null;
      const open = Boolean(details);
      const live = !open && renderer.seatLive ? renderer.seatLive(s.seat, view, ctx) : null;
      const moving = opts.toMove.includes(s.seat);
      // A renderer may put the playable things beside the head, on one line (liveBeside).
      const beside = live && renderer.liveBeside;
      return h(
        "li",
        {
          class: `pchip${s.seat === opts.you ? " me" : ""}${moving ? " moving" : ""}${live ? " live" : ""}${beside ? " beside" : ""}${open ? " open" : ""}`,
          "data-seat": s.seat,
          "data-key": `seat${s.seat}`,
        },
        h(
          "button",
          {
            type: "button",
            class: "pchip-head",
            id: `pchip-${s.seat}`,
            "aria-expanded": open ? "true" : "false",
            onclick: () => opts.toggle(s.seat),
          },
          renderer.seatBadge ? renderer.seatBadge(s.seat, view, ctx) : null,
          h("span", { class: "seat-name" }, ctx.seatName(s.seat)),
          moving ? h("span", { class: "pchip-turn", "aria-label": t("ui.pchip_moving") }, "●") : null,
          renderer.seatSummary ? h("span", { class: "pchip-sum" }, renderer.seatSummary(s.seat, view, ctx)) : null,
          opts.extras(s),
          renderer.seatScore ? renderer.seatScore(s.seat, view, ctx) : null,
        ),
        live ? h("div", { class: "pchip-live" }, live) : null,
        details ? h("div", { class: "pchip-more" }, details) : null,
      );
    }),
  );
}

// ---- the text sheet ------------------------------------------------------------------------------
let sheet = null;
let held = null; // {timer, x, y, el}: a press in progress
let swallow = false; // the click that ends a long press must not also play the card

function infoOf(el) {
  const title = el.getAttribute("data-info");
  const body = el.querySelector(".info-text");
  return { title, text: body ? body.textContent : "" };
}

/** Shows the text of a card (an element with data-info and an .info-text inside) at the bottom. */
export function openSheet(el) {
  const { title, text } = infoOf(el);
  if (!sheet) {
    sheet = h("dialog", { class: "sheet", id: "card-sheet", "aria-labelledby": "card-sheet-title" });
    sheet.addEventListener("click", (ev) => {
      if (ev.target === sheet) sheet.close(); // a tap beside the sheet closes it
    });
    document.body.append(sheet);
  }
  sheet.replaceChildren(
    h("h2", { id: "card-sheet-title" }, title),
    text ? h("p", { class: "sheet-text" }, text) : null,
    h("button", { type: "button", class: "primary sheet-close", id: "card-sheet-close", onclick: () => sheet.close() }, t("ui.close")),
  );
  if (!sheet.open) sheet.showModal();
  document.body.dataset.sheet = el.getAttribute("data-info");
}

function cancelHold() {
  if (held) clearTimeout(held.timer);
  held = null;
}

/**
 * On a phone: a press held on anything with data-info opens its text; a tap on one that plays
 * nothing (not data-act) opens it too. Installed once per page.
 */
export function watchSheets(isPhone) {
  document.addEventListener(
    "pointerdown",
    (ev) => {
      cancelHold();
      swallow = false; // a long press that ended without a click leaves nothing to swallow
      if (!isPhone() || ev.button > 0) return;
      const el = ev.target instanceof Element ? ev.target.closest("[data-info]") : null;
      if (!el) return;
      held = {
        x: ev.clientX,
        y: ev.clientY,
        el,
        timer: setTimeout(() => {
          held = null;
          swallow = true;
          openSheet(el);
        }, HOLD_MS),
      };
    },
    true,
  );
  document.addEventListener(
    "pointermove",
    (ev) => {
      if (held && Math.hypot(ev.clientX - held.x, ev.clientY - held.y) > SLOP_PX) cancelHold();
    },
    true,
  );
  for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, () => cancelHold(), true);
  // A long press on a phone also opens the browser's menu for the element: the sheet is that menu.
  document.addEventListener("contextmenu", (ev) => {
    if (!isPhone()) return;
    const el = ev.target instanceof Element ? ev.target.closest("[data-info]") : null;
    if (!el) return;
    ev.preventDefault();
    if (!swallow) {
      cancelHold();
      swallow = true;
      openSheet(el);
    }
  });
  document.addEventListener(
    "click",
    (ev) => {
      if (swallow) {
        swallow = false;
        ev.preventDefault();
        ev.stopImmediatePropagation();
        return;
      }
      if (!isPhone()) return;
      const el = ev.target instanceof Element ? ev.target.closest("[data-info]") : null;
      if (el && !el.closest("[data-act]")) {
        ev.preventDefault();
        ev.stopImmediatePropagation();
        openSheet(el);
      }
    },
    true,
  );
}
