"""The JSON API for programs: bots, load tests and club tools.

It authenticates by token only, parses and validates JSON strictly, and calls the
same services and selectors as the pages; what it tells about a game comes from the
engine's ``view()`` for the caller's own seat and nothing else.
"""
