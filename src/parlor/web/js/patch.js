// The state→DOM layer: the page is drawn as a fresh tree of elements (dom.js h()), then patch()
// makes the live page look like it while keeping every element that is still there. Kept elements
// keep their scroll position, focus, open <details>, typed input and CSS transitions; only the
// attributes and texts that differ are written.
//
// Children are matched by key: data-key, else id, else their tag and position among same-tag
// siblings; siblings that share a key are matched in order. An element with data-keep is left
// alone after its first drawing (its owner updates it, e.g. the game log). Elements with
// data-flip="key" are animated from where they stood before (flip()), unless the reader prefers
// reduced motion. A card inside a data-flip-frame (the phone's hand row) that is still in the same
// frame moves only by as much as it moved within it: the frame itself moving (the dock growing or
// shrinking under it) is no card's move, and a row that clips its cards would cut off the slide.
import { on } from "./dom.js";

function keyOf(node, counts) {
  if (node.nodeType !== 1) {
    const k = `#${node.nodeType}`;
    const n = counts.get(k) || 0;
    counts.set(k, n + 1);
    return `${k}:${n}`;
  }
  const explicit = node.getAttribute("data-key") || node.id;
  if (explicit) return `=${node.tagName}:${explicit}`;
  const k = node.tagName;
  const n = counts.get(k) || 0;
  counts.set(k, n + 1);
  return `${k}:${n}`;
}

function syncAttributes(live, fresh) {
  // By name (getAttributeNames, getAttribute): walking element.attributes makes an Attr object for
  // every attribute of every element at every frame, most of the patch's time on a large board.
  let changed = false;
  const details = live.tagName === "DETAILS";
  const names = fresh.getAttributeNames();
  let skipped = 0;
  for (const name of names) {
    if (details && name === "open") {
      skipped += 1; // the reader opened or closed it
      continue;
    }
    const value = fresh.getAttribute(name);
    if (live.getAttribute(name) !== value) {
      live.setAttribute(name, value);
      changed = true;
    }
  }
  // Every fresh attribute is on live now: live holds others only if it holds more of them.
  if (live.attributes.length > names.length - skipped) {
    for (const name of live.getAttributeNames()) {
      if (details && name === "open") continue;
      if (!fresh.hasAttribute(name)) {
        live.removeAttribute(name);
        changed = true;
      }
    }
  }
  syncState(live, fresh);
  return changed;
}

