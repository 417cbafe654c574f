"""Numbers that Python puts into translated sentences come out in Persian digits in
Persian, and only the numbers: a name, even "Max2000" or "007", is left as typed."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import polib
import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext, npgettext_lazy, pgettext
from pytest_django.fixtures import Settings

from games import errors
from games.families.resistance.words import phrases_for
from numerals.translation import Sentence


def test_numbers_become_persian_and_names_stay_as_typed() -> None:
    with translation.override("fa"):
        text = gettext("Voted %(done)d of %(total)d · waiting for: %(names)s") % {
            "done": 3,
            "total": 5,
            "names": "Max2000, 007",
        }
    assert text == "۳ از ۵ رأی داده‌اند · در انتظار: Max2000, 007"
    assert type(text) is str


@pytest.mark.parametrize("language", ["ru", "en"])
def test_russian_and_english_are_plain_strings_as_before(language: str) -> None:
    with translation.override(language):
        sentence = gettext("Voted %(done)d of %(total)d · waiting for: %(names)s")
        assert type(sentence) is str
        text = sentence % {"done": 3, "total": 5, "names": "Max2000"}
    assert "3" in text and "5" in text and "Max2000" in text


def test_the_game_words_plural_sentences() -> None:
    phrases = phrases_for("partisans")
    with translation.override("fa"):
        assert phrases.fails % {"n": 2} == "۲ خرابکاری"
        assert phrases.mission_fails % {"mission": 4, "fails": 1} == (
            "عملیات ۴ با ۱ خرابکاری شکست خورد."
        )
        assert ngettext("%(n)d player", "%(n)d players", 7) % {"n": 7} == "۷ بازیکن"
    with translation.override("ru"):
        assert phrases.fails % {"n": 2} == "2 срыва"


def test_a_game_error_message_in_persian() -> None:
    with translation.override("fa"):
        message = str(errors.TableNotFull(taken=3, total=5))
    assert message == "بازی وقتی شروع می‌شود که همه‌ی صندلی‌ها پر شوند (۳ از ۵)."


def test_every_printf_form_is_filled_as_python_would() -> None:
    sentence = Sentence("%d of %s, %05.1f%% and %(x)r", "fa")
    with pytest.raises(TypeError):
        sentence % (1, 2)  # the error a plain str raises
    assert Sentence("%d of %s", "fa") % (12, "Max7") == "۱۲ of Max7"
    assert Sentence("%.1f%%", "fa") % 45.25 == "۴۵.۲%"
    assert Sentence("%(n)s seats", "fa") % {"n": 4} == "۴ seats"
    # A bool is not a number to show; a name that is all digits is still a name.
    assert Sentence("%(a)s / %(b)s", "fa") % {"a": True, "b": "2024"} == "True / 2024"
    # No numbers: exactly the plain result, with or without params.
    assert Sentence("%(who)s", "fa") % {"who": "Оля"} == "Оля"
    assert Sentence("100%% sure", "fa") % () == "100% sure"


def test_lazy_plural_takes_its_count_from_the_params() -> None:
    lazy = npgettext_lazy("partisans", "%(n)d sabotage", "%(n)d sabotages", "n")
    with translation.override("fa"):
        assert lazy % {"n": 3} == "۳ خرابکاری"
    with translation.override("en"):
        assert lazy % {"n": 3} == "3 sabotages"


def test_a_sentence_survives_copies_and_pickles() -> None:
    with translation.override("fa"):
        sentence = pgettext("partisans", "Operation %(n)d")
    assert isinstance(sentence, Sentence)
    pickled = pickle.loads(pickle.dumps(sentence))  # noqa: S301 - our own bytes
    for twin in (copy.deepcopy(sentence), pickled):
        assert twin % {"n": 2} == "عملیات ۲"


def _catalogue(path: Path, language: str, messages: dict[str, str]) -> None:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": language}
    for msgid, msgstr in messages.items():
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    folder = path / language / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po.save_as_mofile(str(folder / "django.mo"))


def test_a_persian_string_not_translated_yet_falls_back_to_english(
    tmp_path: Path, settings: Settings
) -> None:
    """Not to Russian, the site's default: a string added since the Persian catalogue
    was last brought up to date should at least be one a Persian reader may read."""
    _catalogue(tmp_path, "ru", {"Lobby": "Лобби", "Only in Russian": "Только здесь"})
    _catalogue(tmp_path, "fa", {"Lobby": "لابی"})
    settings.LOCALE_PATHS = [tmp_path]
    only_russian = "Only in Russian"  # a variable: not a msgid for makemessages
    with translation.override("fa"):
        assert gettext("Lobby") == "لابی"
        assert gettext(only_russian) == "Only in Russian"
    with translation.override("ru"):
        assert gettext(only_russian) == "Только здесь"
