"""Entrant services: revisions, optimistic concurrency, and the desk's rules."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from brackets.models import Entrant, EntrantRevision, Tournament
from brackets.services.entrants import (
    StaleEntrantError,
    entrant_check_in,
    entrant_mark_paid,
    entrant_update,
    kana_fold,
)
from tests.desk.conftest import bulk_entrants

pytestmark = pytest.mark.django_db


def errors_of(excinfo: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return excinfo.value.message_dict


def test_kana_fold_treats_katakana_hiragana_and_widths_alike() -> None:
    assert kana_fold("ヤマダ タロウ") == kana_fold("やまだたろう") == "やまだたろう"
    assert kana_fold("ﾔﾏﾀﾞ") == "やまだ"
    assert kana_fold("ＡＢＣ") == kana_fold("abc")


def test_register_keeps_revision_one_with_who_and_full_data(register: Any, cast: dict[str, Any]) -> None:
    entrant = register(q_level=55, home_store="ラウンドワン博多", notes="遅刻予定")
    revision = EntrantRevision.objects.get(entrant=entrant)
    assert revision.number == 1 == entrant.revision
    assert revision.by == cast["desk"]
    assert revision.action == "register"
    assert revision.data["q_level"] == 55
    assert revision.data["home_store"] == "ラウンドワン博多"
    assert revision.data["notes"] == "遅刻予定"
    assert set(revision.data) >= {"name", "reading", "card_name", "seed", "shura_titles", "opt_up"}


def test_edit_adds_a_revision_and_keeps_the_old_one(
    register: Any, tournament: Tournament, cast: dict[str, Any]
) -> None:
    entrant = register()
    updated = entrant_update(
        tournament=tournament,
        entrant_id=entrant.pk,
        by=cast["organiser"],
        base_revision=1,
        data={"q_level": 82, "notes": "黄金賢者に昇格"},
    )
    assert updated.revision == 2
    revisions = list(EntrantRevision.objects.filter(entrant=entrant).order_by("number"))
    assert [r.number for r in revisions] == [1, 2]
    assert revisions[0].data["q_level"] == 0
    assert revisions[1].data["q_level"] == 82
    assert revisions[1].by == cast["organiser"]


def test_edit_that_changes_nothing_stores_no_revision(register: Any, tournament: Tournament, cast: Any) -> None:
    entrant = register()
    entrant_update(tournament=tournament, entrant_id=entrant.pk, by=cast["desk"], base_revision=1, data={})
    assert EntrantRevision.objects.filter(entrant=entrant).count() == 1


def test_stale_edit_is_refused_with_what_changed(register: Any, tournament: Tournament, cast: Any) -> None:
    entrant = register()
    entrant_update(
        tournament=tournament, entrant_id=entrant.pk, by=cast["organiser"], base_revision=1,
        data={"home_store": "タイトーステーション"},
    )
    with pytest.raises(StaleEntrantError) as excinfo:
        entrant_update(
            tournament=tournament, entrant_id=entrant.pk, by=cast["desk"], base_revision=1,
            data={"notes": "別の端末の入力"},
        )
    stale = excinfo.value
    assert stale.entrant.revision == 2
    assert [(c.field, c.before, c.after) for c in stale.changes] == [
        ("home_store", "", "タイトーステーション")
    ]
    entrant.refresh_from_db()
    assert entrant.notes == ""  # refused: nothing written
    assert entrant.home_store == "タイトーステーション"  # the other edit is not lost


def test_stale_check_in_in_between_is_reported(register: Any, tournament: Tournament, cast: Any) -> None:
    entrant = register()
    entrant_check_in(tournament=tournament, entrant_id=entrant.pk, by=cast["desk"])
    with pytest.raises(StaleEntrantError) as excinfo:
        entrant_update(
            tournament=tournament, entrant_id=entrant.pk, by=cast["organiser"], base_revision=1,
            data={"q_level": 10},
        )
    assert [c.field for c in excinfo.value.changes] == ["checked_in"]


def test_duplicate_card_name_is_refused_in_japanese(register: Any) -> None:
    register(name="一人目", card_name="ＱＭＡ")
    with pytest.raises(ValidationError) as excinfo:
        register(name="二人目", card_name="qma")  # folded: the same card name
    messages = errors_of(excinfo)["card_name"]
    assert "一人目" in messages[0] and "既に" in messages[0]
    assert Entrant.objects.count() == 1


def test_duplicate_card_name_is_per_tournament(register: Any, other_tournament: Tournament, cast: Any) -> None:
    from brackets.services.entrants import entrant_register

    register(card_name="ヤマダ")
    entrant_register(
        tournament=other_tournament, by=cast["admin"], data={"name": "山田", "card_name": "ヤマダ"}
    )
    assert Entrant.objects.count() == 2


def test_editing_keeps_own_card_name(register: Any, tournament: Tournament, cast: Any) -> None:
    entrant = register(card_name="ヤマダ")
    entrant_update(
        tournament=tournament, entrant_id=entrant.pk, by=cast["desk"], base_revision=1,
        data={"card_name": "ヤマダ", "q_level": 3},
    )


@pytest.mark.parametrize("card", ["", "123456789", "ながいながいカード名"])
def test_card_name_must_be_one_to_eight_characters(register: Any, card: str) -> None:
    with pytest.raises(ValidationError) as excinfo:
        register(card_name=card)
    assert "card_name" in errors_of(excinfo)


def test_eight_characters_is_allowed(register: Any) -> None:
    assert register(card_name="はちもじのなまえ").card_name == "はちもじのなまえ"


@pytest.mark.parametrize("q", [-1, 1000, "abc"])
def test_q_level_out_of_range_is_refused(register: Any, q: Any) -> None:
    with pytest.raises(ValidationError) as excinfo:
        register(q_level=q)
    assert "q_level" in errors_of(excinfo)
    assert Entrant.objects.count() == 0


@pytest.mark.parametrize("q", [0, 999])
def test_q_level_bounds_are_allowed(register: Any, q: int) -> None:
    assert register(q_level=q).q_level == q


def test_name_required_and_reading_must_be_kana(register: Any) -> None:
    with pytest.raises(ValidationError) as excinfo:
        register(name="", reading="山田")
    errors = errors_of(excinfo)
    assert "name" in errors and "reading" in errors


def test_capacity_is_enforced_and_seeds_count_apart(register: Any, tournament: Tournament) -> None:
    tournament.capacity, tournament.seed_slots = 3, 2
    tournament.save()
    for i in range(3):
        register(name=f"一般{i}", card_name=f"G{i}")
    with pytest.raises(ValidationError) as excinfo:
        register(name="四人目", card_name="G4")
    message = errors_of(excinfo)["__all__"][0]
    assert "定員" in message and "3" in message
    # A seed still fits: seeds are counted against the seed slots, not the capacity.
    assert register(name="シード", card_name="S1", seed=1).seed == 1


def test_capacity_applies_when_a_seed_becomes_general(register: Any, tournament: Tournament, cast: Any) -> None:
    tournament.capacity = 1
    tournament.save()
    register(name="一般", card_name="G")
    seed = register(name="シード", card_name="S", seed=1)
    with pytest.raises(ValidationError):
        entrant_update(
            tournament=tournament, entrant_id=seed.pk, by=cast["desk"], base_revision=1, data={"seed": None}
        )


def test_editing_a_general_entrant_when_full_is_allowed(register: Any, tournament: Tournament, cast: Any) -> None:
    tournament.capacity = 1
    tournament.save()
    entrant = register()
    entrant_update(tournament=tournament, entrant_id=entrant.pk, by=cast["desk"], base_revision=1, data={"q_level": 9})


def test_seed_numbers_limited_to_slots_and_unique(register: Any, tournament: Tournament) -> None:
    assert tournament.seed_slots == 8
    register(name="第1シード", card_name="S1", seed=1)
    with pytest.raises(ValidationError) as excinfo:
        register(name="もう一人", card_name="S1B", seed=1)
    assert "第1シード" in errors_of(excinfo)["seed"][0]
    with pytest.raises(ValidationError) as excinfo:
        register(name="九番", card_name="S9", seed=9)
    assert "1〜8" in errors_of(excinfo)["seed"][0]
    with pytest.raises(ValidationError):
        register(name="ゼロ", card_name="S0", seed=0)


def test_shura_lots_over_the_cap_are_refused(register: Any) -> None:
    with pytest.raises(ValidationError) as excinfo:
        register(shura_titles=1, shura_local_wins=1, shura_invited=True, shura_extra_lots=2)
    assert "shura_extra_lots" in errors_of(excinfo)
    assert register(shura_voluntary=True, shura_extra_lots=3).shura_extra_lots == 3


def test_check_in_is_idempotent_and_recorded_once(register: Any, tournament: Tournament, cast: Any) -> None:
    entrant = register()
    _e, changed = entrant_check_in(tournament=tournament, entrant_id=entrant.pk, by=cast["desk"])
    _e, again = entrant_check_in(tournament=tournament, entrant_id=entrant.pk, by=cast["desk"])
    assert (changed, again) == (True, False)
    entrant.refresh_from_db()
    assert entrant.checked_in and entrant.revision == 2
    assert EntrantRevision.objects.filter(entrant=entrant, action="checked_in:on").count() == 1
    entrant_check_in(tournament=tournament, entrant_id=entrant.pk, by=cast["desk"], checked_in=False)
    entrant.refresh_from_db()
    assert not entrant.checked_in and entrant.revision == 3


def test_fee_paid_is_idempotent(register: Any, tournament: Tournament, cast: Any) -> None:
    entrant = register()
    entrant_mark_paid(tournament=tournament, entrant_id=entrant.pk, by=cast["desk"])
    entrant_mark_paid(tournament=tournament, entrant_id=entrant.pk, by=cast["desk"])
    assert EntrantRevision.objects.filter(entrant=entrant).count() == 2


def test_search_matches_reading_in_either_kana(register: Any, tournament: Tournament) -> None:
    from brackets.selectors.entrants import entrant_list

    register(name="山田太郎", reading="ヤマダタロウ", card_name="タロ")
    register(name="鈴木花子", reading="すずきはなこ", card_name="ＨＡＮＡ")
    assert [e.name for e in entrant_list(tournament=tournament, query="やまだ")] == ["山田太郎"]
    assert [e.name for e in entrant_list(tournament=tournament, query="スズキ")] == ["鈴木花子"]
    assert [e.name for e in entrant_list(tournament=tournament, query="hana")] == ["鈴木花子"]
    assert [e.name for e in entrant_list(tournament=tournament, query="花子")] == ["鈴木花子"]
    assert len(entrant_list(tournament=tournament, query="")) == 2


def test_counts(register: Any, tournament: Tournament, cast: Any) -> None:
    from brackets.selectors.entrants import desk_counts

    bulk_entrants(tournament, 6)  # 0,3 checked in; 0,2,4 paid
    register(name="シード", card_name="S", seed=1, fee_paid=True)
    counts = desk_counts(tournament=tournament)
    assert (counts.registered, counts.general, counts.seeds) == (7, 6, 1)
    assert (counts.checked_in, counts.paid) == (2, 4)


def test_rank_name_from_the_catalog(tournament: Tournament) -> None:
    from brackets.selectors.entrants import rank_namer

    name = rank_namer(tournament=tournament)
    assert name(0) == "魔術士"
    assert name(34) == "魔術士"
    assert name(35) == "魔導士"
    assert name(85) == "黄金賢者"
    assert name(999) == "金剛賢者"
