"""Demo-like tournaments for the document tests, driven through the services as the desk
and the tablets would (so every document reads real facts, not hand-made rows)."""

from __future__ import annotations

import random
from typing import Any

from brackets.models import Entrant, EntrantRevision, Group, Tournament
from brackets.services import rounds as svc
from tests.floor.helpers import draw_released

SURNAMES = ["山田", "鈴木", "佐藤", "高橋", "田中", "伊藤", "渡辺", "中村", "小林", "加藤",
            "吉田", "山本", "松本", "井上", "木村", "林", "清水", "山崎", "森", "池田"]
SURNAME_KANA = ["やまだ", "すずき", "さとう", "たかはし", "たなか", "いとう", "わたなべ",
                "なかむら", "こばやし", "かとう", "よしだ", "やまもと", "まつもと", "いのうえ",
                "きむら", "はやし", "しみず", "やまざき", "もり", "いけだ"]
GIVEN = ["太郎", "花子", "一郎", "美咲", "翔太", "結衣", "大輔", "彩", "健", "真由美"]
GIVEN_KANA = ["たろう", "はなこ", "いちろう", "みさき", "しょうた", "ゆい", "だいすけ", "あや",
              "けん", "まゆみ"]
CARDS = ["アルフ", "ルキア", "セリオス", "シャロン", "カイル", "クララ", "ユウ", "リエル",
         "タイガ", "ヤンヤン", "マラリヤ", "サツキ", "アロエ", "ラスク", "ミュー", "ハルト"]


def add_named_entrants(tournament: Tournament, count: int, *, seeds: int = 0,
                       user: Any = None, q_levels: list[int] | None = None) -> list[Entrant]:
    """``count`` entrants with Japanese names, readings and card names, each with a
    creation revision (who and when), the first ``seeds`` seeded."""
    rows = []
    for i in range(count):
        s, g = i % len(SURNAMES), (i // len(SURNAMES) + i) % len(GIVEN)
        rows.append(Entrant(
            tournament=tournament, name=f"{SURNAMES[s]}{GIVEN[g]}",
            reading=f"{SURNAME_KANA[s]}{GIVEN_KANA[g]}",
            card_name=f"{CARDS[i % len(CARDS)]}{i + 1}"[:8],
            home_store=["ゲームセンター九州", "アミューズ天神", "ラウンドワン博多"][i % 3],
            q_level=q_levels[i] if q_levels else 30 + (i * 7) % 70,
            seed=i + 1 if i < seeds else None, checked_in=True, fee_paid=True))
    Entrant.objects.bulk_create(rows)
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("id"))
    EntrantRevision.objects.bulk_create([
        EntrantRevision(entrant=e, number=1, data={"name": e.name, "card_name": e.card_name},
                        action="create", by=user) for e in entrants])
    return entrants


def play_group(group: Group, user: Any, rng: random.Random) -> None:
    from tests.rounds.helpers import play_group as play

    play(group, user, rng)


def play_round(rnd: Any, user: Any, rng: random.Random) -> None:
    from tests.rounds.helpers import play_round as play

    play(rnd, user, rng)


def build_kyushu(tournament: Tournament, user: Any, *, count: int = 65, seeds: int = 7,
                 upto: int = 7, seed: int = 1) -> list[Entrant]:
    """九州杯IX (K1–K10) played through round ``upto`` (1–7): draws, selections, scores,
    rule choices, 下関 cards, bans, partners, dice and the final's decisions
    (``tests.states.kyushu_play``, stopping where ``tests.states.UPTO_STOPS`` says)."""
    from tests.states import UPTO_STOPS, kyushu_play

    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    entrants = add_named_entrants(tournament, count, seeds=seeds, user=user)
    kyushu_play(tournament, user, entrants, UPTO_STOPS[upto], seed=seed)
    return entrants


def build_katata(tournament: Tournament, user: Any, *, count: int = 13) -> list[Entrant]:
    """堅田大会 (seed 002): rank modes, 修羅 declarations and drawn lots, round 1 drawn."""
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    q_levels = [(20 + i * 9) % 100 for i in range(count)]
    entrants = add_named_entrants(tournament, count, user=user, q_levels=q_levels)
    Entrant.objects.filter(id=entrants[0].id).update(shura_titles=1, shura_local_wins=1,
                                                      q_level=95)
    Entrant.objects.filter(id=entrants[1].id).update(shura_voluntary=True, shura_extra_lots=1)
    Entrant.objects.filter(id=entrants[2].id).update(opt_up="bomber", q_level=40)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    for e in Entrant.objects.filter(id__in=[entrants[0].id, entrants[1].id]):
        svc.shura_lots_draw(tournament=tournament, entrant=e, by=user)
    draw_released(rounds[0], user)
    return list(Entrant.objects.filter(tournament=tournament).order_by("id"))
