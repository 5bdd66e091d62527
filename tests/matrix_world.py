"""The objects the role matrix needs to build every URL: one of each kind, recreated
after each POST so a destructive action can be tried by every user."""

from __future__ import annotations

from typing import Any

from brackets.models import Membership, Role, Tournament


def build_world(*, tournament: Tournament, cast: dict[str, Any]) -> dict[str, Any]:
    # The spare membership belongs to a user outside the cast: giving it to the desk user
    # would make "desk" bracket staff too and hide a missing role check on bracket pages.
    from django.contrib.auth import get_user_model

    spare_user, _ = get_user_model().objects.get_or_create(username="spare-staff")
    spare_membership, _ = Membership.objects.get_or_create(
        tournament=tournament, user=spare_user, role=Role.BRACKET
    )
    world = {"tournament": tournament, "cast": cast, "spare_membership": spare_membership}
    world.update(build_buzzer_world(tournament=tournament))
    world.update(build_desk_world(tournament=tournament, cast=cast))
    world.update(build_players_world())
    world.update(build_series_world(tournament=tournament))
    world.update(build_player_links_world(world))
    world.update(build_registry_corrections_world(world))
    world.update(build_rulesets_world(cast))
    return world


def build_rulesets_world(cast: dict[str, Any]) -> dict[str, Any]:
    """One rule set (the shop event's), for the rule-set pages (issue 17)."""
    from brackets.models import RuleSetDoc
    from brackets.services.rulesets import ruleset_start

    ruleset = RuleSetDoc.objects.order_by("pk").first()
    if ruleset is None:
        ruleset = ruleset_start(by=cast["organiser"], preset="shop-top2")
    return {"ruleset": ruleset}


def build_buzzer_world(*, tournament: Tournament) -> dict[str, Any]:
    """A live round, a sudden death of it, and a paper marking (issue 6)."""
    from tests.buzzer_web.factories import make_matrix_buzzer_world

    return make_matrix_buzzer_world(tournament)


def build_desk_world(*, tournament: Tournament, cast: dict[str, Any]) -> dict[str, Any]:
    """An entrant and a pending import for the entry desk's URLs (issue 2)."""
    from brackets.models import Entrant, EntrantImport
    from brackets.services.entrants import entrant_register

    entrant = Entrant.objects.filter(tournament=tournament, card_name="マトリクス").first()
    if entrant is None:
        entrant = entrant_register(
            tournament=tournament,
            by=cast["desk"],
            data={"name": "行列太郎", "reading": "ぎょうれつたろう", "card_name": "マトリクス"},
        )
    batch, _ = EntrantImport.objects.get_or_create(
        tournament=tournament,
        token="matrix-import",
        defaults={
            "filename": "pre.csv",
            "headers": ["名前", "カードネーム"],
            "mapping": ["name", "card_name"],
            "rows": [[2, "取込花子", "ハナコ"]],
        },
    )
    return {"entrant": entrant, "entrant_import": batch}


def build_players_world() -> dict[str, Any]:
    """A registry player and a duplicate of them for the registry's URLs (issue 14)."""
    from brackets.models import Player
    from brackets.services.players import player_create

    def player(name: str, card: str) -> Player:
        found = Player.objects.filter(name=name).first()
        return found or player_create(name=name, reading="ぎょうれつ", card_name=card,
                                      q_level=60, by=None)

    return {"player": player("行列選手", "マトリ"), "player_duplicate": player("行列選手2", "マトリ3")}


def build_series_world(*, tournament: Tournament) -> dict[str, Any]:
    """A series with the tournament as a qualifier, for the series pages (issue 14)."""
    from brackets.models import Series
    from brackets.services.series import tournament_series_set

    series, _ = Series.objects.get_or_create(slug="matrix-series",
                                             defaults={"name": "行列杯", "game_version": "we"})
    tournament_series_set(tournament=tournament, series=series)
    return {"series": series}


def build_player_links_world(world: dict[str, Any]) -> dict[str, Any]:
    """An uncertain link of an imported entrant, for the review's URLs (issue 14 item 5)."""
    from brackets.models import PlayerLink

    link, _ = PlayerLink.objects.get_or_create(entrant=world["entrant"], defaults={
        "tournament": world["tournament"], "player": world["player_duplicate"],
        "match": PlayerLink.Match.UNCERTAIN,
        "candidates": [{"player": world["player"].pk, "reason": "same_name_no_card",
                        "cards": []}]})
    return {"player_link": link}


def build_registry_corrections_world(world: dict[str, Any]) -> dict[str, Any]:
    """An achievement in force and a berth granted by hand, for the withdraw and correct
    URLs (issue 14): made again once a POST withdrew them."""
    import datetime

    from brackets.models import Achievement, SeriesBerthGrant
    from brackets.services.players import achievement_add
    from brackets.services.series import berth_grant

    player = world["player"]
    achievement = Achievement.objects.filter(player=player, correction__isnull=True).first()
    if achievement is None:
        achievement = achievement_add(player=player, by=world["cast"]["organiser"], data={
            "kind": "national_title", "title": "賢帝", "game_version": "tg",
            "held_on": datetime.date(2016, 3, 1), "source": "行列の出典"})
    grant = SeriesBerthGrant.objects.filter(series=world["series"],
                                            withdrawal__isnull=True).first()
    if grant is None:
        grant = berth_grant(series=world["series"], player=world["player_duplicate"],
                            qualifier="行列予選", held_on=datetime.date(2019, 1, 5), place=1,
                            source="行列予選の結果", by=None)
    return {"achievement": achievement, "berth_grant": grant}
