"""The Mafia family: the moderated «پارتیزان» scenario (``mafia_partisan``).

Its rules live in the pure engine, :mod:`games.families.mafia.engine` (no Django,
ever).  This package will also be the family's Django app; it stays empty of imports
because the engine registry imports its ``engine`` subpackage through it.
"""
