"""A server process makes its long-lived objects at start and sets them aside from
the garbage collector (config.settle)."""

from __future__ import annotations

import gc

from django.template import engines

from config.settle import _template_names, settle


def _compiled() -> set[str]:
    """The templates both engines hold compiled: the Django language's cached
    loader and Jinja2's own cache (the live regions)."""
    loader = engines["django"].engine.template_loaders[0]
    jinja = engines["jinja2"].env.cache or {}
    return {
        template.origin.template_name
        for template in loader.get_template_cache.values()
        if hasattr(template, "origin")
    } | {template.name for template in jinja.values()}


def test_settle_compiles_every_template_of_the_project_and_freezes() -> None:
    names = _template_names()
    # The site's own templates and the families' (the site's apps, not Django's),
    # the Django language's and the live regions' Jinja2 ones.
    assert "games/_live.html" in names
    assert "resistance/board.html" in names
    assert not any(name.startswith("admin/") for name in names)
    try:
        compiled = settle()
        assert compiled == len(names)
        assert gc.get_freeze_count() > 0
        assert {"games/_live.html", "resistance/board.html"} <= _compiled()
    finally:
        gc.unfreeze()
