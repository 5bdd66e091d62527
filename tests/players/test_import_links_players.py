"""#14 item 5: a venue's tournament file imported into a series server links its entrants
to the server's registry. Card name + name (or reading) link at once; a card shared under
another name, or a name with no shared card, waits for an organiser, who confirms the same
person (a recorded merge, who and when) or a different one. Nothing on the server is
overwritten: a newer imported card supersedes the server's row, as the desk's does."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.urls import reverse

from brackets.adapters.players import canonical, current_cards
from brackets.exporters.tournament_file import tournament_file_import
from brackets.models import (
    Achievement,
    Entrant,
    Player,
    PlayerCard,
    PlayerLink,
    PlayerLinkDecision,
    PlayerMerge,
    Tournament,
)
from brackets.services.player_links import player_link_decide
from brackets.services.players import achievement_add, player_create
from tests.conftest import client_for
from tests.players.filehelpers import travel, venue_tournament


@pytest.fixture
def venue_file(tournament: Tournament, cast: dict[str, Any]) -> dict[str, Any]:
    venue_tournament(tournament, cast)
    return travel(tournament)


def _import(data: dict[str, Any], cast: dict[str, Any]) -> Tournament:
    return tournament_file_import(data=json.dumps(data, ensure_ascii=False),
                                  by=cast["organiser"])


def _link(t: Tournament, card: str) -> PlayerLink:
    return PlayerLink.objects.get(tournament=t, entrant__card_name=card)


def test_card_and_name_link_at_once_and_a_newer_card_supersedes_the_servers_row(
        venue_file: dict[str, Any], cast: dict[str, Any]) -> None:
    # The series server knew 山田 (same card, reading written with spaces) at Q60 earlier.
    server = player_create(name="山田 太郎", reading="ヤマダ タロウ", card_name="ヤマダ", q_level=60,
                           by=cast["desk"])
    PlayerCard.objects.filter(player=server).update(at=datetime.datetime(2020, 1, 1,
                                                                         tzinfo=datetime.UTC))
    old = PlayerCard.objects.get(player=server)
    t = _import(venue_file, cast)
    link = _link(t, "ヤマダ")
    assert (link.match, link.player, link.by) == ("certain", server, cast["organiser"])
    assert Entrant.objects.get(tournament=t, card_name="ヤマダ").player == server
    # The server's own rows are untouched; the venue's Q70 then Q85 supersede its Q60.
    old.refresh_from_db()
    assert old.q_level == 60 and server.name == "山田 太郎"
    [card] = current_cards([server.pk])
    assert (card.q_level, card.supersedes.q_level, card.supersedes.supersedes, card.by) == (
        85, 70, old, cast["desk"])
    assert Achievement.objects.get(player=server).title == "賢帝"
    # The venue's rows as they were, kept with the link.
    assert [c["q_level"] for c in link.facts["playercard"]] == [70, 85]


def test_a_fact_the_server_already_has_is_not_recorded_twice(
        venue_file: dict[str, Any], cast: dict[str, Any]) -> None:
    server = player_create(name="山田太郎", reading="", card_name="ヤマダ", q_level=90,
                           by=cast["desk"])
    achievement_add(player=server, by=cast["desk"], data={
        "kind": "national_title", "title": "賢帝", "game_version": "tg",
        "held_on": datetime.date(2016, 3, 1), "source": "QMA公式 全国大会結果"})
    t = _import(venue_file, cast)
    assert _link(t, "ヤマダ").match == "certain"
    assert Achievement.objects.filter(player=server).count() == 1
    # The server's Q90 is newer than the venue's rows: it stays the card.
    assert [c.q_level for c in current_cards([server.pk])] == [90]


def test_same_card_under_another_name_waits_for_review_and_same_person_is_a_recorded_merge(
        venue_file: dict[str, Any], cast: dict[str, Any]) -> None:
    server = player_create(name="佐藤はな", reading="", card_name="サトウ", q_level=55,
                           by=cast["desk"])
    t = _import(venue_file, cast)
    link = _link(t, "サトウ")
    assert link.match == "uncertain"
    assert link.candidates == [{"player": server.pk, "reason": "same_card_other_name",
                                "cards": ["さとう"]}]
    entrant = Entrant.objects.get(tournament=t, card_name="サトウ")
    assert entrant.player != server and canonical(entrant.player) != server  # not silently
    page = client_for(cast["organiser"]).get(reverse("player_links_review", args=[t.slug]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "佐藤はな" in text and "カードネームが同じで、名前もよみがなも違います" in text

    response = client_for(cast["organiser"]).post(
        reverse("player_link_decide", args=[t.slug, link.pk]),
        {"decision": "same", "same_as": str(server.pk)})
    assert response.status_code == 302
    decision = PlayerLinkDecision.objects.get(link=link)
    assert (decision.same_as, decision.by) == (server, cast["organiser"])
    assert decision.at is not None
    merge = decision.merge
    assert (merge.kept, merge.merged, merge.by) == (server, entrant.player, cast["organiser"])
    assert canonical(Entrant.objects.get(pk=entrant.pk).player) == server


def test_same_name_without_a_shared_card_waits_and_a_different_person_stays_new(
        venue_file: dict[str, Any], cast: dict[str, Any]) -> None:
    server = player_create(name="鈴木一郎", reading="すずきいちろう", card_name="イチロー",
                           q_level=30, by=cast["desk"])
    t = _import(venue_file, cast)
    link = _link(t, "スズキ")
    assert link.match == "uncertain"
    assert link.candidates[0]["reason"] == "same_name_no_card"
    response = client_for(cast["organiser"]).post(
        reverse("player_link_decide", args=[t.slug, link.pk]), {"decision": "different"})
    assert response.status_code == 302
    decision = PlayerLinkDecision.objects.get(link=link)
    assert (decision.same_as, decision.merge, decision.by) == (None, None, cast["organiser"])
    assert not PlayerMerge.objects.filter(kept=server).exists()
    assert canonical(link.player) != server
    # The venue's merge of 鈴木's duplicate came along with the new player.
    assert PlayerMerge.objects.get(kept=link.player).reason == "同じ人（本人に確認）"


def test_a_decision_is_made_once_and_only_for_a_candidate(
        venue_file: dict[str, Any], cast: dict[str, Any]) -> None:
    player_create(name="佐藤はな", reading="", card_name="サトウ", q_level=55, by=cast["desk"])
    outsider = player_create(name="無関係", reading="", card_name="ムカンケイ", q_level=1,
                             by=cast["desk"])
    t = _import(venue_file, cast)
    link = _link(t, "サトウ")
    url = reverse("player_link_decide", args=[t.slug, link.pk])
    organiser = client_for(cast["organiser"])
    response = organiser.post(url, {"decision": "same", "same_as": str(outsider.pk)})
    assert response.status_code == 422
    assert "候補にない選手とは結び付けられません" in response.content.decode()
    assert organiser.post(url, {"decision": "same"}).status_code == 422
    assert not PlayerLinkDecision.objects.exists()
    player_link_decide(tournament=t, link_id=link.pk, same_as=None, by=cast["organiser"])
    again = organiser.post(url, {"decision": "different"})
    assert again.status_code == 422
    assert "既に確認済みです" in again.content.decode()
    assert PlayerLinkDecision.objects.count() == 1


def test_nobody_in_common_is_a_new_player_and_nothing_waits(
        venue_file: dict[str, Any], cast: dict[str, Any]) -> None:
    player_create(name="無関係", reading="むかんけい", card_name="ムカンケイ", q_level=1,
                  by=cast["desk"])
    t = _import(venue_file, cast)
    assert set(PlayerLink.objects.filter(tournament=t).values_list("match", flat=True)) == {"new"}
    assert Player.objects.count() == 1 + 4


def test_after_a_confirmed_merge_the_newer_row_of_a_shared_card_is_the_card(
        venue_file: dict[str, Any], cast: dict[str, Any]) -> None:
    """The server's サトウ (recorded now) and the venue's (earlier) are one card once the
    organiser says they are one person: the newer row is the card, the other history."""
    server = player_create(name="佐藤はな", reading="", card_name="サトウ", q_level=55,
                           by=cast["desk"])
    t = _import(venue_file, cast)
    link = _link(t, "サトウ")
    player_link_decide(tournament=t, link_id=link.pk, same_as=server.pk, by=cast["organiser"])
    from brackets.adapters.players import family_ids

    assert [(c.card_name, c.q_level) for c in current_cards(family_ids(server))] == [
        ("サトウ", 55)]
