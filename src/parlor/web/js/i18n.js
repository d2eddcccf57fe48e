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

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (params && params[name] !== undefined ? String(params[name]) : m));
}

/** The catalog text for key, with {name} placeholders filled from params. */
export function t(key, params) {
  const text = catalog[key] ?? fallback[key];
  return text === undefined ? key : fill(text, params);
}

/** A key built at run time (a topping, an option...): the text, or `otherwise` when no catalog has it. */
export function tMaybe(key, otherwise, params) {
  const text = catalog[key] ?? fallback[key];
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
