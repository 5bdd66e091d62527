"""Per-tournament preset settings: stored, used by the services, refused when bad or late.

Each ambiguity of domain.md is a setting of the preset; the organiser changes it on
/t/<slug>/settings/rules/, the tournament stores only the changed values, and the round
services run the event with them (tie-break chain, advancers per group, K7 draw unit).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.models import (
    Entrant,
    Group,
    PresetSettingChange,
    Round,
    RoundStep,
    Seat,
    SelectionFact,
    SpecialFact,
    Tournament,
)
from brackets.selectors import rounds as sel
from brackets.services import preset_settings as pss
from brackets.services import rounds as svc
from tests.rounds.conftest import running_round_one
from tests.rounds.helpers import add_entrants, play_round

# ------------------------------------------------------------------ helpers


def choose_sets(group: Group, user: Any) -> None:
    """The first legal set for every real seat (what a tablet would enter)."""
    catalog = ea.catalog_for(group.round.tournament.version_id)
    gv = sel.group_view(group)
    for number in sorted(s.number for s in gv.seats if s.entrant_id):
        gv = sel.group_view(Group.objects.get(id=group.id))
        option = next(o for o in sel.seat_choices(gv, catalog)[number].choices.options()
                      if o.legal)
        svc.selection_save(group=group, by=user, seat_number=number, genre=option.genre,
                           format=option.format, difficulty=catalog.difficulties[0])


def play_with_scores(group: Group, user: Any, scores: list[int]) -> dict[int, int]:
    """Seats 1..n get ``scores`` (descending): returns score → entrant id."""
    choose_sets(group, user)
    seats = list(Seat.objects.filter(group=group).order_by("number"))
    rows = {s.number: (str(Decimal(sc)), place)
            for place, (s, sc) in enumerate(zip(seats, scores), start=1)}
    svc.results_save(group=group, by=user, rows=rows)
    return {sc: s.entrant_id for s, sc in zip(seats, scores)}


def settings_page(slug: str) -> str:
    return reverse("preset_settings", kwargs={"slug": slug})


# ------------------------------------------------------------------ storage and adapter


def test_only_changed_values_are_stored_and_the_adapter_uses_them(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    changes = pss.settings_save(tournament=tournament, by=cast["organiser"], values={
        "wildcard_chain": ["score", "ratio", "lottery"],
        "penalty": "400",  # equal to the default: not stored
        "r2_size": 36})
    tournament.refresh_from_db()
    assert tournament.preset_settings == {"wildcard_chain": ["score", "ratio", "lottery"],
                                          "r2_size": 36}
    assert {c.key for c in changes} == {"wildcard_chain", "r2_size"}
    assert all(c.by == cast["organiser"] for c in changes)
    preset = ea.preset_for(tournament)
    assert preset.tie_break == ("score", "ratio", "lottery")
    assert preset.round("r1").target == 36
    # A pure function of slug + settings: the same object comes back from the cache.
    assert ea.preset_for(tournament) is ea.preset_for("kyushu-cup-ix",
                                                      dict(tournament.preset_settings))
    # Reset one setting: removed from storage, recorded as a reset.
    pss.settings_save(tournament=tournament, by=cast["organiser"], reset=["r2_size"])
    tournament.refresh_from_db()
    assert tournament.preset_settings == {"wildcard_chain": ["score", "ratio", "lottery"]}
    last = PresetSettingChange.objects.filter(tournament=tournament).order_by("-id").first()
    assert last is not None and last.key == "r2_size" and last.reset
    assert last.old_value == 36 and last.new_value is None


def test_a_changed_tie_break_chain_changes_who_takes_the_wildcard(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """K3/K4: 8 players, 2 groups, top 2 each + 1 wildcard (round 2 of 5). The 3rd of
    group 1 has the better 惜敗率 (80/100), the 3rd of group 2 the higher score (200/300)."""
    user = cast["organiser"]
    winners = {}
    for chain in (None, ["score", "ratio", "lottery"]):
        Round.objects.filter(tournament=tournament).delete()
        Entrant.objects.filter(tournament=tournament).delete()
        tournament.preset = "kyushu-cup-ix"
        tournament.preset_settings = {}
        tournament.save()
        values: dict[str, Any] = {"r2_size": 5}
        if chain is not None:
            values["wildcard_chain"] = chain
        pss.settings_save(tournament=tournament, by=user, values=values)
        add_entrants(tournament, 8, prefix="W" if chain else "V")
        r1 = svc.rounds_configure(tournament=tournament, by=user)[0]
        assert list(round_rules(r1).tie_break) == (chain or ["ratio", "score", "lottery"])
        svc.round_draw(round=r1, by=user)
        svc.round_start(round=r1, by=user)
        g1, g2 = Group.objects.filter(round=r1).order_by("number")
        a = play_with_scores(g1, user, [100, 90, 80, 10])
        b = play_with_scores(g2, user, [300, 290, 200, 10])
        svc.round_close(round=r1, by=user)
        svc.round_advance(round=Round.objects.get(id=r1.id), by=user)
        step = RoundStep.objects.filter(round=r1, action="advance").latest("id")
        winners[bool(chain)] = (step.data["wildcards"], a[80], b[200])
    wildcards, ratio_third, _score_third = winners[False]
    assert wildcards == [str(ratio_third)]
    wildcards, _ratio_third, score_third = winners[True]
    assert wildcards == [str(score_third)]


def test_katata_single_advance_from_changes_advancers_per_group(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """H1 '1 when entries are many': with single_advance_from = 20, a round of 24 players
    advances only each group winner (6 instead of 12)."""
    user = cast["organiser"]
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    add_entrants(tournament, 24)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    assert rounds[0].advance_per_group == 2
    # Changing the setting before the draw re-plans the configured rounds.
    pss.settings_save(tournament=tournament, by=user, values={"single_advance_from": 20})
    r1 = Round.objects.get(tournament=tournament, number=1)
    assert r1.advance_per_group == 1
    assert round_rules(r1).settings == {"single_advance_from": 20}
    svc.round_draw(round=r1, by=user)
    play_round(Round.objects.get(id=r1.id), user, random.Random(3))
    advancers = svc.round_advance(round=Round.objects.get(id=r1.id), by=user)
    assert len(advancers) == 6
    r2 = Round.objects.get(tournament=tournament, number=2)
    players, _seeds = svc.round_players(r2)
    assert len(players) == 6


def test_katata_thresholds_reach_the_players_rules(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """H2: moving bomber_min_q changes a Q85 player's mode on the match page's rules."""
    user = cast["organiser"]
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    pss.settings_save(tournament=tournament, by=user, values={"bomber_min_q": 90})
    add_entrants(tournament, 8, q_levels=[85] * 8)
    r1 = svc.rounds_configure(tournament=tournament, by=user)[0]
    svc.round_draw(round=r1, by=user)
    group = Group.objects.filter(round=r1).first()
    catalog = ea.catalog_for(tournament.version_id)
    rules = next(iter(sel.seat_choices(sel.group_view(group), catalog).values())).rules
    assert rules.mode.name == "PINPOINT"


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(("values", "field"), [
    ({"wildcard_chain": ["ratio", "ratio"]}, "wildcard_chain"),
    ({"wildcard_chain": []}, "wildcard_chain"),
    ({"wildcard_chain": ["nonsense"]}, "wildcard_chain"),
    ({"r2_size": -4}, "r2_size"),
    ({"k7_draw_per": "day"}, "k7_draw_per"),
    ({"r3_capacity_a": 16}, "r3_capacity_a"),
    ({"penalty": "NaN"}, "penalty"),
])
def test_invalid_values_are_refused_in_japanese_and_nothing_is_saved(
        tournament: Tournament, cast: dict[str, Any], values: dict[str, Any],
        field: str) -> None:
    tournament.preset = "kyushu-cup-ix"
    tournament.preset_settings = {"r2_size": 36}
    tournament.save()
    with pytest.raises(pss.SettingsError) as err:
        pss.settings_save(tournament=tournament, by=cast["organiser"],
                          values={**values, "final_wins_needed": 3})
    assert field in err.value.errors
    assert any("\u3040" <= ch <= "\u30ff" for ch in err.value.message)  # kana: Japanese
    tournament.refresh_from_db()
    assert tournament.preset_settings == {"r2_size": 36}
    assert not PresetSettingChange.objects.filter(tournament=tournament).exists()


def test_unknown_keys_are_refused(tournament: Tournament, cast: dict[str, Any]) -> None:
    with pytest.raises(pss.SettingsError):
        pss.settings_save(tournament=tournament, by=cast["organiser"], values={"nope": 1})
    with pytest.raises(pss.SettingsError):
        pss.settings_save(tournament=tournament, by=cast["organiser"], reset=["nope"])


def test_settings_are_refused_after_round_one_is_drawn(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    round_one = running_round_one(tournament, 16, cast["organiser"])
    before = dict(round_one.spec)
    with pytest.raises(pss.SettingsError) as err:
        pss.settings_save(tournament=tournament, by=cast["organiser"],
                          values={"wildcard_chain": ["score", "ratio", "lottery"]})
    assert "抽選後" in err.value.message
    tournament.refresh_from_db()
    assert tournament.preset_settings == {}
    assert Round.objects.get(id=round_one.id).spec == before
    assert not PresetSettingChange.objects.exists()
    # The page says so and offers no save button; a POST is refused with nothing saved.
    client = Client()
    client.force_login(cast["organiser"])
    page = client.get(settings_page(tournament.slug))
    assert page.status_code == 200
    assert "1回戦の抽選後はルール設定を変更できません" in page.content.decode()
    response = client.post(settings_page(tournament.slug),
                           {"action": "save", "r2_size": "36"})
    assert response.status_code == 400
    tournament.refresh_from_db()
    assert tournament.preset_settings == {}


# ------------------------------------------------------------------ the page


def test_page_lists_every_setting_with_note_default_and_value(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    from brackets.engine import preset_settings

    tournament.preset = "kyushu-cup-ix"
    tournament.preset_settings = {"wildcard_chain": ["score", "ratio", "lottery"]}
    tournament.save()
    client = Client()
    client.force_login(cast["organiser"])
    body = client.get(settings_page(tournament.slug)).content.decode()
    for spec in preset_settings("kyushu-cup-ix"):
        assert f'id="setting-{spec.key}"' in body
        assert escape(spec.doc) in body
    assert "得点 → 惜敗率 → 抽選" in body  # current chain
    assert "惜敗率 → 得点 → 抽選" in body  # default
    assert 'name="reset" value="wildcard_chain"' in body
    assert 'name="reset" value="r2_size"' not in body  # unchanged: nothing to reset


def test_page_saves_a_reordered_chain_and_resets(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    tournament.preset = "shop-top2"
    tournament.save()
    client = Client()
    client.force_login(cast["organiser"])
    url = settings_page(tournament.slug)
    # Checked chain items arrive in list order (the page's ↑↓ reorder the list).
    response = client.post(url, {"action": "save", "draw": "snake",
                                 "tie_break": ["score", "lottery"], "tie_break__present": "1",
                                 "catalog_version": "qma-2016"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.preset_settings == {"draw": "snake", "tie_break": ["score", "lottery"]}
    body = client.get(url).content.decode()
    assert "得点 → 抽選" in body and "org" in body  # history: who
    client.post(url, {"reset": "tie_break", "draw": "snake",
                      "tie_break": ["score", "lottery"]})
    tournament.refresh_from_db()
    assert tournament.preset_settings == {"draw": "snake"}
    # Every tie-break unticked: refused beside the list, nothing saved.
    response = client.post(url, {"action": "save", "draw": "mod", "tie_break__present": "1"})
    assert response.status_code == 400
    assert "少なくとも1つ選んでください" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.preset_settings == {"draw": "snake"}


def test_page_refuses_bad_input_beside_the_field(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    client = Client()
    client.force_login(cast["organiser"])
    response = client.post(settings_page(tournament.slug), {
        "action": "save", "penalty": "-5", "advance_per_group": "1",
        "tie_break": ["ratio", "score"], "tie_break__present": "1"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "ペナルティ（点）は0以上にしてください。" in body
    response = client.post(settings_page(tournament.slug), {
        "action": "save", "single_advance_rounds": "一", "advance_per_group": "1"})
    assert response.status_code == 400
    assert "カンマ区切りの整数" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.preset_settings == {}
    assert not PresetSettingChange.objects.exists()


@pytest.mark.parametrize(("who", "allowed"), [
    ("organiser", True), ("desk", False), ("bracket", False), ("outsider", False),
    ("anonymous", False)])
def test_only_the_organiser_may_change_settings(
        tournament: Tournament, clients: dict[str, Client], who: str, allowed: bool) -> None:
    response = clients[who].post(settings_page(tournament.slug),
                                 {"action": "save", "draw": "snake"})
    tournament.refresh_from_db()
    assert (tournament.preset_settings == {"draw": "snake"}) is allowed
    if not allowed:
        assert response.status_code in (302, 403, 404)


# ------------------------------------------------------------------ K7 per round


def card_round(tournament: Tournament, user: Any, per: str) -> Round:
    """九州杯IX round 1 (16 players, 4 groups) played as a 下関 card round.

    The card round of the real event is round 4; marking round 1 as one exercises the same
    services without playing three rounds first.
    """
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    if per != "match":
        pss.settings_save(tournament=tournament, by=user, values={"k7_draw_per": per})
    add_entrants(tournament, 16)
    r1 = svc.rounds_configure(tournament=tournament, by=user)[0]
    assert round_rules(r1).k7_draw_per_round == (per == "round")
    carded = {**r1.spec, "round": {**r1.spec["round"], "restrictions": {
        **r1.spec["round"]["restrictions"], "cards": True}}}
    Round.objects.filter(id=r1.id).update(spec=carded)
    r1 = Round.objects.get(id=r1.id)
    svc.round_draw(round=r1, by=user)
    svc.round_start(round=r1, by=user)
    return Round.objects.get(id=r1.id)


def test_k7_one_draw_per_round_applies_to_every_match(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    user = cast["bracket"]
    rnd = card_round(tournament, user, "round")
    groups = list(Group.objects.filter(round=rnd).order_by("number"))
    versions = {g.id: g.version for g in groups}
    fact = svc.card_draw(group=groups[0], by=user,
                         cards=[("芸能", "セレクト"), ("社会", "パネル")])
    assert fact.group_id is None and fact.round_id == rnd.id
    assert fact.lottery_purpose == f"round-{rnd.number}/cards"
    assert all(g.version > versions[g.id] for g in Group.objects.filter(round=rnd))
    catalog = ea.catalog_for(tournament.version_id)
    for g in groups:
        ctx = sel.match_context(sel.group_view(g))
        assert ctx["cards"].id == fact.id
        for choice in sel.seat_choices(sel.group_view(g), catalog, ctx).values():
            for option in choice.choices.options():
                if option.legal:
                    assert option.genre in {"芸能", "社会", "ノンジャンル"}
    # Drawn again from another match before any selection: the one draw is replaced.
    again = svc.card_draw(group=groups[2], by=user)
    assert again.supersedes_id == fact.id and again.group_id is None
    assert sel.match_context(sel.group_view(groups[1]))["cards"].id == again.id
    # Once any match of the round has a selection, the round's cards are fixed.
    choose_sets(groups[3], user)
    with pytest.raises(svc.RoundError):
        svc.card_draw(group=groups[0], by=user)
    assert SpecialFact.objects.filter(kind=SpecialFact.Kind.CARD_DRAW).count() == 2


def test_k7_default_is_one_draw_per_match(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    user = cast["bracket"]
    rnd = card_round(tournament, user, "match")
    g1, g2 = list(Group.objects.filter(round=rnd).order_by("number"))[:2]
    fact = svc.card_draw(group=g1, by=user)
    assert fact.group_id == g1.id
    assert sel.match_context(sel.group_view(g1))["cards"].id == fact.id
    assert sel.match_context(sel.group_view(g2))["cards"] is None
    choose_sets(g1, user)  # g2 can still draw its own cards
    assert svc.card_draw(group=g2, by=user).group_id == g2.id
    assert SelectionFact.objects.filter(group=g2).count() == 0


def test_k7_round_draw_through_the_match_page(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    user = cast["bracket"]
    rnd = card_round(tournament, user, "round")
    g1, g2 = list(Group.objects.filter(round=rnd).order_by("number"))[:2]
    client = Client()
    client.force_login(user)
    response = client.post(reverse("match_special", kwargs={"slug": tournament.slug,
                                                             "group_id": g1.id}),
                           {"action": "cards_app"})
    assert response.status_code == 302
    page = client.get(reverse("match_page", kwargs={"slug": tournament.slug,
                                                    "group_id": g2.id})).content.decode()
    assert "全組で共通" in page
    fact = SpecialFact.objects.get(kind=SpecialFact.Kind.CARD_DRAW)
    for genre, group in fact.data["cards"]:
        assert f"{genre} × {group}" in page


def test_switching_the_preset_drops_the_old_presets_values(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    pss.settings_save(tournament=tournament, by=cast["organiser"],
                      values={"r2_size": 36, "wildcard_chain": ["score", "lottery"]})
    # Values of another preset never reach the engine (no EngineError on every page).
    tournament.refresh_from_db()
    tournament.preset = "shop-top2"
    assert ea.preset_for(tournament).tie_break == ("ratio", "score", "lottery")
    # Switching through the tournament settings page clears them, recorded as resets.
    client = Client()
    client.force_login(cast["organiser"])
    response = client.post(reverse("tournament_edit", kwargs={"slug": tournament.slug}), {
        "name": tournament.name, "slug": tournament.slug, "capacity": 64, "seed_slots": 8,
        "fee": 0, "version": tournament.version_id, "preset": "shop-top2",
        "status": "preparing"})
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.preset == "shop-top2" and tournament.preset_settings == {}
    resets = PresetSettingChange.objects.filter(tournament=tournament, reset=True,
                                                preset="kyushu-cup-ix")
    assert {c.key for c in resets} == {"r2_size", "wildcard_chain"}


def test_k7_per_round_through_a_whole_kyushu_event_and_its_replay(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """九州杯IX with k7_draw_per = round: round 4's one draw serves all its matches, and
    the exported play file (settings included) replays to the same result."""
    from brackets.services.replay import (
        tournament_play_export,
        tournament_replay,
        tournament_summary,
    )
    from tests.rounds.test_full_events import run_kyushu

    user = cast["organiser"]
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    pss.settings_save(tournament=tournament, by=user, values={"k7_draw_per": "round"})
    run_kyushu(tournament, user, random.Random(5))
    r4 = Round.objects.get(tournament=tournament, number=4)
    assert round_rules(r4).k7_draw_per_round
    current = sel.special_facts(tournament, SpecialFact.Kind.CARD_DRAW, round=r4)
    assert len(current) == 1 and current[0].group_id is None
    for g in Group.objects.filter(round=r4):
        assert sel.match_context(sel.group_view(g))["cards"].id == current[0].id
    data = tournament_play_export(tournament)
    assert data["tournament"]["preset_settings"] == {"k7_draw_per": "round"}
    step4 = next(s for s in data["play"] if s["round"] == 4)
    assert step4["cards"] == current[0].data["cards"]
    assert all("cards" not in g for g in step4["groups"].values())
    replayed = tournament_replay(data=data, slug="replayed")
    assert replayed.preset_settings == {"k7_draw_per": "round"}
    assert tournament_summary(replayed) == tournament_summary(tournament)


def test_replay_refuses_bad_settings_before_creating_anything(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    from brackets.services.replay import ReplayError, tournament_play_export, tournament_replay

    tournament.preset = "shop-top2"
    tournament.save()
    pss.settings_save(tournament=tournament, by=cast["organiser"], values={"draw": "snake"})
    data = tournament_play_export(tournament)
    assert data["tournament"]["preset_settings"] == {"draw": "snake"}
    data["tournament"]["preset_settings"] = {"tie_break": []}
    with pytest.raises(ReplayError) as err:
        tournament_replay(data=data, slug="bad")
    assert err.value.where == "tournament.preset_settings"
    assert not Tournament.objects.filter(slug="bad").exists()


def test_tournament_file_keeps_settings_and_their_history(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    from brackets.exporters.tournament_file import tournament_file_data, tournament_file_import

    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    pss.settings_save(tournament=tournament, by=cast["organiser"],
                      values={"single_advance_rounds": [1], "penalty": "300"})
    data = tournament_file_data(tournament=tournament)
    copy = tournament_file_import(data=data, slug="copy")
    assert copy.preset_settings == {"single_advance_rounds": [1], "penalty": "300"}
    assert ea.preset_for(copy).penalty == Decimal(300)
    assert PresetSettingChange.objects.filter(tournament=copy).count() == 2


def test_settings_page_queries_do_not_grow_with_entrants(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    pss.settings_save(tournament=tournament, by=cast["organiser"], values={"penalty": "300"})
    client = Client()
    client.force_login(cast["organiser"])
    counts = []
    for more in (4, 60):
        add_entrants(tournament, more, prefix=f"Q{more}")
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(settings_page(tournament.slug)).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
