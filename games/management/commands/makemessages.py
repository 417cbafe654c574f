"""``makemessages`` that also reads the Jinja2 templates (the live regions').

Django's own command reads a template with the Django template language's lexer,
which finds no sentence in ``{{ _("...", name=x) }}``. For a file in a ``jinja2``
folder this one writes, in place of Django's, a Python file with one ``gettext`` or
``ngettext`` call for each sentence Jinja's own parser finds, on the template's
line, so that xgettext reads them and the catalogue points at the template.
"""

from __future__ import annotations

import os

import jinja2
from django.core.management.commands import makemessages
from jinja2.ext import extract_from_ast

FUNCTIONS = ("_", "gettext", "ngettext")


def jinja_as_python(source: str) -> str:
    """The sentences of a Jinja2 template as Python calls, each on its own line."""
    env = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    lines = [""] * (source.count("\n") + 1)
    for lineno, function, message in extract_from_ast(env.parse(source), FUNCTIONS):
        strings = message if isinstance(message, tuple) else (message,)
        if (
            function == "ngettext"
            and len(strings) >= 2
            and all(isinstance(text, str) for text in strings[:2])
        ):
            call = f"ngettext({strings[0]!r}, {strings[1]!r}, n)"
        elif isinstance(strings[0], str):
            call = f"gettext({strings[0]!r})"
        else:
            continue  # a sentence made at run time: nothing to extract
        lines[lineno - 1] += call + "; "
    return "\n".join(lines)


class BuildFile(makemessages.BuildFile):
    def preprocess(self) -> None:
        parts = self.path.replace(os.sep, "/").split("/")
        if self.domain != "django" or "jinja2" not in parts[:-1]:
            super().preprocess()
            return
        with open(self.path, encoding="utf-8") as fp:
            content = jinja_as_python(fp.read())
        with open(self.work_path, "w", encoding="utf-8") as fp:
            fp.write(content)


class Command(makemessages.Command):
    build_file_class = BuildFile
