"""Adapters between database rows and the pure rule engine (``brackets.engine``).

:mod:`.rounds` reads a round's stored rules (``Round.spec``) as the engine's typed values;
:mod:`.entrants` holds an entrant's fields and the rules their data obeys.
"""
