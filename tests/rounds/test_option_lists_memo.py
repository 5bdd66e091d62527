"""A seat's option lists and grid are reused only while everything they come from is equal
(views.rounds.seat_grid.seat_picker_html keyed by selectors.rounds.SeatChoices.key)."""

from __future__ import annotations

from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.engine import HistoryEntry, Selection
from brackets.models import Group
from brackets.selectors import rounds as sel
from brackets.views.rounds import seat_grid as views

pytestmark = pytest.mark.django_db


def test_reused_lists_equal_fresh_ones(group: Group, cast: dict[str, Any]) -> None:
    gv = sel.group_view(group)
    catalog = ea.catalog_for(group.round.tournament.version_id)
    choices = sel.seat_choices(gv, catalog)
    names = {ea.player_key(s.entrant_id): s.entrant.name for s in gv.seats if s.entrant_id}
    sc = choices[1]
    first_option = sc.choices.options()[0]
    chosen = f"{first_option.genre}|{first_option.format}"
    for pick in ("", chosen, ""):  # miss, miss (other pick), hit
        got = views.seat_picker_html(catalog, sc, names, pick)
        assert tuple(map(str, got)) == tuple(map(str, views.picker_html(
            sc.choices.options(), names, pick)))
    assert " selected" in str(views.seat_picker_html(catalog, sc, names, chosen)[0])


def test_keys_follow_history_and_rules() -> None:
    a = HistoryEntry(Selection("芸能", "四択", "HARD"), "1回戦")
    b = HistoryEntry(Selection("芸能", "連想", "HARD"), "1回戦")
    assert sel.frozen([a]) == sel.frozen([HistoryEntry(Selection("芸能", "四択", "HARD"),
                                                       "1回戦")])
    assert sel.frozen([a]) != sel.frozen([b]) != sel.frozen([a, b])
    assert sel.frozen({"x": ["1"], "y": []}) == sel.frozen({"y": [], "x": ["1"]})
    assert sel.frozen({"x": ["1"]}) != sel.frozen({"x": ["2"]})
