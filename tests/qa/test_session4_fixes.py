"""QA regressions, fourth session: leftovers from the third session's notes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.models import Group, Tournament
from brackets.selectors import rounds as sel
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _rows(html: str) -> list[str]:
    """The rows of the player's table of games."""
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    return body.split("<tr>")[1:]


def test_player_page_shows_pair_games_as_won_or_lost_not_by_ratio(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A finalist's public page listed the third-place match and the final's games with a
    惜敗率, which a pair game (K9/K10) does not have: it is won or lost by the pair, and a
    partner's place does not count. Each such row now says 勝ち / 負け / パートナー."""
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], count=20, seeds=4)
    public = client_for(None)
    third = Group.objects.get(round__tournament=tournament, round__number=6)
    roles = sel.pair_roles(sel.group_view(third))
    assert sorted(roles.values()) == ["loser", "partner", "partner", "winner"]
    shown = {"winner": "勝ち", "loser": "負け", "partner": "パートナー"}
    for key, role in roles.items():
        html = public.get(f"/p/{tournament.slug}/players/{key}/").content.decode()
        row = next(r for r in _rows(html) if "3位決定戦" in r)
        assert re.search(rf'class="badge pair-role [^"]*">{shown[role]}</span>', row)
        ratio_cell = re.findall(r'<td class="num">(.*?)</td>', row)[-1]
        assert "—" in ratio_cell and "%" not in ratio_cell
    # An ordinary group round still shows the player's 惜敗率, without a role badge.
    first = Group.objects.filter(round__tournament=tournament, round__number=1).first()
    player = next(s.entrant_id for s in sel.group_view(first).seats if s.entrant_id)
    html = public.get(f"/p/{tournament.slug}/players/{ea.player_key(player)}/").content.decode()
    row = next(r for r in _rows(html) if "1回戦" in r)
    assert "pair-role" not in row
