"""The ``cells`` family: Resistance for three or four players, each leading a cell of
three character cards (docs/rules.md §2, seed 003).

A Django app of its own (its models, templates and pages come later); the pure rules
engine is in :mod:`games.families.cells.engine`.  This file stays free of imports: it
is imported on the way to the engine, which never loads Django.
"""
