// A tiny element builder: h("div", {class: "x", onclick: fn}, "text", child, [children]).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") on(el, k.slice(2), v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

// Handlers live in el.__on and are called through one listener per type, so that patch() (patch.js)
// can hand a kept element the handlers of the element it was compared with.
function dispatch(ev) {
  const fn = ev.currentTarget.__on && ev.currentTarget.__on[ev.type];
  if (fn) return fn(ev);
  return undefined;
}

export function on(el, type, fn) {
  if (!el.__on) el.__on = {};
  if (!(type in el.__on)) el.addEventListener(type, dispatch);
  el.__on[type] = fn;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.append(c);
    else el.append(document.createTextNode(String(c)));
  }
}

export function svg(tag, attrs, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c);
  return el;
}

export function humanize(name) {
  const s = String(name).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}
