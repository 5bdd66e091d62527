"""``manage.py demo``: a full demo desk so a newcomer sees the app with real-looking data.

Creates the tournament ``demo`` with 72 entrants (Japanese names with readings, card names,
Q levels over every rank band of the catalog, 7 seeds, a few 修羅 declarations, most checked
in and paid) and the staff accounts ``desk`` and ``bracket``. Running it again adds nothing:
the tournament is found by its slug, entrants by their card names, accounts by username.
Every entrant goes through the desk's own service, so the demo obeys the desk's rules and
has revisions like real data.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from brackets.adapters.entrants import opt_up_limits
from brackets.engine_adapter import preset_for
from brackets.models import Entrant, QmaVersion, Rank, Role, Tournament
from brackets.presets import preset_choices
from brackets.services.catalog import catalog_load_builtin
from brackets.services.entrants import entrant_register, kana_fold
from brackets.services.tournaments import generated_password, staff_add

DEMO_SLUG = "demo"
DEMO_SIZE = 72
DEMO_SEEDS = 7
# 72 entrants with 7 seeds leaves 65 general entrants: one more than the default 64.
DEMO_CAPACITY = 72

FAMILY = [
    ("田中", "たなか"), ("鈴木", "すずき"), ("佐藤", "さとう"), ("高橋", "たかはし"), ("伊藤", "いとう"),
    ("渡辺", "わたなべ"), ("山本", "やまもと"), ("中村", "なかむら"), ("小林", "こばやし"), ("加藤", "かとう"),
    ("吉田", "よしだ"), ("山田", "やまだ"), ("松本", "まつもと"), ("井上", "いのうえ"), ("木村", "きむら"),
    ("林", "はやし"), ("清水", "しみず"), ("森", "もり"), ("池田", "いけだ"), ("橋本", "はしもと"),
    ("石川", "いしかわ"), ("前田", "まえだ"), ("藤田", "ふじた"), ("後藤", "ごとう"), ("岡田", "おかだ"),
    ("長谷川", "はせがわ"), ("村上", "むらかみ"), ("近藤", "こんどう"), ("坂本", "さかもと"), ("遠藤", "えんどう"),
    ("青木", "あおき"), ("西村", "にしむら"), ("福田", "ふくだ"), ("太田", "おおた"), ("三浦", "みうら"),
    ("藤井", "ふじい"), ("岡本", "おかもと"), ("松田", "まつだ"), ("中川", "なかがわ"), ("原田", "はらだ"),
]
GIVEN = [
    ("翔太", "しょうた"), ("大輔", "だいすけ"), ("健太", "けんた"), ("拓也", "たくや"), ("直樹", "なおき"),
    ("和也", "かずや"), ("亮", "りょう"), ("悠斗", "ゆうと"), ("陽菜", "ひな"), ("美咲", "みさき"),
    ("彩", "あや"), ("千尋", "ちひろ"), ("優子", "ゆうこ"), ("真由美", "まゆみ"), ("浩二", "こうじ"),
    ("誠", "まこと"), ("剛", "つよし"), ("聡", "さとし"), ("裕太", "ゆうた"), ("瑞穂", "みずほ"),
    ("智也", "ともや"), ("遥", "はるか"), ("蓮", "れん"), ("葵", "あおい"), ("隼人", "はやと"),
    ("結衣", "ゆい"), ("達也", "たつや"), ("恵", "めぐみ"), ("修", "おさむ"), ("光", "ひかる"),
]
CARD_NAMES = [
    "ショウタ", "だいすけ", "ＫＥＮＴＡ", "タクヤ☆", "なおきち", "カズヤン", "リョウ", "ユウト", "ひなた",
    "ミサキ", "あやぽん", "チヒロ", "ユウコ", "まゆみん", "コージ", "マコト", "ツヨシ", "サトシ", "ゆーた",
    "ミズホ", "トモヤ", "ハルカ", "レン", "アオイ", "ハヤト", "ゆいゆい", "タツヤ", "メグ", "オサム", "ヒカル",
    "シグマ", "アルファ", "博多っ子", "天神人", "小倉の星", "くまモン党", "さつま", "ながさき", "オオイタ",
    "ミヤザキ", "サガン", "九州男児", "クイズ王", "賢者見習", "魔導士Ｋ", "ＱＭＡ好き", "ルキア推し",
    "シャロン", "ユリ推し", "アロエ", "マラリヤ", "クララ", "レオン", "セリオス", "カイル", "ラスク",
    "ヤンヤン", "リエル", "ミュー", "アイコ", "サツキ", "リディア", "メディア", "ドラゴン", "ペガサス",
    "フェニクス", "ぽてと", "みかん", "とんこつ", "明太子", "ちゃんぽん", "ラーメン", "ごぼ天", "かしわ",
]
STORES = [
    "ラウンドワン博多", "タイトーステーション天神", "ナムコ小倉", "セガ熊本", "アピナ鹿児島",
    "ゲームパニック佐賀", "サードプラネット長崎", "ラウンドワン大分", "セガ宮崎", "ラウンドワン久留米",
]


@dataclass
class Created:
    tournament: bool = False
    entrants: int = 0
    accounts: dict[str, str] | None = None


def demo_entrant_data(ranks: list[Rank], rng: random.Random, *, shura: bool = False,
                      opt_up: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """72 entrants: names with readings, unique card names, Q levels over every rank band.

    修羅 declarations are made only when the event has 修羅 lots (``shura``) and プチ修羅
    modes only when players' modes come from their Q level (``opt_up``: each mode's Q level
    from which the rank is already as strict, ``adapters.entrants.opt_up_limits``), by a
    player below it: the desk refuses any other, and the badges would mislead a newcomer.
    """
    people = [(f, g) for g in GIVEN for f in FAMILY]
    rng.shuffle(people)
    cards = list(CARD_NAMES)
    rng.shuffle(cards)
    bands = sorted(ranks, key=lambda r: r.q_min)
    rows = []
    for i in range(DEMO_SIZE):
        (family, family_kana), (given, given_kana) = people[i]
        band = bands[i % len(bands)]
        q_max = min(band.q_max, band.q_min + 40)
        row: dict[str, Any] = {
            "name": f"{family}{given}",
            "reading": f"{family_kana} {given_kana}",
            "card_name": cards[i],
            "home_store": STORES[i % len(STORES)],
            "q_level": rng.randint(band.q_min, q_max),
            "checked_in": i % 9 != 4,
            "fee_paid": i % 12 != 7,
        }
        rows.append(row)
    # Seeds: the highest Q levels, numbered by Q level.
    by_q = sorted(range(DEMO_SIZE), key=lambda i: (-rows[i]["q_level"], i))
    for number, index in enumerate(by_q[:DEMO_SEEDS], start=1):
        rows[index]["seed"] = number
        rows[index]["checked_in"] = True
        rows[index]["fee_paid"] = True
    declarations: list[dict[str, Any]] = [
        {"shura_titles": 2, "notes": "全国大会優勝2回"},
        {"shura_titles": 1, "shura_local_wins": 1},
        {"shura_local_wins": 1},
        {"shura_voluntary": True},
        {"shura_voluntary": True, "shura_extra_lots": 2, "notes": "くじ追加を自己申告"},
        {"past_win_lots": 6, "shura_titles": 1, "notes": "前回優勝"},
        {"opt_up": "pinpoint"},
        {"opt_up": "bomber"},
    ]
    taken: set[int] = set()
    for offset, declaration in enumerate(declarations):
        declared = {key: value for key, value in declaration.items()
                    if (key.startswith(("shura_", "past_win_")) and shura)
                    or (key == "opt_up" and opt_up is not None)}
        if not declared:
            continue
        candidates = by_q[DEMO_SEEDS + offset * 3:] + by_q[DEMO_SEEDS:DEMO_SEEDS + offset * 3]
        if "opt_up" in declared:
            assert opt_up is not None
            candidates = [i for i in candidates
                          if rows[i]["q_level"] < opt_up[declared["opt_up"]]]
        index = next((i for i in candidates if i not in taken), None)
        if index is None:
            continue
        taken.add(index)
        rows[index].update(declared, **(
            {"notes": declaration["notes"]} if "notes" in declaration else {}))
    return rows


class Command(BaseCommand):
    help = "デモ大会（slug: demo）と参加者72名・受付／進行スタッフを作ります（何度実行しても増えません）。"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=2019, help="名前などを選ぶ乱数の種")
        parser.add_argument("--preset", default="kyushu-cup-ix",
                            help="新しく作るデモ大会のプリセット（katata-kansai5-qualifier なら修羅の申告も入ります）")

    def handle(self, *args: Any, **options: Any) -> None:
        created = self.build(seed=options["seed"], preset=options["preset"])
        out = self.stdout
        tournament = Tournament.objects.get(slug=DEMO_SLUG)
        if created.tournament:
            out.write(self.style.SUCCESS(f"デモ大会「{tournament.name}」を作りました（/t/{DEMO_SLUG}/desk/）。"))
        else:
            out.write(f"デモ大会「{tournament.name}」は既にあります。")
        out.write(f"参加者を {created.entrants} 名追加しました（合計 {tournament.entrants.count()} 名）。")
        for username, password in (created.accounts or {}).items():
            if password:
                out.write(self.style.WARNING(f"スタッフ {username} / パスワード: {password}（この一度だけ表示）"))
            else:
                out.write(f"スタッフ {username} は既にあります（パスワードは変えていません）。")

    @transaction.atomic
    def build(self, *, seed: int, preset: str = "kyushu-cup-ix") -> Created:
        catalog_load_builtin()
        created = Created(accounts={})
        tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if tournament is None:
            presets = dict(preset_choices())
            preset = preset if preset in presets else "shop-top2"
            # The event's short name: 「九州杯IX（…）」 → 「九州杯IX」.
            short = str(presets.get(preset, preset)).split("（")[0]
            version = QmaVersion.objects.filter(slug="qma-2016").first() or QmaVersion.objects.first()
            tournament = Tournament(
                slug=DEMO_SLUG,
                name=f"デモ大会（{short}形式）",
                date=datetime.date.today(),
                venue="デモ会場",
                capacity=DEMO_CAPACITY,
                seed_slots=8,
                fee=500,
                version=version,
                preset=preset,
                status=Tournament.Status.ENTRY,
            )
            tournament.full_clean()
            tournament.save()
            created.tournament = True
        ranks = list(Rank.objects.filter(version=tournament.version))
        existing = set(Entrant.objects.filter(tournament=tournament).values_list("card_key", flat=True))
        rules = preset_for(tournament)
        rows = demo_entrant_data(ranks, random.Random(seed), shura=rules.shura,
                                 opt_up=opt_up_limits(tournament))
        for row in rows:
            if kana_fold(row["card_name"]) in existing:
                continue
            entrant_register(tournament=tournament, by=None, data=row, action="register")
            created.entrants += 1
        user_model = get_user_model()
        for username, role in (("desk", Role.DESK), ("bracket", Role.BRACKET)):
            password = ""
            if not user_model.objects.filter(username=username).exists():
                password = generated_password(username)
            staff_add(tournament=tournament, username=username, role=role, password=password)
            assert created.accounts is not None
            created.accounts[username] = password
        return created
