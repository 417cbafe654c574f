"""``{% piece %}``: a block drawn once for every equal set of values (games.pieces)."""

from __future__ import annotations

import itertools
from typing import Any

from django import template
from django.template.base import FilterExpression, Node, NodeList, Parser, Token
from django.utils import translation
from django.utils.safestring import SafeString

from games import pieces

register = template.Library()

_serials = itertools.count()


class PieceNode(Node):
    def __init__(
        self, nodelist: NodeList, named: list[tuple[str, FilterExpression]]
    ) -> None:
        self.nodelist = nodelist
        self.named = named
        # A block of one compiled template: a template compiled again gets new
        # numbers, so two blocks never share a piece.
        self.serial = next(_serials)

    def render(self, context: Any) -> SafeString:
        values = {name: expr.resolve(context) for name, expr in self.named}
        language = translation.get_language()
        try:
            key = (
                self.serial,
                language,
                tuple(
                    pieces.frozen(values[name], language) for name, _expr in self.named
                ),
            )
        except pieces.NotPlain:
            found = self._draw(context, values)
        else:
            found = pieces.find(key)
            if found is None:
                found = self._draw(context, values)
                pieces.keep(key, found)
        log = getattr(context, "piece_log", None)
        if log is not None:
            log.append(found)
        return pieces.marked(found)  # a template's own output

    def _draw(self, context: Any, values: dict[str, Any]) -> str:
        # The block sees the values it named and nothing else, so its HTML is a
        # function of them (and of the language). Its white space at either end
        # belongs to the template around it: a piece is its element alone.
        inner = context.new(values)
        if hasattr(inner, "piece_log"):
            inner.piece_log = None  # a piece inside a piece is part of it
        return str(self.nodelist.render(inner)).strip()


@register.tag
def piece(parser: Parser, token: Token) -> PieceNode:
    """``{% piece row leader=board.words.leader %}…{% endpiece %}``: a bare name is
    given to the block under its own name, ``name=expression`` under ``name``."""
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("{% piece %} names at least one value")
    named: list[tuple[str, FilterExpression]] = []
    for bit in bits:
        name, equals, expression = bit.partition("=")
        if not equals:
            name, expression = bit, bit
        if not name.isidentifier():
            raise template.TemplateSyntaxError(
                f"{{% piece %}}: {bit!r} is not a name or name=value"
            )
        named.append((name, parser.compile_filter(expression)))
    nodelist = parser.parse(("endpiece",))
    parser.delete_first_token()
    return PieceNode(nodelist, named)
