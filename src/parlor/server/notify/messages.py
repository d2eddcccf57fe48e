# ruff: noqa: RUF001  (the Japanese and Chinese words use their own full-width punctuation)
"""The words of every notification, in the four languages of the site's pages (en, cs, ja, zh-Hant).

A notification is stored as a ``text_key`` and its ``params`` and worded here for its reader. The
params are only what every reader of it may know (a game's title, a table's id, a place, a player's
name): never a card, so no message can tell a seat what it could not see.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "cs", "ja", "zh-Hant")
DEFAULT_LANGUAGE = "en"

# text_key -> language -> (title, body); the body is formatted with the notification's params.
MESSAGES: dict[str, dict[str, tuple[str, str]]] = {
    "your_turn": {
        "en": ("Your turn", "It is your turn in {game}."),
        "cs": ("Jste na tahu", "Ve hře {game} jste na tahu."),
        "ja": ("あなたの番です", "{game}であなたの番です。"),
        "zh-Hant": ("輪到你了", "在{game}中輪到你了。"),
    },
    "game_over": {
        "en": ("Game over", "Your game of {game} is over: you placed {place} of {players}."),
        "cs": ("Konec hry", "Vaše hra {game} skončila: umístili jste se {place}. z {players}."),
        "ja": ("ゲーム終了", "{game}のゲームが終了しました。{players}人中{place}位でした。"),
        "zh-Hant": ("遊戲結束", "你的{game}遊戲結束了：你在{players}人中排名第{place}。"),
    },
    "invitation": {
        "en": ("Invitation", "{inviter} invites you to a table of {game}."),
        "cs": ("Pozvánka", "{inviter} vás zve ke stolu hry {game}."),
        "ja": ("招待", "{inviter}さんが{game}のテーブルに招待しています。"),
        "zh-Hant": ("邀請", "{inviter}邀請你加入{game}的牌桌。"),
    },
    "tournament_round": {
        "en": ("Tournament round", "Round {round} of {tournament} begins: your table is ready."),
        "cs": ("Kolo turnaje", "Začíná {round}. kolo turnaje {tournament}: váš stůl je připraven."),
        "ja": ("トーナメントのラウンド", "{tournament}の第{round}ラウンドが始まります。テーブルの準備ができました。"),
        "zh-Hant": ("錦標賽回合", "{tournament}第{round}輪開始：你的牌桌已準備好。"),
    },
}

# The e-mail's own lines around the message.
MAIL: dict[str, dict[str, str]] = {
    "open": {
        "en": "Open the table:\n{url}",
        "cs": "Otevřít stůl:\n{url}",
        "ja": "テーブルを開く:\n{url}",
        "zh-Hant": "開啟牌桌：\n{url}",
    },
    "unsubscribe": {
        "en": "To stop these e-mails ({kind}), open:\n{url}",
        "cs": "Chcete-li tyto e-maily ({kind}) zastavit, otevřete:\n{url}",
        "ja": "このメール（{kind}）の配信を停止するには:\n{url}",
        "zh-Hant": "若要停止這些郵件（{kind}），請開啟：\n{url}",
    },
    "verify_subject": {
        "en": "Confirm your e-mail address",
        "cs": "Potvrďte svou e-mailovou adresu",
        "ja": "メールアドレスの確認",
        "zh-Hant": "確認你的電子郵件地址",
    },
    "verify_body": {
        "en": "Open this link to receive Parlor's notifications at this address:\n{url}",
        "cs": "Otevřete tento odkaz, chcete-li na tuto adresu dostávat oznámení Parlor:\n{url}",
        "ja": "このアドレスで Parlor の通知を受け取るには、次のリンクを開いてください:\n{url}",
        "zh-Hant": "開啟此連結以在此地址接收 Parlor 的通知：\n{url}",
    },
    "unsubscribed": {
        "en": "You will no longer receive these notifications ({kind}) by e-mail or push.",
        "cs": "Tato oznámení ({kind}) už e-mailem ani push nedostanete.",
        "ja": "この通知（{kind}）はメールやプッシュで届かなくなります。",
        "zh-Hant": "你將不再透過電子郵件或推播收到這些通知（{kind}）。",
    },
    "unsubscribe_confirm": {
        "en": "Stop these notifications ({kind}) by e-mail and push?",
        "cs": "Zastavit tato oznámení ({kind}) e-mailem a push?",
        "ja": "この通知（{kind}）のメールとプッシュを停止しますか？",
        "zh-Hant": "停止透過電子郵件和推播接收這些通知（{kind}）？",
    },
    "unsubscribe_button": {"en": "Stop them", "cs": "Zastavit", "ja": "停止する", "zh-Hant": "停止"},
    "verified": {
        "en": "Your e-mail address is confirmed.",
        "cs": "Vaše e-mailová adresa je potvrzena.",
        "ja": "メールアドレスが確認されました。",
        "zh-Hant": "你的電子郵件地址已確認。",
    },
    "bad_link": {
        "en": "This link is not valid (it may be incomplete).",
        "cs": "Tento odkaz není platný.",
        "ja": "このリンクは無効です。",
        "zh-Hant": "此連結無效。",
    },
}


def language_of(settings: dict[str, Any]) -> str:
    """The reader's language: the one chosen on the account page, else the one of their last page."""
    for choice in (settings.get("language"), settings.get("page_language")):
        if choice in LANGUAGES:
            return str(choice)
    return DEFAULT_LANGUAGE


def page_language(tag: Any) -> str | None:
    """One of the site's languages for a page's language tag (``cs-CZ`` → ``cs``), or None."""
    if not isinstance(tag, str):
        return None
    if tag in LANGUAGES:
        return tag
    lowered = tag.lower()
    if lowered.startswith("zh"):
        return "zh-Hant"
    base = lowered.split("-")[0]
    return base if base in LANGUAGES else None


class _Missing(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:  # a param a caller left out shows as "?" rather than failing
        return "?"


# The pages' own word lists: a game's title in each language is the one its pages show.
I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"


@cache
def _page_words(language: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{language}.json").read_text(encoding="utf-8")))


@cache
def _game_titles(language: str) -> dict[str, str]:
    """The English title of each game (as a notification stores it) -> its title in ``language``."""
    english, own = _page_words(DEFAULT_LANGUAGE), _page_words(language)
    titles = {key: text for key, text in english.items() if key.startswith("game.") and key.endswith(".title")}
    return {text: own.get(key, text) for key, text in titles.items()}


def kind_name(kind: str, language: str) -> str:
    """A kind of notification (``your_turn``) as the account page's settings name it in ``language``."""
    key = f"notify.kind.{kind}"
    own = _page_words(language if language in LANGUAGES else DEFAULT_LANGUAGE)
    return own.get(key) or _page_words(DEFAULT_LANGUAGE).get(key, kind)


def worded(text_key: str, params: dict[str, Any], language: str) -> tuple[str, str]:
    """(title, body) of a notification in ``language`` (the game named by its title there)."""
    entry = MESSAGES.get(text_key)
    if entry is None:
        return (text_key, "")
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    title, body = entry[language]
    params = dict(params)
    if isinstance(params.get("game"), str):
        params["game"] = _game_titles(language).get(params["game"], params["game"])
    return title, body.format_map(_Missing(params))


def mail_line(key: str, language: str, **params: Any) -> str:
    """One of the e-mails' and mailed pages' own lines in ``language`` (a ``kind`` named in its words)."""
    entry = MAIL[key]
    if isinstance(params.get("kind"), str):
        params["kind"] = kind_name(params["kind"], language)
    return (entry.get(language) or entry[DEFAULT_LANGUAGE]).format(**params)
