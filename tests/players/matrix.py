"""Role-matrix entries for the player registry's URLs (issue 14). Merged into
``tests/test_role_matrix.MATRIX``; the objects come from ``tests.matrix_world``."""

from __future__ import annotations

from typing import Any

from tests.rounds.matrix import DESK, ORGANISER


def _player(w: dict[str, Any]) -> dict[str, Any]:
    return {"slug": w["tournament"].slug, "player_id": w["player"].id}


def _achievement(w: dict[str, Any]) -> dict[str, Any]:
    return {**_player(w), "achievement_id": w["achievement"].id}


def players_matrix() -> dict[str, Any]:
    from tests.test_role_matrix import Entry

    return {
        "desk_player_lookup": Entry(DESK),
        "registry_list": Entry(DESK),
        "registry_player": Entry(DESK, kwargs=_player),
        "registry_achievement_add": Entry(DESK, method="POST", kwargs=_player, data=lambda w: {
            "kind": "national_title", "title": "賢帝", "game_version": "tg",
            "held_on": "2016-03-01", "source": "公式サイト"}),
        "registry_card_record": Entry(DESK, method="POST", kwargs=_player, data=lambda w: {
            "card_name": "マトリ2", "q_level": "50"}),
        "registry_merge": Entry(ORGANISER, method="POST", kwargs=_player, data=lambda w: {
            "merged": str(w["player_duplicate"].id), "reason": "同一人物（行列）"}),
        "registry_achievement_withdraw": Entry(ORGANISER, method="POST", kwargs=_achievement,
                                               data=lambda w: {"reason": "出典が別人の記録"}),
        "registry_achievement_correct": Entry(ORGANISER, method="POST", kwargs=_achievement,
                                              data=lambda w: {
            "kind": "national_title", "title": "賢王", "game_version": "tg",
            "held_on": "2016-03-01", "source": "行列の出典", "reason": "称号名の誤り"}),
        "registry_player_rename": Entry(ORGANISER, method="POST", kwargs=_player,
                                        data=lambda w: {"name": "行列選手",
                                                        "reading": "ぎょうれつせんしゅ"}),
        "registry_entrant_link": Entry(ORGANISER, method="POST", kwargs=_player,
                                       data=lambda w: {"entrant": str(w["entrant"].id)}),
        "registry_entrant_unlink": Entry(ORGANISER, method="POST", kwargs=_player,
                                         data=lambda w: {"entrant": str(w["entrant"].id)}),
        "player_links_review": Entry(ORGANISER),
        "player_link_decide": Entry(ORGANISER, method="POST", kwargs=lambda w: {
            "slug": w["tournament"].slug, "link_id": w["player_link"].id},
            data=lambda w: {"decision": "different"}),
        "shura_override": Entry(ORGANISER, method="POST", data=lambda w: {
            "entrant": str(w["entrant"].id), "ground": "national_title", "value": "0",
            "reason": "称号は別人のもの"}),
    }
