"""A server process's long-lived objects, made once at start and then set aside from
the garbage collector.

Python's collector looks at every object it tracks in a full (oldest-generation)
collection. A running site holds a few hundred thousand that live as long as the
process: modules, compiled templates, the translation catalogues, the URL resolver.
Each full collection walked them all again, and a move that arrived during one waited
for it: these pauses (30 to 80 ms on a two-core machine, several a minute under play)
were the slowest moves of every benchmark run, the p99 of ``python -m bench.live``.

:func:`settle` makes those objects before the first request (every template of the
project compiled into the cached loader, every language's catalogue loaded, the URL
patterns resolved) and then freezes them (:func:`gc.freeze`): a full collection then
looks only at what the process made since, which is what it can actually free.
Nothing is ever freed by this that would not be: frozen objects are ones the process
keeps to its end anyway.
"""

from __future__ import annotations

import gc
import logging
from pathlib import Path

log = logging.getLogger(__name__)


def _template_names() -> list[str]:
    """Every template of the project's own folders (the site's and its apps')."""
    from django.apps import apps
    from django.conf import settings

    base = Path(settings.BASE_DIR).resolve()
    folders = [
        Path(folder) for option in settings.TEMPLATES for folder in option["DIRS"]
    ]
    for config in apps.get_app_configs():
        for kind in ("templates", "jinja2"):
            folder = Path(config.path) / kind
            where = folder.resolve()
            if where.is_relative_to(base) and "site-packages" not in where.parts:
                folders.append(folder)
    names = []
    for folder in folders:
        if folder.is_dir():
            names.extend(
                path.relative_to(folder).as_posix()
                for path in sorted(folder.rglob("*"))
                if path.suffix in {".html", ".txt", ".xml"}
            )
    return names


def settle() -> int:
    """Compile the project's templates, load every language and the URL patterns,
    then freeze what the process holds; returns how many templates were compiled."""
    from django.conf import settings
    from django.template import TemplateDoesNotExist, TemplateSyntaxError, loader
    from django.urls import get_resolver
    from django.utils import translation

    compiled = 0
    for name in _template_names():
        try:
            loader.get_template(name)
        except (TemplateDoesNotExist, TemplateSyntaxError):
            # A fragment another template includes by a relative path, or one for
            # another engine: its first real use reports it, as without this.
            log.debug("settle: %s not compiled", name)
            continue
        compiled += 1
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Podpolye")
    get_resolver().url_patterns  # noqa: B018 - imports every urls module
    gc.collect()
    gc.freeze()
    return compiled
