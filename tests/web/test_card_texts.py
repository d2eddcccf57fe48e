"""Mottainai card effect texts for the web front end (src/parlor/web/i18n/mottainai_cards.<lang>.json):
valid JSON, exactly the 54 card ids of the game's cards.json, English equal to cards.json, translations
complete, non-empty, different from English, with the same numbers, and with a glossary; each
translation also names the card in its language ("name")."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "src" / "parlor" / "web" / "i18n"
CARDS = ROOT / "src" / "parlor" / "games" / "mottainai" / "cards.json"
LANGS = ["en", "zh-Hant", "ja", "cs"]
TRANSLATED = LANGS[1:]
GLOSSARY = "_glossary"
NUMBER = re.compile(r"\d+")


def load(lang: str) -> dict[str, Any]:
    data = json.loads((I18N / f"mottainai_cards.{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"mottainai_cards.{lang}.json is not a JSON object"
    return data


def cards() -> list[dict[str, Any]]:
    return json.loads(CARDS.read_text(encoding="utf-8"))


def card_ids() -> set[str]:
    return {c["id"] for c in cards()}


def effects(lang: str) -> dict[str, str]:
    return {k: v["effect"] for k, v in load(lang).items() if k != GLOSSARY}


def test_fifty_four_cards() -> None:
    assert len(cards()) == 54
    assert len(card_ids()) == 54


@pytest.mark.parametrize("lang", LANGS)
def test_exact_ids(lang: str) -> None:
    data = load(lang)
    expected = card_ids() | ({GLOSSARY} if lang in TRANSLATED else set())
    assert set(data) == expected, (
        f"{lang}: missing {sorted(expected - set(data))}, extra {sorted(set(data) - expected)}"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_entries_are_non_empty_effects(lang: str) -> None:
    bad = [
        k
        for k, v in load(lang).items()
        if k != GLOSSARY
        and not (
            isinstance(v, dict)
            and set(v) <= {"effect", "name"}
            and isinstance(v.get("effect"), str)
            and v["effect"].strip()
            and (lang == "en" or (isinstance(v.get("name"), str) and v["name"].strip()))
        )
    ]
    assert not bad, f"{lang}: entries without a non-empty 'effect' string (and, translated, a 'name'): {bad}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_glossary(lang: str) -> None:
    glossary = load(lang)[GLOSSARY]
    assert isinstance(glossary, dict) and glossary, f"{lang}: the glossary is not a non-empty object"
    empty = [k for k, v in glossary.items() if not k.strip() or not isinstance(v, str) or not v.strip()]
    assert not empty, f"{lang}: empty glossary entries: {empty}"


def test_glossaries_cover_the_same_concepts() -> None:
    concepts = {lang: set(load(lang)[GLOSSARY]) for lang in TRANSLATED}
    first = concepts[TRANSLATED[0]]
    for lang, keys in concepts.items():
        assert keys == first, f"{lang}: glossary concepts differ: {sorted(keys ^ first)}"


def test_english_equals_cards_json() -> None:
    assert effects("en") == {c["id"]: c["effect"] for c in cards()}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_numbers_match_english(lang: str) -> None:
    en, other = effects("en"), effects(lang)
    wrong = {}
    for card_id, text in en.items():
        want = Counter(NUMBER.findall(text))
        got = Counter(NUMBER.findall(other[card_id]))
        if any(got[n] != count for n, count in want.items()):
            wrong[card_id] = (dict(want), dict(got))
    assert not wrong, f"{lang}: numbers differ from English (english, {lang}): {wrong}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translated(lang: str) -> None:
    en, other = effects("en"), effects(lang)
    same = [k for k in en if other[k].strip() == en[k].strip()]
    assert not same, f"{lang}: effects identical to English: {same}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_card_names_in_effects_follow_the_language(lang: str) -> None:
    """A card that an English effect names is named in the translation too, by its name in that
    language (the name the table shows on the card)."""
    local = {k: v.get("name") or "" for k, v in load(lang).items() if k != GLOSSARY}
    en, other = effects("en"), effects(lang)
    missing = {
        card_id: sorted(
            c["name"]
            for c in cards()
            if re.search(rf"\b{re.escape(c['name'])}\b", text) and (local[c["id"]] or c["name"]) not in other[card_id]
        )
        for card_id, text in en.items()
    }
    missing = {k: v for k, v in missing.items() if v}
    assert not missing, f"{lang}: card names lost in translation: {missing}"
