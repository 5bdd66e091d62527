"""brackets.perf.lean: the prebuilt statements of the hot paths read and write exactly what the
ORM does (same values after conversion, both ways), on SQLite and PostgreSQL."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from brackets.models import Group, Membership, ResultFact, Round, Seat, Submission, Tournament
from brackets.perf import lean
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db


def _fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.fixture
def group(tournament: Tournament, cast: dict[str, Any]) -> Group:
    rnd: Round = running_round_one(tournament, 16, cast["organiser"])
    return Group.objects.filter(round=rnd).order_by("number").first()


def test_fetch_reads_every_field_as_the_orm_does_with_the_relation_attached(
        group: Group) -> None:
    orm = Group.objects.select_related("round").get(id=group.id)
    [mine] = lean.fetch(Group, where=["id"], params=[group.id], related=["round"])
    assert _fields(mine) == _fields(orm)
    # The relation is attached (no query to reach it), with its JSON, datetime and status.
    assert _fields(mine.round) == _fields(orm.round)
    assert isinstance(mine.round.spec, dict) and mine.round.spec == orm.round.spec
    assert mine.round.created_at == orm.round.created_at
    assert not mine._state.adding and mine._state.db == "default"


def test_fetch_filters_through_the_joined_relation(group: Group,
                                                   other_tournament: Tournament) -> None:
    tournament_id = group.round.tournament_id
    assert [g.id for g in lean.fetch(Group, where=["id", "round__tournament_id"],
                                     params=[group.id, tournament_id],
                                     related=["round"])] == [group.id]
    assert lean.fetch(Group, where=["id", "round__tournament_id"],
                      params=[group.id, other_tournament.id], related=["round"]) == []


def test_fetch_of_the_roles_and_the_user(tournament: Tournament, cast: dict[str, Any]) -> None:
    found = lean.fetch(Membership, where=["tournament__slug", "user_id"],
                       params=[tournament.slug, cast["desk"].pk], related=["tournament"])
    assert [(m.role, _fields(m.tournament)) for m in found] == [
        ("desk", _fields(Tournament.objects.get(id=tournament.id)))]
    user_model = get_user_model()
    [user] = lean.fetch(user_model, where=["id"], params=[cast["desk"].pk])
    assert _fields(user) == _fields(user_model.objects.get(pk=cast["desk"].pk))


def test_fetch_for_update_inside_a_transaction(group: Group) -> None:
    with transaction.atomic():
        [locked] = lean.fetch(Group, where=["id"], params=[group.id], related=["round"],
                              for_update=True)
    assert locked.version == group.version


def test_insert_writes_what_the_orm_reads_back_and_sets_the_keys(
        group: Group, cast: dict[str, Any]) -> None:
    seats = list(Seat.objects.filter(group=group).order_by("number"))
    facts = [ResultFact(group=group, seat=seat, score=Decimal("301.25") - n,
                        placement=n + 1, by=cast["bracket"], base_version=group.version)
             for n, seat in enumerate(seats)]
    lean.insert(facts)
    assert all(f.pk is not None and not f._state.adding for f in facts)
    assert len({f.pk for f in facts}) == len(facts)
    for fact in facts:
        stored = ResultFact.objects.get(pk=fact.pk)
        assert stored.at is not None and stored.at == fact.at  # auto_now_add applied
        assert (stored.seat_id, stored.score, stored.placement, stored.voided,
                stored.supersedes_id) == (fact.seat_id, fact.score, fact.placement, False,
                                          None)


def test_insert_of_a_duplicate_key_raises_integrity_error(group: Group,
                                                          cast: dict[str, Any]) -> None:
    lean.insert([Submission(key="same", group=group, kind="results", by=cast["bracket"])])
    with pytest.raises(IntegrityError), transaction.atomic():
        lean.insert([Submission(key="same", group=group, kind="results", by=cast["bracket"])])
    assert Submission.objects.filter(key="same").count() == 1


def test_add_moves_a_counter_in_the_database(group: Group) -> None:
    assert lean.add(Group, group.id, "version", 1) == 1
    assert lean.add(Group, group.id, "version", 2) == 1
    assert Group.objects.get(id=group.id).version == group.version + 3
    assert lean.add(Group, 10**9, "version", 1) == 0
