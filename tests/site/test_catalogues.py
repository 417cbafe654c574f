"""The committed translation catalogues are honest: every .po has a .mo compiled
from exactly its current translations (newcomers run the site without compiling
messages), and the Russian catalogue is complete, with nothing left fuzzy."""

from __future__ import annotations

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
    assert {path.parts[-3] for path in PO_FILES} >= {"ru", "en"}


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


@pytest.mark.parametrize(
    "po_path", [path for path in PO_FILES if path.parts[-3] == "ru"], ids=_relative
)
def test_russian_is_complete(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert not untranslated, f"untranslated: {untranslated[:10]}"
    assert not fuzzy, f"fuzzy: {fuzzy[:10]}"
