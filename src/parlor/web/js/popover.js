// Card texts shown beside a card (a hovered or opened Mottainai card's effect) hang from the card,
// so a card at the right edge of the board would lay its text over the log and its buttons, and
// a card on the bottom row over what follows the board. fitPopovers() moves each shown text back
// inside the board's area (and the window): sideways first, then above its card if there is no
// room below. The moves are inline styles, which the next patch() drops; the table fits them
// again after every drawing, when a card is opened, whenever a text appears, and on a resize.

const POPOVERS = ".popover";
const MARGIN = 6;

function shown(el) {
  const style = getComputedStyle(el);
  return style.display !== "none" && style.position === "absolute";
}

/** Moves one shown text inside the board area it belongs to. */
export function fitPopover(el) {
  el.style.removeProperty("translate");
  el.style.removeProperty("top");
  el.style.removeProperty("bottom");
  el.style.removeProperty("margin-top");
  el.style.removeProperty("margin-bottom");
  if (!shown(el)) return;
  const area = (el.closest(".area-board") || document.documentElement).getBoundingClientRect();
  const right = Math.min(area.right, document.documentElement.clientWidth) - MARGIN;
  const left = Math.max(area.left, 0) + MARGIN;
  let box = el.getBoundingClientRect();
  let dx = 0;
  if (box.right > right) dx = right - box.right;
  if (box.left + dx < left) dx = left - box.left;
  if (dx) el.style.translate = `${Math.round(dx)}px 0`;
  // Below the card by default; above it when it would leave the board and there is room above.
  box = el.getBoundingClientRect();
  const anchor = el.parentElement ? el.parentElement.getBoundingClientRect() : box;
  const bottom = Math.min(area.bottom, window.innerHeight);
  if (box.bottom > bottom && anchor.top - Math.max(area.top, 0) > box.height + MARGIN) {
    el.style.top = "auto";
    el.style.bottom = "100%";
    el.style.marginTop = "0";
    el.style.marginBottom = ".2rem";
  }
}

/** Fits every shown text under root (after a drawing). */
export function fitPopovers(root = document) {
  // A text shows only while its card is hovered, focused or opened: asking that first spares a
  // computed style (which makes the browser restyle the page just drawn) for every other card.
  for (const el of root.querySelectorAll(POPOVERS)) if (el.parentElement?.matches(":hover, :focus-within, .open") && shown(el)) fitPopover(el);
}

function fitAround(ev) {
  const host = ev.target && ev.target.closest ? ev.target.closest(`:has(> ${POPOVERS})`) : null;
  if (!host) return;
  for (const el of host.querySelectorAll(`:scope > ${POPOVERS}`)) fitPopover(el);
}

/** Keeps texts fitted while the reader hovers, focuses or opens cards, and when the window changes. */
export function watchPopovers() {
  // At once on hover and focus (no frame drawn unfitted); and for a text shown any other way
  // (the page moved under a still pointer, a class set by other code), when its CSS animation
  // "popover-shown" starts: every shown text starts it, as it goes from display: none to shown.
  document.addEventListener("mouseover", fitAround);
  document.addEventListener("focusin", fitAround);
  document.addEventListener(
    "animationstart",
    (ev) => {
      if (ev.animationName === "popover-shown" && ev.target instanceof Element) fitPopover(ev.target);
    },
    true,
  );
  window.addEventListener("resize", () => fitPopovers());
}
