"""The two-tap seat picker is the option list laid out as a grid (issue 13, item 12): one
format cell per option, greyed exactly where the engine greys the option, with the same
reason; a genre cell is greyed only when none of its formats is legal."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils.html import escape

from brackets import engine_adapter as ea
from brackets.engine import HistoryEntry, Selection, Violation, legal_choices
from brackets.models import Group
from brackets.selectors import rounds as sel
from brackets.views.rounds.seat_grid import picker_html

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Option:
    """What the picker reads of an engine option (``Choices.options()``)."""

    genre: str
    format: str
    group: str
    legal: bool
    reasons: tuple[Violation, ...]


def test_every_option_has_one_grid_cell_greyed_with_the_engines_reason(
        group: Group, cast: dict[str, Any]) -> None:
    gv = sel.group_view(group)
    catalog = ea.catalog_for(group.round.tournament.version_id)
    sc = sel.seat_choices(gv, catalog)[1]
    history = [HistoryEntry(Selection("芸能", "四択", "HARD"), "1回戦")]
    choices = legal_choices(catalog, sc.rules, history, sc.choices.match)
    options = choices.options()
    legal, illegal, grid = picker_html(options, {}, "")
    cells = dict(re.findall(r'class="set-cell set-format[^"]*" data-value="([^"]+)"[^>]*?'
                            r'(?: title="([^"]*)")?>', str(grid)))
    listed = re.findall(r'<option[^>]*value="([^"]+)"', str(legal) + str(illegal))
    assert sorted(cells) == sorted(listed) == sorted(escape(f"{o.genre}|{o.format}") for o in options)
    reasons = dict(re.findall(r'value="([^"]+)" data-reason="([^"]*)"', str(illegal)))
    assert reasons  # a used genre greys something
    for value, why in cells.items():
        assert why == reasons.get(value, "")


def test_a_genre_cell_is_greyed_only_when_no_format_of_it_is_legal() -> None:
    open_cell = Option("社会", "四択", "セレクト", True, ())
    used = Violation("genre_lot", {"genre": "芸能"})
    _legal, _illegal, grid = picker_html(
        [open_cell, Option("社会", "連想", "セレクト", False, (used,)),
         Option("芸能", "四択", "セレクト", False, (used,)),
         Option("芸能", "連想", "セレクト", False, (used,))], {}, "")
    html = str(grid)
    assert 'class="set-cell set-genre" data-genre="社会"' in html
    assert re.search(r'class="set-cell set-genre is-illegal" data-genre="芸能"[^>]*title="[^"]+"',
                     html)
