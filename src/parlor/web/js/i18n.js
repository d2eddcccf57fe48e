// Catalogs (i18n/<lang>.json) and the language picker. Every text on the page goes through t().
export const LANGS = [
  ["en", "English"],
  ["zh-Hant", "繁體中文"],
  ["ja", "日本語"],
  ["cs", "čeština"],
];
const STORE = "parlor.lang";
let catalog = {};
let fallback = {};
let lang = "en";

function pickInitial() {
  const saved = localStorage.getItem(STORE);
  if (saved && LANGS.some(([code]) => code === saved)) return saved;
  const nav = (navigator.language || "en").toLowerCase();
  if (nav.startsWith("zh")) return "zh-Hant";
  if (nav.startsWith("ja")) return "ja";
  if (nav.startsWith("cs")) return "cs";
  return "en";
}

async function fetchCatalog(code) {
  const res = await fetch(`/static/i18n/${code}.json`);
  if (!res.ok) throw new Error(`catalog ${code}: HTTP ${res.status}`);
  return res.json();
}

export async function loadLang(code) {
  code = code || pickInitial();
  if (!Object.keys(fallback).length) fallback = await fetchCatalog("en");
  catalog = code === "en" ? fallback : await fetchCatalog(code);
  lang = code;
  localStorage.setItem(STORE, code);
  document.documentElement.lang = code;
  return code;
}

export function currentLang() {
  return lang;
}

// English words that depend on who acts and how many: "{who} opens" reads "You open" when the
// reader acts, "{who}'s" reads "your", and "card(s)" follows the number written before it.
const IRREGULAR = { has: "have", is: "are", was: "were", does: "do", goes: "go" };

function baseForm(verb) {
  if (IRREGULAR[verb]) return IRREGULAR[verb];
  if (!verb.endsWith("s") || verb.endsWith("ss")) return verb;
  if (verb.endsWith("ies")) return `${verb.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z|o)es$/.test(verb)) return verb.slice(0, -2);
  return verb.slice(0, -1);
}

function english(text, params) {
  const you = catalog["ui.you"] ?? "You";
  const youObject = catalog["ui.you_object"] ?? "you";
  let out = text;
  for (const [name, value] of Object.entries(params || {})) {
    if (value !== you && value !== youObject) continue;
    out = out.replace(new RegExp(`\\{${name}\\}'s\\b`, "g"), value === you ? "Your" : "your");
    if (value === you) {
      out = out.replace(new RegExp(`\\{${name}\\} ([a-z]+)`, "g"), (m, verb) => `{${name}} ${baseForm(verb)}`);
      out = out.replace(/\btheir own\b/g, "your own");
    }
  }
  return out;
}

function plurals(text, params) {
  let out = text.replace(/\b(\d+)((?:\s+[A-Za-z-]+)*?\s+[A-Za-z]+)\(s\)/g, (m, n, words) => `${n}${words}${Number(n) === 1 ? "" : "s"}`);
  if (out.includes("(s)") && params && typeof params.n === "number") out = out.replace(/\(s\)/g, params.n === 1 ? "" : "s");
  return out;
}

// A catalog text may name a game's card by id, "{card:fan}": the game's module says how cards are
// called in the reader's language (setCardNamer), so no catalog spells a card name of its own.
let cardNamer = (id) => id;

/** Sets how "{card:<id>}" placeholders are worded (Mottainai's module, with its card names). */
export function setCardNamer(fn) {
  cardNamer = fn;
}

// Chinese sets a Latin word or a number apart from the characters around it by a space ("玩家 4
// 那裡", "Ann 的"): a name or a number put into a Chinese text gets that space where it meets one.
const HAN = /[\u3400-\u9fff]/;
const LATIN_END = /[A-Za-z0-9]$/;
const LATIN_START = /^[A-Za-z0-9]/;

function spaced(value, before, after) {
  let out = value;
  if (HAN.test(after) && LATIN_END.test(out)) out = `${out} `;
  if (HAN.test(before) && LATIN_START.test(out)) out = ` ${out}`;
  return out;
}

function fill(text, params) {
  const template = lang === "en" ? english(text, params) : text;
  const filled = template
    .replace(/\{(\w+)\}/g, (m, name, at, whole) => {
      if (!params || params[name] === undefined) return m;
      const value = String(params[name]);
      return lang === "zh-Hant" ? spaced(value, whole[at - 1] || "", whole[at + m.length] || "") : value;
    })
    .replace(/\{card:(\w+)\}/g, (m, id) => cardNamer(id));
  return lang === "en" ? plurals(filled, params) : filled;
}

// Counted texts. A text with a count {n} may come in the language's plural forms, each its own
// catalog entry named "<key>#<form>", the form being the browser's own Intl.PluralRules category
// for n ("one", "few", "many"; Czech has all three, English "one", Chinese and Japanese none); the
// plain "<key>" is the "other" form and the text when the catalog has no entry for n's form.
// English may instead write "card(s)", which follows the number before it (plurals above).
const pluralRules = new Map();

function pluralForm(code, n) {
  if (!pluralRules.has(code)) pluralRules.set(code, new Intl.PluralRules(code));
  return pluralRules.get(code).select(n);
}

function lookup(key, params) {
  const n = params ? params.n : undefined;
  if (typeof n === "number") {
    const own = catalog[`${key}#${pluralForm(lang, n)}`];
    if (own !== undefined) return own;
    if (catalog[key] === undefined && fallback !== catalog) {
      const english = fallback[`${key}#${pluralForm("en", n)}`];
      if (english !== undefined) return english;
    }
  }
  return catalog[key] ?? fallback[key];
}

/** The catalog text for key, with {name} placeholders filled from params (in the plural form that
 * params.n asks for, when the catalog has one). */
export function t(key, params) {
  const text = lookup(key, params);
  return text === undefined ? key : fill(text, params);
}

/** A key built at run time (a topping, an option...): the text, or `otherwise` when no catalog has it. */
export function tMaybe(key, otherwise, params) {
  const text = lookup(key, params);
  return text === undefined ? otherwise : fill(text, params);
}

/** A <select> of the languages; calls onChange(code) after loading the catalog. */
export function languagePicker(onChange) {
  const label = document.createElement("label");
  label.className = "lang-picker";
  const select = document.createElement("select");
  select.id = "lang";
  select.setAttribute("aria-label", t("ui.language"));
  for (const [code, name] of LANGS) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    if (code === lang) o.selected = true;
    select.append(o);
  }
  select.addEventListener("change", async () => {
    await loadLang(select.value);
    select.setAttribute("aria-label", t("ui.language"));
    onChange(select.value);
  });
  label.append(select);
  return label;
}
