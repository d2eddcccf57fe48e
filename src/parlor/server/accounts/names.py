"""Players' names: what a new name may hold, and when two names look alike.

A name is shown to other players as the player who holds it, so a name that *looks* like another's
must not be taken (``Grace``, and ``Grace`` written with a Cyrillic a, U+0430, or followed by an
invisible Hangul filler). Three rules, checked in this order:

* No invisible character: none of Unicode's default-ignorable code points (zero-width spaces and
  joiners, the combining grapheme joiner, the Hangul fillers, variation selectors, ...).
* One script: a name's letters are of one writing system (characters common to all, such as digits,
  spaces and ``_ - .``, and inherited marks such as accents, go with any). Japanese (Han, Hiragana,
  Katakana) and Korean (Han, Hangul) and Chinese with Bopomofo mix as their writing does (the
  "highly restrictive" level of Unicode UTS #39).
* No name whose *skeleton* another account holds: the skeleton (UTS #39, section 4) maps every
  character to the prototype it may be mistaken for (Cyrillic a → ``a``, ``0`` → ``O``, ``I`` → ``l``,
  ``m`` → ``rn``), and is taken of the name case folded as well, so ``Grace``, ``GRACE`` and ``Grace``
  with a Cyrillic a have one skeleton. The database keeps each account's skeleton under a unique
  index, so two look-alike sign-ups racing each other cannot both win.

The confusable pairs and the scripts are Unicode's own data (confusables.txt, Scripts.txt) as the
``confusable_homoglyphs`` package ships them.
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): characters that render as
# nothing. Python's unicodedata does not expose this property and the confusables package does not
# either; the property is this short, stable list of ranges, so it is quoted here rather than pulling
# in a regular-expression engine for one property.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip

# Scripts that go together in one name (UTS #39 "highly restrictive"); any single script goes alone.
SCRIPTS_TOGETHER = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"HAN", "BOPOMOFO"}),
    frozenset({"HAN", "HANGUL"}),
)
ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
LRM = "\u200e"  # the package's data wraps right-to-left characters in left-to-right marks


def is_invisible(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def scripts_of(name: str) -> set[str]:
    """The scripts of the name's characters, besides those common to every script."""
    return {categories.alias(c) for c in name} - ANY_SCRIPT


def mixes_scripts(name: str) -> bool:
    scripts = scripts_of(name)
    return len(scripts) > 1 and not any(scripts <= together for together in SCRIPTS_TOGETHER)


@lru_cache(maxsize=65536)
def _prototype(char: str) -> str:
    """The character (or sequence) ``char`` may be mistaken for: its prototype in confusables.txt.

    The package keeps the file's pairs both ways (a prototype lists every character mapped to it, a
    character mapped to a prototype lists that one alone): a character with one partner that has
    several is mapped to it; two characters that are each other's only partner are one pair whose
    direction the data no longer tells, so both map to the smaller (the same skeleton either way)."""
    entries = confusables.confusables_data.get(char)
    if not entries or len(entries) > 1:
        return char
    target = entries[0]["c"].replace(LRM, "")
    if len(target) != 1:
        return target
    back = confusables.confusables_data.get(target) or ()
    return target if len(back) > 1 else min(char, target)


def _skeleton(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in decomposed))


def name_skeleton(name: str) -> str:
    """What the name looks like: two names with one skeleton may be taken for each other. The skeleton
    of the name as written (capital ``I`` looks like ``l``), then case folded, then its skeleton again
    (so that case never tells two names apart)."""
    name = unicodedata.normalize("NFKC", name)
    return _skeleton(_skeleton(name).casefold())


def look_alike_problem(name: str) -> tuple[str, str] | None:
    """Why ``name`` (already NFKC and of allowed characters) could pass for another, as an error code
    and its message, or None."""
    if any(is_invisible(c) for c in name):
        return "name_invisible", "a name cannot hold invisible or filler characters"
    if mixes_scripts(name):
        return "name_mixed_scripts", (
            "a name uses one alphabet: its letters cannot mix scripts (such as Latin and Cyrillic)"
        )
    return None


def skeleton_key(name: str) -> str:
    """The name's skeleton as stored (SHA-256, a fixed size whatever the skeleton's length)."""
    return hashlib.sha256(name_skeleton(name).encode("utf-8", "surrogatepass")).hexdigest()
