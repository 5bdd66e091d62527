"""A submit key records one tap: the same key with the same content is the double tap
(recorded once, reported as saved); the same key with other content is a corrected form
re-sent from a page loaded before the first save, and is refused as stale (issue 19)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets.models import Group, PenaltyFact, ResultFact, SelectionFact, Submission
from brackets.services import rounds as svc
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

GOOD = {1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3), 4: ("180.00", 4)}
CORRECTED = {**GOOD, 4: ("185.00", 4)}


def _results_post(group: Group, rows: dict[int, tuple[str, int]], key: str) -> dict[str, Any]:
    data: dict[str, Any] = {"version": group.version, "key": key}
    for n, (score, place) in rows.items():
        data[f"score_{n}"] = score
        data[f"place_{n}"] = place
    return data


def _scores(group: Group) -> dict[int, str]:
    from brackets.selectors import rounds as sel

    gv = sel.group_view(Group.objects.get(id=group.id))
    return {n: f"{r.score:.2f}" for n, r in gv.result_rows.items()}


def test_same_key_with_other_results_is_refused_as_stale(group: Group,
                                                         cast: dict[str, Any]) -> None:
    v0 = group.version
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD, base_version=v0, key="k1")
    before = (ResultFact.objects.count(), Submission.objects.count())
    with pytest.raises(svc.RepeatedKey) as info:
        svc.results_save(group=group, by=cast["bracket"], rows=CORRECTED, base_version=v0,
                         key="k1")
    assert "保存していません" in info.value.message
    assert (ResultFact.objects.count(), Submission.objects.count()) == before
    assert _scores(group)[4] == "180.00"


def test_same_key_with_the_same_results_is_still_a_double_tap(group: Group,
                                                              cast: dict[str, Any]) -> None:
    v0 = group.version
    svc.results_save(group=group, by=cast["bracket"], rows=GOOD, base_version=v0, key="k1")
    with pytest.raises(svc.Duplicate):
        svc.results_save(group=group, by=cast["bracket"], rows=GOOD, base_version=v0, key="k1")


def test_corrected_results_resent_with_the_same_key_are_not_reported_saved(
        group: Group, cast: dict[str, Any]) -> None:
    """The tablet showed 「保存しました」 and kept the old values (5/5 in the issue)."""
    staff = client_for(cast["bracket"])
    slug = group.round.tournament.slug
    url = reverse("match_results", kwargs={"slug": slug, "group_id": group.id})
    first = staff.post(url, _results_post(group, GOOD, "tablet-r"), follow=True)
    assert "保存しました" in first.content.decode()  # the tablet back on its page
    again = staff.post(url, _results_post(group, CORRECTED, "tablet-r"))
    assert again.status_code == 409
    html = again.content.decode()
    assert "保存していません" in html and "保存しました" not in html
    assert 'value="185.00"' in html  # what staff typed is still on the page
    assert _scores(group)[4] == "180.00"


def test_same_key_with_another_selection_is_refused(group: Group,
                                                     cast: dict[str, Any]) -> None:
    from brackets import engine_adapter as ea
    from brackets.selectors import rounds as sel

    gv = sel.group_view(group)
    sc = sel.seat_choices(gv, ea.catalog_for(group.round.tournament.version_id))[1]
    legal = [o for o in sc.choices.options() if o.legal][:2]
    svc.selection_save(group=group, by=cast["bracket"], seat_number=1, genre=legal[0].genre,
                       format=legal[0].format, difficulty="HARD", key="k-s1")
    with pytest.raises(svc.Duplicate):
        svc.selection_save(group=group, by=cast["bracket"], seat_number=1,
                           genre=legal[0].genre, format=legal[0].format, difficulty="HARD",
                           key="k-s1")
    with pytest.raises(svc.RepeatedKey):
        svc.selection_save(group=group, by=cast["bracket"], seat_number=1,
                           genre=legal[1].genre, format=legal[1].format, difficulty="HARD",
                           key="k-s1")
    assert SelectionFact.objects.filter(group=group).count() == 1


def test_same_key_with_another_penalty_is_refused_through_the_page(
        group: Group, cast: dict[str, Any]) -> None:
    staff = client_for(cast["bracket"])
    url = reverse("match_action", kwargs={"slug": group.round.tournament.slug,
                                          "group_id": group.id})
    post = {"action": "penalty", "seat": "1", "points": "400", "reason": "遅刻",
            "version": group.version, "key": "tablet-a"}
    assert staff.post(url, post).status_code == 302
    assert staff.post(url, post).status_code == 302  # the double tap
    again = staff.post(url, {**post, "points": "200"})
    assert again.status_code == 409 and "保存していません" in again.content.decode()
    assert [p.points for p in PenaltyFact.objects.filter(group=group)] == [400]


def test_a_submit_key_over_64_characters_is_refused_with_a_message(
        group: Group, cast: dict[str, Any]) -> None:
    """On PostgreSQL the key's column refused it with a 500."""
    staff = client_for(cast["bracket"])
    url = reverse("match_results", kwargs={"slug": group.round.tournament.slug,
                                           "group_id": group.id})
    response = staff.post(url, _results_post(group, GOOD, "k" * 65))
    assert response.status_code == 400
    assert "キー" in response.content.decode()
    assert ResultFact.objects.filter(group=group).count() == 0
    with pytest.raises(svc.RoundError):
        svc.results_save(group=group, by=cast["bracket"], rows=GOOD, key="k" * 65)
    assert Submission.objects.count() == 0


