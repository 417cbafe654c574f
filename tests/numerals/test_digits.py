"""The ``digits`` and ``bdi`` filters: Persian digits in what people read, ASCII
everywhere else, and nothing at all changes in Russian or English."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeData, mark_safe

from numerals.digits import NativeInt, localize, localize_text, numerals_for
from numerals.templatetags.numerals import bdi, digits

PERSIAN = "۰۱۲۳۴۵۶۷۸۹"


def render(source: str, language: str, **context: object) -> str:
    template = engines["django"].from_string("{% load i18n numerals %}" + source)
    with translation.override(language):
        return template.render(context)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_ascii_languages_get_the_value_back_untouched(language: str) -> None:
    with translation.override(language):
        for value in (7, 0.25, "Step 3 of 12", "45%", None, True):
            assert digits(value) is value


def test_persian_text_gets_persian_digits_and_percent_sign() -> None:
    with translation.override("fa"):
        assert digits("Step 3 of 12") == "Step ۳ of ۱۲"
        assert digits("0123456789") == PERSIAN
        assert digits("45%") == "۴۵٪"
        assert digits("100% · 3 of 3") == "۱۰۰٪ · ۳ of ۳"
        # A percent sign that does not follow a number is not a percentage.
        assert digits("% 5") == "% ۵"
        assert digits(None) is None
        assert digits(True) is True


def test_a_persian_number_is_still_a_number() -> None:
    with translation.override("fa"):
        seven = digits(7)
    assert isinstance(seven, NativeInt)
    assert seven == 7 and seven + 1 == 8 and seven > 6
    assert str(seven) == "۷"
    assert f"{seven:03d}" == "۰۰۷"
    # It travels (a cache, a channel layer, JSON for a program) as the number it is.
    assert json.dumps({"n": seven}) == '{"n": 7}'
    assert pickle.loads(pickle.dumps(seven)) == 7  # noqa: S301 - our own bytes
    assert str(copy.deepcopy(seven)) == "۷"


def test_html_keeps_its_markup_and_stays_safe() -> None:
    svg = mark_safe('<svg viewBox="0 0 360 200"><text x="40">45% &#38; 12</text></svg>')
    with translation.override("fa"):
        shown = digits(svg)
    assert isinstance(shown, SafeData)
    assert shown == '<svg viewBox="0 0 360 200"><text x="40">۴۵٪ &#38; ۱۲</text></svg>'


def test_a_regional_persian_code_counts_as_persian() -> None:
    assert numerals_for("fa-IR") is numerals_for("fa")
    assert numerals_for("ru") is None and numerals_for("en") is None
    assert localize_text("1", "fa-IR") == "۱"
    assert localize(2, "en") == 2


def test_blocktranslate_counts_and_shows_persian_digits() -> None:
    source = (
        "{% blocktranslate count n=n|digits %}{{ n }} player{% plural %}"
        "{{ n }} players{% endblocktranslate %}"
    )
    assert render(source, "fa", n=7) == "۷ بازیکن"
    assert render(source, "en", n=1) == "1 player"
    assert render(source, "en", n=7) == "7 players"
    assert render(source, "ru", n=5) == "5 игроков"


def test_numbers_people_read_are_persian_while_values_sent_stay_ascii() -> None:
    """The filter goes where a number is shown; a form value, a link or a data-
    attribute beside it keeps the number the server reads."""
    source = (
        '<a href="?page={{ n }}" data-n="{{ n }}">{{ n|digits }}</a>'
        '<input type="hidden" name="seat" value="{{ n }}">'
        '<option value="{{ n }}">{{ n|digits }}</option>'
    )
    assert render(source, "fa", n=10) == (
        '<a href="?page=10" data-n="10">۱۰</a>'
        '<input type="hidden" name="seat" value="10">'
        '<option value="10">۱۰</option>'
    )
    assert render(source, "ru", n=10) == (
        '<a href="?page=10" data-n="10">10</a>'
        '<input type="hidden" name="seat" value="10">'
        '<option value="10">10</option>'
    )


def test_bdi_isolates_a_name_and_escapes_it() -> None:
    assert bdi("Оля!") == "<bdi>Оля!</bdi>"
    assert bdi("<b>Max</b>") == "<bdi>&lt;b&gt;Max&lt;/b&gt;</bdi>"
    assert bdi("") == "" and bdi(None) is None
    source = (
        "{% blocktranslate with host=name|bdi %}host: {{ host }}{% endblocktranslate %}"
    )
    assert render(source, "fa", name="Max2000") == "میزبان: <bdi>Max2000</bdi>"
    # A name keeps its own digits, in Persian too.
    assert render("{{ name|bdi }}", "fa", name="R2D2 & 007") == (
        "<bdi>R2D2 &amp; 007</bdi>"
    )