/** What no attribute holds: form state the page set, and the handlers (closures of this drawing). */
function syncState(live, fresh) {
  const tag = live.tagName;
  // Form state the reader changed stays; a value the page itself changed is written.
  if ((tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") && fresh.dataset.value !== undefined) {
    if (live.value !== fresh.dataset.value) live.value = fresh.dataset.value;
  }
  if (tag === "INPUT" && (live.type === "checkbox" || live.type === "radio")) live.checked = fresh.checked;
  if (!live.__on && !fresh.__on) return;
  const handlers = fresh.__on || {};
  for (const type of Object.keys(live.__on || {})) if (!(type in handlers)) live.__on[type] = null;
  for (const [type, fn] of Object.entries(handlers)) on(live, type, fn);
}

/** live and fresh are equal trees (isEqualNode): each live element takes its twin's state. */
function carryOver(live, fresh) {
  syncState(live, fresh);
  if (live.hasAttribute("data-keep")) return;
  for (let l = live.firstElementChild, f = fresh.firstElementChild; l; l = l.nextElementSibling, f = f.nextElementSibling) carryOver(l, f);
}

/** Makes live's children look like fresh's children (fresh is consumed). Returns whether anything changed. */
export function patchChildren(live, fresh) {
  let changed = false;
  // A key may stand for several siblings: with two decks (Mottainai at 4-6 players) two copies of
  // one card lie side by side under the same data-key. Each key holds its live nodes in order and
  // hands them out in that order. (A map of one node per key once lost all but the last copy: the
  // lost ones were neither matched nor removed, so every frame left one more stale, still
  // "playable" copy behind.)
  const old = new Map();
  const counts = new Map();
  for (const c of Array.from(live.childNodes)) {
    const key = keyOf(c, counts);
    if (old.has(key)) old.get(key).push(c);
    else old.set(key, [c]);
  }
  const freshCounts = new Map();
  const wanted = Array.from(fresh.childNodes);
  let cursor = live.firstChild;
  for (const f of wanted) {
    // (A key names the tag or node type, so a node found under it is of the same kind.)
    const same = old.get(keyOf(f, freshCounts));
    let keep = same && same.shift();
    if (keep) {
      if (patchNode(keep, f)) changed = true;
    } else {
      keep = f;
      changed = true;
    }
    if (keep !== cursor) {
      live.insertBefore(keep, cursor);
      changed = true;
    } else {
      cursor = cursor.nextSibling;
    }
  }
  // The wanted nodes now stand first, in order; whatever follows them was not wanted, whatever its
  // key said.
  while (cursor) {
    const rest = cursor;
    cursor = cursor.nextSibling;
    rest.remove();
    changed = true;
  }
  return changed;
}

function patchNode(live, fresh) {
  if (live.nodeType !== 1) {
    if (live.nodeValue !== fresh.nodeValue) {
      live.nodeValue = fresh.nodeValue;
      return true;
    }
    return false;
  }
  // Most of a drawing is as it was (a move changes a few cards of a board). The browser compares a
  // whole subtree natively far faster than this file walks it (keys, maps, every attribute), so an
  // unchanged one is only walked for what the comparison cannot see: handlers and form state.
  if (live.isEqualNode(fresh)) {
    carryOver(live, fresh);
    return false;
  }
  const changed = syncAttributes(live, fresh);
  if (live.hasAttribute("data-keep")) return changed;
  return patchChildren(live, fresh) || changed;
}

/** Replaces root's content by fresh's children, keeping what can be kept; animates data-flip
 * elements (not when `flip` is false: a new layout moves everything, and nothing was played). */
export function patch(root, freshChildren, { flip: animate = true } = {}) {
  const holder = document.createElement(root.tagName);
  for (const c of freshChildren) if (c) holder.append(c);
  const before = animate ? positions(root) : new Map();
  const changed = patchChildren(root, holder);
  if (changed && before.size) flip(root, before);
  return changed;
}

export function reducedMotion() {
  return Boolean(globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

let motion = true;
/** Turns the card movements off (the ?anim=0 of the tests, or the reader's choice). */
export function setMotion(value) {
  motion = value;
}

function positions(root) {
  const out = new Map();
  if (!motion || reducedMotion()) return out;
  for (const el of root.querySelectorAll("[data-flip]")) {
    const key = el.getAttribute("data-flip");
    if (out.has(key)) out.set(key, null); // the same key twice: no identity, no animation
    else out.set(key, { rect: el.getBoundingClientRect(), ...framed(el) });
  }
  return out;
}

function framed(el) {
  const frame = el.parentElement && el.parentElement.closest("[data-flip-frame]");
  return frame ? { frame, frameRect: frame.getBoundingClientRect() } : { frame: null };
}

// FLIP: an element that moved (or was drawn anew elsewhere under the same key) starts where it was
// and slides to its new place.
function flip(root, before) {
  const seen = new Set();
  for (const el of root.querySelectorAll("[data-flip]")) {
    const key = el.getAttribute("data-flip");
    if (seen.has(key)) continue;
    seen.add(key);
    const from = before.get(key);
    if (!from) continue;
    const to = el.getBoundingClientRect();
    let dx = from.rect.left - to.left;
    let dy = from.rect.top - to.top;
    const now = framed(el);
    if (from.frame && now.frame === from.frame) {
      dx -= from.frameRect.left - now.frameRect.left;
      dy -= from.frameRect.top - now.frameRect.top;
    }
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    if (el.animate) el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 320, easing: "ease-out" });
  }
}