def test_revoking_an_unknown_penalty_is_refused_with_a_message(
        group: Group, cast: dict[str, Any]) -> None:
    staff = client_for(cast["bracket"])
    url = reverse("match_action", kwargs={"slug": group.round.tournament.slug,
                                          "group_id": group.id})
    for penalty in ("999999", "abc", "9" * 30, "-1"):
        response = staff.post(url, {"action": "penalty_revoke", "penalty": penalty,
                                    "reason": "誤り", "version": group.version, "key": ""})
        assert response.status_code == 400, penalty
    assert PenaltyFact.objects.count() == 0


def test_revoking_a_penalty_twice_is_refused(group: Group, cast: dict[str, Any]) -> None:
    p = svc.penalty_add(group=group, by=cast["bracket"], seat_number=1, points="400",
                        reason="遅刻")
    svc.penalty_revoke(group=group, by=cast["bracket"], penalty_id=p.id, reason="誤り")
    with pytest.raises(svc.RoundError):
        svc.penalty_revoke(group=group, by=cast["bracket"], penalty_id=p.id, reason="誤り")
    assert PenaltyFact.objects.count() == 2


def test_a_buzzer_key_resent_with_another_tap_is_refused(tournament: Any) -> None:
    """The written-entry form re-sent with other marks under its key said 記録しました and
    kept the first marks."""
    from brackets.models import BuzzerEvent
    from brackets.selectors.buzzer import round_state
    from brackets.services.buzzer import BuzzerRefused, buzzer_event_append
    from tests.buzzer_web.factories import make_round

    round_ = make_round(tournament)
    first = buzzer_event_append(round=round_, data={"kind": "correct", "player": "s3"},
                                expected_seq=0, idempotency_key="tap-1")
    again = buzzer_event_append(round=round_, data={"kind": "correct", "player": "s3"},
                                expected_seq=0, idempotency_key="tap-1")
    assert again.duplicate and again.record.pk == first.record.pk
    with pytest.raises(BuzzerRefused) as refused:
        buzzer_event_append(round=round_, data={"kind": "correct", "player": "s2"},
                            expected_seq=0, idempotency_key="tap-1")
    assert refused.value.code == "stale" and "記録していません" in refused.value.message
    assert BuzzerEvent.objects.filter(round=round_).count() == 1
    assert round_state(round_).players["s2"].correct == 0
