"""Lists of players' names: isolated and joined by «، » in Persian, unchanged in a
left-to-right language."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from numerals.lists import isolated, names_list


def test_a_persian_list_isolates_every_name_and_uses_the_persian_comma() -> None:
    with translation.override("fa"):
        assert names_list(["Катя", "Max 2", "علی"]) == (
            "\u2068Катя\u2069، \u2068Max 2\u2069، \u2068علی\u2069"
        )
        assert isolated("Оля!") == "\u2068Оля!\u2069"


def test_a_left_to_right_list_is_written_as_typed() -> None:
    for language in ("ru", "en"):
        with translation.override(language):
            assert names_list(["Катя", "Max 2"]) == "Катя, Max 2"
            assert isolated("Оля!") == "Оля!"


def test_a_templates_list_takes_the_languages_comma() -> None:
    template = Template(
        "{% load numerals %}{% for n in names %}<bdi>{{ n }}</bdi>"
        "{% if not forloop.last %}{% comma %}{% endif %}{% endfor %}"
    )
    context = Context({"names": ["Катя", "Аня"]})
    with translation.override("fa"):
        assert template.render(context) == "<bdi>Катя</bdi>، <bdi>Аня</bdi>"
    with translation.override("ru"):
        assert template.render(context) == "<bdi>Катя</bdi>, <bdi>Аня</bdi>"
