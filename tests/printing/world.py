"""Demo-like tournaments for the document tests, driven through the services as the desk
and the tablets would (so every document reads real facts, not hand-made rows)."""

from __future__ import annotations

import random
from typing import Any

from brackets.models import Entrant, EntrantRevision, Group, Seat, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc

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
    rule choices, 下関 cards, bans, partners, dice and the final's decisions."""
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    entrants = add_named_entrants(tournament, count, seeds=seeds, user=user)
    rounds = svc.rounds_configure(tournament=tournament, by=user)
    rng = random.Random(seed)
    for rnd in rounds[:2]:
        if rnd.number > upto + 1:
            return entrants
        svc.round_draw(round=rnd, by=user)
        if rnd.number > upto:
            return entrants
        play_round(rnd, user, rng)
        svc.round_advance(round=rnd, by=user)
    r3 = rounds[2]
    players, _ = svc.round_players(r3)
    for p in players:
        svc.rule_choice_record(round=r3, entrant=Entrant.objects.get(id=p),
                               rule=rng.choice("AB"), by=user)
    svc.round_draw(round=r3, by=user)
    if upto < 3:
        return entrants
    play_round(r3, user, rng)
    svc.round_advance(round=r3, by=user)
    r4 = rounds[3]
    svc.round_draw(round=r4, by=user)
    for g in Group.objects.filter(round=r4):
        svc.card_draw(group=g, by=user)
    if upto < 4:
        return entrants
    play_round(r4, user, rng)
    svc.round_advance(round=r4, by=user)
    sf = rounds[4]
    svc.round_draw(round=sf, by=user)
    for g in Group.objects.filter(round=sf):
        for s in Seat.objects.filter(group=g, entrant__isnull=False):
            svc.ban_record(group=g, entrant=s.entrant,
                           genre=rng.choice(["芸能", "社会", "スポーツ"]), by=user)
        svc.ban_reveal(group=g, by=user)
    if upto < 5:
        return entrants
    play_round(sf, user, rng)
    svc.round_advance(round=sf, by=user)
    table = sel.round_table(sel.round_view(sf))
    places = {r.place: int(r.player) for r in table}
    third, final = rounds[5], rounds[6]
    others = [e for e in entrants if e.id not in places.values()]
    svc.partner_record(round=third, contender=Entrant.objects.get(id=places[3]),
                       partner=others[0], by=user)
    svc.partner_record(round=third, contender=Entrant.objects.get(id=places[4]),
                       partner=others[1], by=user)
    svc.round_draw(round=third, by=user)
    if upto < 6:
        return entrants
    play_round(third, user, rng)
    svc.round_advance(round=third, by=user)
    svc.partner_record(round=final, contender=Entrant.objects.get(id=places[1]),
                       partner=others[2], by=user)
    svc.partner_record(round=final, contender=Entrant.objects.get(id=places[2]),
                       partner=others[3], by=user)
    dice = svc.dice_record(round=final, players=(places[1], places[2]), by=user)
    svc.final_setup_record(round=final, by=user, winner_decides="seat_order",
                           first=int(dice.data["winner"]), question_order="alternating")
    svc.round_draw(round=final, by=user)
    if upto < 7:
        return entrants
    svc.round_start(round=final, by=user)
    for g in Group.objects.filter(round=final).order_by("number"):
        state = sel.series_progress(sel.round_view(final))
        if state and state.finished:
            break
        play_group(g, user, rng)
    svc.round_close(round=final, by=user)
    svc.round_advance(round=final, by=user)
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
    svc.round_draw(round=rounds[0], by=user)
    return list(Entrant.objects.filter(tournament=tournament).order_by("id"))
