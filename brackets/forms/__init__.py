"""Django forms of the app: the organiser's pages (``tournament``) and one form per write
of the rounds pages (``match``: the tablet match page; ``special``: the round's special
page and the 修羅 desk). Entry-desk forms live beside their views.

The rounds forms check the shape of what a page posts (which fields, which types) with
the words staff see today; the services keep every rule check.
"""

from __future__ import annotations

from brackets.forms.tournament import StaffForm, TournamentForm

__all__ = ["StaffForm", "TournamentForm"]
