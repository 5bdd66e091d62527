"""Writes: keyword-only functions named ``<noun>_<verb>``, one transaction each.

One module per area (catalog, entrants, rounds, ...). Views and commands call these; they
never write models directly.
"""
