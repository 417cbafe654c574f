"""The committed translation catalogues are honest: every .po has a .mo compiled
from exactly its current translations (newcomers run the site without compiling
messages), and the Russian and Persian catalogues are complete, with nothing left
fuzzy. The Persian one also keeps every placeholder, writes its numbers in Persian
digits and names the «پارتیزان» scenario's roles as the seed (004) writes them."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
PO_FILES = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))

Key = tuple[str, str, str]
Translation = str | tuple[tuple[int, str], ...]


def _key(entry: polib.POEntry | polib.MOEntry) -> Key:
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def _translation(entry: polib.POEntry | polib.MOEntry) -> Translation:
    if entry.msgid_plural:
        return tuple(sorted((int(n), text) for n, text in entry.msgstr_plural.items()))
    return str(entry.msgstr)


def _relative(path: Path) -> str:
    return str(path.relative_to(LOCALE_DIR))


def test_there_are_catalogues() -> None:
    assert {path.parts[-3] for path in PO_FILES} >= {"ru", "en", "fa"}


@pytest.mark.parametrize("po_path", PO_FILES, ids=_relative)
def test_mo_is_compiled_from_the_po(po_path: Path) -> None:
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{_relative(mo_path)} is missing: run compilemessages"
    po = polib.pofile(str(po_path))
    mo = polib.mofile(str(mo_path))
    expected = {_key(entry): _translation(entry) for entry in po.translated_entries()}
    compiled = {_key(entry): _translation(entry) for entry in mo if entry.msgid}
    stale = sorted(
        key[1]
        for key in expected.keys() | compiled.keys()
        if expected.get(key) != compiled.get(key)
    )
    assert not stale, (
        f"{_relative(mo_path)} is stale: run compilemessages ({stale[:5]})"
    )
    assert mo.metadata.get("Plural-Forms") == po.metadata.get("Plural-Forms")


def _of(*languages: str) -> list[Path]:
    return [path for path in PO_FILES if path.parts[-3] in languages]


@pytest.mark.parametrize("po_path", _of("ru", "fa"), ids=_relative)
def test_russian_and_persian_are_complete(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert not untranslated, f"untranslated: {untranslated[:10]}"
    assert not fuzzy, f"fuzzy: {fuzzy[:10]}"


def _translations(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
TAG = re.compile(r"<[^>]+>")


@pytest.mark.parametrize("po_path", _of("fa"), ids=_relative)
def test_persian_keeps_placeholders_tags_and_plural_forms(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    # Persian counts like English: a noun after a number stays singular, so both
    # forms read the same, but the catalogue says which one gettext picks.
    assert po.metadata["Plural-Forms"] == "nplurals=2; plural=(n > 1);"
    wrong = [
        entry.msgid
        for entry in po.translated_entries()
        for text in _translations(entry)
        if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(entry.msgid))
        or sorted(TAG.findall(text)) != sorted(TAG.findall(entry.msgid))
    ]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("po_path", _of("fa"), ids=_relative)
def test_persian_writes_numbers_in_persian_digits(po_path: Path) -> None:
    """Numbers in the Persian text are ۰–۹; ASCII digits only where they are not
    Persian text: a placeholder, code (<code>, "UTF-8", "v1") or an isolated
    value (between U+2066 and U+2069)."""
    not_prose = re.compile(
        r"%\(\w+\)[sd]|<code>.*?</code>|<[^>]+>|[A-Za-z][\w-]*|\u2066.*?\u2069"
    )
    ascii_digits = [
        text
        for entry in polib.pofile(str(po_path))
        for text in _translations(entry)
        if re.search(r"[0-9]", not_prose.sub("", text))
    ]
    assert not ascii_digits, ascii_digits[:5]


# The scenario's roles, as the seed writes them (without the zero-width non-joiner).
SEED_ROLES = {
    "general": "ژنرال",
    "demolisher": "تخریبچی",
    "traitor soldier": "سرباز خائن",
    "partisan": "پارتیزان",
    "radio operator": "بیسیمچی",
    "colonel": "سرهنگ",
    "nurse": "پرستار",
    "sniper": "تکتیرانداز",
    "plain soldier": "سرباز ساده",
}


@pytest.mark.parametrize("po_path", _of("fa"), ids=_relative)
def test_persian_names_the_mafia_roles_as_the_seed_does(po_path: Path) -> None:
    mafia = [
        entry
        for entry in polib.pofile(str(po_path))
        if any(
            path.startswith("games/families/mafia/")
            for path, _line in entry.occurrences
        )
    ]
    assert mafia, "no string of the mafia family in the Persian catalogue"
    wrong = [
        (role, entry.msgid)
        for entry in mafia
        for role, persian in SEED_ROLES.items()
        if role in entry.msgid.lower()
        and not all(persian in text for text in _translations(entry))
    ]
    assert not wrong, wrong[:5]


_PACKAGES = ("accounts", "api", "clubs", "config", "games", "history", "live")
_SOURCES = [
    path
    for folder in (*_PACKAGES, "numerals", "voice")
    for path in sorted((LOCALE_DIR.parent / folder).rglob("*.py"))
    if "migrations" not in path.parts
]
_CALL_IN_FSTRING = re.compile(r"\{[^{}]*\b(?:n?p?gettext(?:_lazy)?|_)\(")


def test_no_sentence_is_translated_inside_an_f_string() -> None:
    """``makemessages`` (xgettext) does not look inside an f-string's braces: a
    sentence marked there never reaches the catalogues, and every language shows it
    in English (the turn clock's two sentences did, until they moved to a
    template)."""
    import io
    import tokenize

    found = []
    for path in _SOURCES:
        text = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type != tokenize.STRING:
                continue
            prefix = token.string[: token.string.find(token.string[-1])].lower()
            if "f" in prefix and _CALL_IN_FSTRING.search(token.string):
                found.append(f"{path.relative_to(LOCALE_DIR.parent)}:{token.start[0]}")
    assert not found, found


def test_the_turn_clock_speaks_the_pages_language() -> None:
    import datetime as dt

    from django.utils import timezone, translation

    from games.models import Game
    from live.parts import render_state

    game = Game(code="CLOCK1", status=Game.Status.PLAYING, version=3, turn=2)
    game.deadline = timezone.now() + dt.timedelta(seconds=90)
    with translation.override("ru"):
        russian = render_state(game)
    with translation.override("fa"):
        persian = render_state(game)
    assert "На это решение осталось:" in russian and "Время вышло" in russian
    assert "زمان باقی‌مانده برای این تصمیم:" in persian
    assert "Time left" not in russian + persian
