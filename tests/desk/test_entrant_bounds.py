"""The desk's entrant checks read ``brackets.engine.bounds`` (issue 19): what the desk
accepts is exactly what the model, the tournament-file importer and replay accept, so a
tournament exported after any desk entry imports again."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from brackets.adapters.entrants import entrant_validate
from brackets.engine import bounds
from brackets.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def refused_fields(tournament: Tournament, **data: Any) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as refused:
        entrant_validate(tournament=tournament,
                         data={"name": "田中", "card_name": "タナカ", **data})
    return refused.value.message_dict


@pytest.mark.parametrize(("field", "value", "words"), [
    ("shura_extra_lots", 3_000_000_000, "4本まで"),
    ("shura_titles", bounds.SHURA_COUNT.high + 1, "0〜99"),
    ("shura_local_wins", 10**12, "0〜99"),
    ("past_win_lots", bounds.PAST_WIN_LOTS.high + 1, "0〜9"),
    ("notes", "メ" * (bounds.NOTES.max_length + 1), "10000文字以内"),
    ("name", "名" * (bounds.NAME.max_length + 1), "100文字以内"),
    ("card_name", "ア" * 20, "8文字以内"),
])
def test_desk_refuses_values_outside_the_bounds(tournament: Tournament, field: str,
                                                value: Any, words: str) -> None:
    errors = refused_fields(tournament, **{field: value})
    assert words in " ".join(errors[field])


def test_every_value_the_desk_accepts_passes_the_model(tournament: Tournament) -> None:
    clean = entrant_validate(tournament=tournament, data={
        "name": "名" * bounds.NAME.max_length, "card_name": "ア" * bounds.CARD_NAME.max_length,
        "q_level": bounds.Q_LEVEL.high, "shura_titles": bounds.SHURA_COUNT.high,
        "shura_local_wins": bounds.SHURA_COUNT.high, "past_win_lots": bounds.PAST_WIN_LOTS.high,
        "notes": "メ" * bounds.NOTES.max_length})
    entrant = Entrant(tournament=tournament, **clean)
    entrant.full_clean(exclude=["search_key", "card_key"])
