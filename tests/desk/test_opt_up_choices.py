"""Issue 13 item 11 (desk): プチ修羅の道 offers only modes stricter than the one the
player's rank gives (H2), and the desk refuses the same mode as well as a laxer one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from brackets.adapters.entrants import opt_up_limits
from brackets.models import Entrant, Tournament
from brackets.services.entrants import entrant_register
from tests.states import use_katata

pytestmark = pytest.mark.django_db


def _options(html: str) -> dict[str, str]:
    select = re.search(r'<select name="opt_up".*?</select>', html, re.DOTALL)
    assert select is not None
    return {m.group(1): m.group(0) for m in re.finditer(r'<option value="(\w*)"[^>]*>', select.group(0))}


def test_opt_up_limits_follow_the_rank_thresholds(tournament: Tournament) -> None:
    use_katata(tournament)
    assert opt_up_limits(tournament) == {"pinpoint": 50, "bomber": 80}


def test_opt_up_offers_only_modes_stricter_than_the_rank(
        clients: dict[str, Client], tournament: Tournament, register: Any) -> None:
    use_katata(tournament)
    entrant = register(q_level=66)  # Q66 gives ピンポイント
    html = clients["desk"].get(reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk])).content.decode()
    options = _options(html)
    assert "disabled" in options["pinpoint"] and 'data-below-q="50"' in options["pinpoint"]
    assert "disabled" not in options["bomber"] and 'data-below-q="80"' in options["bomber"]
    assert "disabled" not in options[""]


def test_opt_up_the_same_mode_as_the_rank_is_refused(tournament: Tournament,
                                                      cast: dict[str, Any]) -> None:
    use_katata(tournament)
    with pytest.raises(ValidationError) as info:
        entrant_register(tournament=tournament, by=cast["desk"], data={
            "name": "山田", "card_name": "ヤマダ", "q_level": 66, "opt_up": "pinpoint"})
    message = " ".join(info.value.message_dict["opt_up"])
    assert "Qレベル66" in message and "ピンポイントより厳しいモード" in message
    assert not Entrant.objects.exists()


def test_opt_up_recorded_value_stays_choosable_when_the_rank_caught_up(
        clients: dict[str, Client], tournament: Tournament, register: Any) -> None:
    use_katata(tournament)
    entrant = register(q_level=30, opt_up="pinpoint")
    Entrant.objects.filter(pk=entrant.pk).update(q_level=66)  # raised outside the desk form
    html = clients["desk"].get(reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk])).content.decode()
    option = _options(html)["pinpoint"]
    assert "selected" in option and "disabled" not in option  # not dropped silently on save


def test_fixed_mode_preset_says_the_declaration_changes_nothing(
        clients: dict[str, Client], tournament: Tournament) -> None:
    assert opt_up_limits(tournament) is None  # shop presets: one mode for everyone
    html = clients["desk"].get(reverse("desk_entrant_new", args=[tournament.slug])).content.decode()
    assert "disabled" not in re.search(r'<select name="opt_up".*?</select>', html, re.DOTALL).group(0)
    assert "申告しても変わりません" in html
