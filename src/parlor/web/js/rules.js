// The help pages (/static/rules.html#<game>[/cards]): each game's rules in the reader's language
// (i18n/rules.<lang>.json, our own words) and a reference of its cards or tiles with the very texts
// the table shows (Mottainai's 54 cards, Sweet Nose's shop tiles, Mamma Mia!'s recipes).
import { h } from "./dom.js";
import { currentLang, languagePicker, loadLang, t, tMaybe } from "./i18n.js";
import { loadCardTexts, TEXTS_LOADED } from "./card_text.js";

const GAMES = ["mamma-mia", "sweet-nose", "mottainai"];
const app = document.getElementById("app");
const texts = new Map(); // lang -> rules JSON

function route() {
  const [game, part] = location.hash.slice(1).split("/");
  return { game: GAMES.includes(game) ? game : GAMES[0], part: part || "" };
}

async function rulesFor(lang) {
  if (!texts.has(lang)) {
    const res = await fetch(`/static/i18n/rules.${lang}.json`);
    texts.set(lang, res.ok ? await res.json() : {});
  }
  return texts.get(lang);
}

// A renderer's ctx for drawing cards outside a table: nobody's seat, no view.
function ctx() {
  return { t, tMaybe, you: null, view: null, seatName: (s) => t("ui.player_n", { n: s + 1 }), h };
}

async function mammaMiaReference() {
  const { orderCard, KINDS } = await import("../games/mamma_mia.js");
  const c = ctx();
  const deck = "red"; // one deck shows the recipes; every colour has the same eight with its own topping
  const kinds = [
    ["four", KINDS.filter((k) => k !== "salami").map((k) => `${deck}_four_${k}`)],
    ["mixed", [`${deck}_mixed`]],
    ["bombastica", [`${deck}_bombastica`]],
    ["monotoni", [`${deck}_monotoni`]],
    ["minimale", [`${deck}_minimale`]],
  ];
  return h(
    "div",
    { class: "reference mm-reference" },
    h("p", { class: "muted" }, t("help.mm_decks")),
    kinds.map(([kind, orders]) =>
      h("section", { class: "ref-item card", "data-ref": kind }, h("h3", {}, t(`help.mm.${kind}.title`)),
        h("div", { class: "mini-cards" }, orders.map((o) => orderCard(c, o))), h("p", {}, t(`help.mm.${kind}.text`))),
    ),
  );
}

async function sweetNoseReference() {
  const ids = ["l1_stash", "l1_twin_trade", "l2_take_back", "l2_market_to_bowl", "l3_bowl_swap", "l3_send_back", "l4_rearrange", "l4_double_trade", "l5_change_taste", "l5_ignore_market"];
  return h(
    "div",
    { class: "reference sn-reference" },
    ids.map((id) =>
      h("section", { class: "ref-item card", "data-ref": id }, h("h3", {}, h("span", { class: "lvl-badge" }, t("help.level", { n: id.slice(1, 2) })), " ", t(`sn.tile.${id}`)),
        h("p", {}, t(`sn.tile_text.${id}`))),
    ),
  );
}

async function mottainaiReference() {
  await loadCardTexts(currentLang());
  const mod = await import("../games/mottainai.js");
  const { CARDS } = await import("../games/mottainai_cards.js");
  const c = ctx();
  const byMaterial = mod.MATERIALS.map((m) => [m, Object.keys(CARDS).filter((id) => CARDS[id][1] === m)]);
  return h(
    "div",
    { class: "reference mt-reference" },
    byMaterial.map(([m, ids]) =>
      h(
        "section",
        { class: "ref-group", "data-material": m },
        h("h3", {}, t("help.mt_group", { material: tMaybe(`mt.mat.${m}`, m), role: tMaybe(`mt.role.${mod.ROLE_OF[m]}`, m), n: ids.length })),
        ids.map((id) => {
          const info = mod.cardInfo(id);
          return h("div", { class: `ref-item card mt-ref mat-${m}`, "data-ref": id },
            h("h4", {}, info.name, " ", h("small", { class: "muted" }, `${tMaybe(`mt.mat.${m}`, m)} ${info.value}`)),
            h("p", {}, info.effect));
        }),
      ),
    ),
  );
}

const REFERENCES = { "mamma-mia": mammaMiaReference, "sweet-nose": sweetNoseReference, mottainai: mottainaiReference };

async function render() {
  const { game, part } = route();
  const lang = currentLang();
  const rules = (await rulesFor(lang))[game] || (await rulesFor("en"))[game] || [];
  const title = tMaybe(`game.${game}.title`, game);
  document.title = `${t("help.rules_of", { game: title })} — Parlor`;
  document.getElementById("game-title").textContent = t("help.rules");
  const reference = await REFERENCES[game]();
  app.replaceChildren(
    h(
      "nav",
      { class: "rules-nav", "aria-label": t("help.rules") },
      GAMES.map((g) => h("a", { href: `#${g}`, class: `button${g === game ? " primary" : ""}`, "aria-current": g === game ? "page" : null }, tMaybe(`game.${g}.title`, g))),
      h("a", { href: "/", class: "button" }, t("help.to_lobby")),
    ),
    h(
      "article",
      { class: "card rules-text", id: "rules", lang },
      h("h1", {}, t("help.rules_of", { game: title })),
      rules.map(([heading, paragraphs]) => h("section", {}, h("h2", {}, heading), paragraphs.map((p) => h("p", {}, p)))),
      h("p", {}, h("a", { href: `#${game}/cards` }, t(`help.reference.${game}`))),
    ),
    h("article", { class: "card reference-box", id: "cards" }, h("h2", {}, t(`help.reference.${game}`)), reference),
  );
  document.body.dataset.game = game;
  document.body.dataset.lang = lang;
  if (part === "cards") document.getElementById("cards").scrollIntoView();
  else window.scrollTo(0, 0);
}

async function main() {
  await loadLang();
  document.getElementById("lang-slot").replaceChildren(languagePicker(() => render()));
  window.addEventListener("hashchange", () => render());
  window.addEventListener(TEXTS_LOADED, () => route().game === "mottainai" && render());
  await render();
  document.body.dataset.ready = "1";
}

main().catch((err) => {
  app.textContent = String(err);
});
