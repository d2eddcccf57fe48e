// Mottainai card effect texts (i18n/mottainai_cards.<lang>.json), loaded on demand and cached per
// language. Missing languages or ids fall back to English; an unknown id gives "".
const FALLBACK = "en";
export const TEXTS_LOADED = "parlor:card-texts-loaded";
const cache = new Map(); // lang -> Promise<object>
const ready = new Map(); // lang -> object, once loaded (for synchronous rendering)

function load(lang) {
  if (!cache.has(lang)) {
    const p = fetch(`/static/i18n/mottainai_cards.${lang}.json`)
      .then((res) => {
        if (res.status === 404) return {}; // no such language: cached as empty, English is used
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return res.json();
      })
      .then((texts) => {
        ready.set(lang, texts);
        // Pages that draw synchronously redraw when this event arrives (table.js, replay.js).
        globalThis.dispatchEvent?.(new Event(TEXTS_LOADED));
        return texts;
      })
      .catch(() => {
        cache.delete(lang); // a network or server error: try again next time
        return {};
      });
    cache.set(lang, p);
  }
  return cache.get(lang);
}

function effectOf(texts, cardId) {
  if (cardId === "_glossary" || !texts || !Object.prototype.hasOwnProperty.call(texts, cardId)) return "";
  const entry = texts[cardId];
  return entry && typeof entry.effect === "string" ? entry.effect : "";
}

/** The card's name in lang (loaded texts), or "" (the caller keeps the English name). */
export function nameNow(cardId, lang) {
  const code = lang || FALLBACK;
  const texts = ready.get(code);
  if (!texts || cardId === "_glossary" || !Object.prototype.hasOwnProperty.call(texts, cardId)) return "";
  const entry = texts[cardId];
  return entry && typeof entry.name === "string" ? entry.name : "";
}

/** The effect text now, if lang's (or the English) texts are loaded; else "" and loading starts.
 * For renderers that draw synchronously: the next render after loading shows the translation. */
export function effectNow(cardId, lang) {
  const code = lang || FALLBACK;
  if (!ready.has(code) || !ready.has(FALLBACK)) preloadCardTexts(code);
  return effectOf(ready.get(code), cardId) || effectOf(ready.get(FALLBACK), cardId);
}

/** Loads lang's texts and the English fallback (resolves when both are ready for effectNow). */
export async function loadCardTexts(lang) {
  await Promise.all([load(FALLBACK), load(lang || FALLBACK)]);
}

/** Starts loading lang's texts (and the English fallback) without waiting for them. */
export function preloadCardTexts(lang) {
  load(FALLBACK);
  if (lang && lang !== FALLBACK) load(lang);
}
