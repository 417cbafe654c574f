"""The Jinja2 environment that draws a table's live regions (``games.kit.regions``).

The live regions are drawn after every move for every screen, so they use the faster
of Django's two template engines (docs/live.md, "Drawing"); every other page stays in
the Django template language. The environment reads the same translation catalogues
as the rest of the site (``{{ _("...") }}``, ``{{ ngettext(...) }}``: Jinja's i18n
extension in its new style, so a sentence's ``%(name)s`` is filled in and escaped
like ``{% blocktranslate %}`` fills it in) and has the few filters and functions the
region templates use, named as their Django counterparts.

``python manage.py makemessages`` finds the sentences of these templates too
(``games/management/commands/makemessages.py``).
"""

from __future__ import annotations

from typing import Any

import jinja2
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from markupsafe import Markup

from games.kit.regions import ROW, ROW_END
from games.templatetags.games_tags import countdown
from numerals.digits import localize
from numerals.lists import list_separator


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def chat_line(message: Any) -> str:
    """A chat line, as every page draws it (``games/_chat_line.html``)."""
    return render_to_string("games/_chat_line.html", {"message": message})


def bdi(value: Any) -> Any:
    """A name a player typed, isolated from the sentence around it (see
    ``numerals.templatetags.numerals``)."""
    if value is None or value == "":
        return value
    return format_html("<bdi>{}</bdi>", value)


# A region's drawing hands its template the active language's translation object as
# ``catalogue`` (``games.kit.regions.draw``): each sentence is looked up in it
# directly, rather than finding the active language anew. Without it (any other
# template), Django's functions find the language.
@jinja2.pass_context
def _gettext(context: Any, message: str) -> str:
    found = context.get("catalogue")
    return found.gettext(message) if found is not None else gettext(message)


@jinja2.pass_context
def _ngettext(context: Any, singular: str, plural: str, number: int) -> str:
    found = context.get("catalogue")
    if found is None:
        return ngettext(singular, plural, number)
    return found.ngettext(singular, plural, number)


# The language's digits and a countdown depend on the request, not the template:
# taking the context keeps Jinja from working them out once when it compiles a
# constant (``{{ 5|digits }}``).
@jinja2.pass_context
def digits(context: Any, value: Any) -> Any:
    found = context.get("catalogue")
    return localize(value, found.language() if found is not None else None)


@jinja2.pass_context
def countdown_filter(context: Any, deadline: str) -> str:
    return countdown(deadline)


def row(html: Markup) -> Markup:
    """``{% filter row %}<li id="...">...</li>{% endfilter %}``: one element of a
    region that a push may send alone when it is all that changed
    (``games.kit.regions.changed_rows``)."""
    return Markup(ROW) + html + Markup(ROW_END)  # noqa: S704 - constants


def environment(**options: Any) -> jinja2.Environment:
    # Django's backend asks for escaping too; ChainableUndefined reads a missing
    # value's attribute as missing, as the Django template language does.
    options.pop("autoescape", None)
    options["undefined"] = jinja2.ChainableUndefined
    env = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        url=url, static=static, comma=list_separator, chat_line=chat_line
    )
    env.filters.update(
        digits=digits,
        bdi=bdi,
        capfirst=capfirst,
        countdown=countdown_filter,
        row=row,
    )
    return env
