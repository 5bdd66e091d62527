"""Whole events from round 1 to champion, every selection checked by the restriction engine.

Selections and scores are generated from a :class:`Lottery` (so the run is reproducible);
draws, results, advancement and the special rounds come from the engine modules, wired
together only through the presets. Each round's size is asserted against the rule pages.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import cast

import pytest

from brackets.engine import (
    CATALOG_2016,
    Choices,
    Group,
    HistoryEntry,
    Lottery,
    MatchResult,
    MatchRules,
    Method,
    PastWin,
    Penalty,
    PlayerRules,
    Preset,
    RuleSet,
    SeatEntry,
    Selection,
    ShuraDeclaration,
    advance,
    assign_rules,
    check_pair,
    compile_ruleset,
    draw_cards,
    draw_groups,
    draw_lots,
    extra_card_rule,
    final_setup,
    format_lots_allowed,
    get_preset,
    legal_choices,
    lots_owed,
    match_result,
    partner_match,
    partner_match_winner,
    processing_order,
    reveal_bans,
    roll_dice,
    ruleset_of,
    series_state,
    set_order,
    shimonoseki_deck,
)

C = CATALOG_2016
History = dict[str, list[HistoryEntry]]
#: What a whole event did: every set played, the podium.
Replay = dict[str, object]


def pick(choices: Choices, lot: Lottery) -> Selection:
    """A legal selection chosen by lot (what a rule-abiding player does)."""
    genre = lot.choice(choices.legal_genres)
    fmt = lot.choice(choices.legal_formats(genre))
    return Selection(genre, fmt, lot.choice(C.difficulties))


def play(seats: Sequence[str | None], lot: Lottery, penalties: Sequence[Penalty] = ()
         ) -> MatchResult:
    """A match with distinct random screen scores; the screen order is the score order."""
    raw = lot.sample(range(40001), len(seats))
    order = sorted(range(len(seats)), key=lambda i: -raw[i])
    place = {seat: rank + 1 for rank, seat in enumerate(order)}
    entries = [SeatEntry(i + 1, seats[i], Decimal(raw[i]) / 100, place[i])
               for i in range(len(seats))]
    return match_result(entries, group=[p for p in seats if p is not None],
                        penalties=penalties)


def choose_for_group(group: Group, rules: Mapping[str, PlayerRules], history: History,
                     match: MatchRules, lot: Lottery) -> dict[str, Selection]:
    """Every player of a group chooses a legal set; each is checked and recorded."""
    chosen: dict[str, Selection] = {}
    for player in group.players:
        ch = legal_choices(C, rules[player], history[player], match)
        selection = pick(ch, lot.child(player))
        check = ch.check(selection)
        assert check.ok, (player, selection, check.violations)
        chosen[player] = selection
    return chosen


def record(history: History, chosen: Mapping[str, Selection],
           entry_of: Callable[[Selection, str], HistoryEntry], round_name: str) -> None:
    for player, selection in chosen.items():
        history[player].append(entry_of(selection, round_name))


# -- 九州杯IX -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", ["kyushu-ix-2019", "another-seed"])
def test_kyushu_cup_ix_58_entrants_7_seeds_to_champion(seed: str) -> None:
    preset = get_preset("kyushu-cup-ix")
    assert preset.settings["r2_draw"] == preset.round("r2").draw
    play_kyushu_cup_ix(preset, seed)


def play_kyushu_cup_ix(preset: Preset, seed: str) -> Replay:
    """九州杯IX with 58 entrants and 7 seeds under ``preset``, asserting the rule pages'
    sizes on the way; what happened (every set played, the podium) for comparison."""
    lot = Lottery(seed, "simulation")
    entrants = [f"p{i:02d}" for i in range(1, 59)]
    seeds = [f"s{i}" for i in range(1, 8)]
    rules = {p: preset.player_rules() for p in entrants + seeds}
    history: History = defaultdict(list)
    nongenre_fallbacks = 0

    def run_groups(round_key: str, groups: Sequence[Group], variant: str | None = None,
                   cards_deck: bool = False, bans: bool = False) -> dict[str, MatchResult]:
        nonlocal nongenre_fallbacks
        spec = preset.round(round_key)
        restrictions = spec.restrictions_for(variant)
        results: dict[str, MatchResult] = {}
        for group in groups:
            glot = lot.child(f"{round_key}{variant or ''}/g{group.number}")
            cards = None
            if cards_deck:
                deck = shimonoseki_deck(C, preset.settings["k7_deck"])
                cards = draw_cards(deck, glot.child("cards"),
                                   extra_if=extra_card_rule(preset.settings["k7_extra_card"]))
                assert len(cards.cards) in (2, 3)
            revealed: frozenset[str] = frozenset()
            if bans:
                revealed = reveal_bans(group.players, {
                    p: glot.child(f"ban/{p}").choice(C.lot_genres) for p in group.players})
            match = restrictions.match_rules(spec.name, cards=cards, bans=revealed)
            chosen = choose_for_group(group, rules, history, match, glot)
            for player, selection in chosen.items():
                if selection.genre == C.nongenre:
                    nongenre_fallbacks += legal_choices(
                        C, rules[player], history[player], match).genre_fallback
            record(history, chosen, restrictions.history_entry, spec.name)
            results[f"{round_key}{variant or ''}-{group.number}"] = play(
                group.seats, glot.child("scores"))
        return results

    # Round 1: 58 players, 15 groups, 2 with a dummy; top 2 + 3 wildcards (K4).
    r1 = preset.round("r1")
    draw1 = draw_groups(entrants, method="random", lottery=lot.child("r1/draw"))
    assert len(draw1.groups) == 15 and draw1.dummy_count == 2
    res1 = run_groups("r1", draw1.groups)
    out1 = advance(res1, r1.advancement_rule(already_in=len(seeds), chain=preset.tie_break),
                   context=None)
    assert len(out1.players) == 33 and out1.cut == 3
    # Round 2: 40 with the seeds, never two seeds together (K5).
    r2_players = out1.players + seeds
    assert len(r2_players) == preset.round("r2").size == 40
    draw2 = draw_groups(r2_players, method=cast(Method, preset.round("r2").draw),
                        lottery=lot.child("r2/draw"), seeds=seeds)
    assert len(draw2.groups) == 10 and draw2.dummy_count == 0
    assert all(sum(p in seeds for p in g.players) <= 1 for g in draw2.groups)
    res2 = run_groups("r2", draw2.groups)
    out2 = advance(res2, preset.round("r2").advancement_rule(chain=preset.tie_break))
    assert len(out2.players) == 20
    # Round 3: rule selection (K6).
    order = [row.player for row in processing_order(res2, players=out2.players)]
    wishes = {p: lot.child(f"r3/wish/{p}").choice(["A", "B"]) for p in order}
    r3 = preset.round("r3")
    assignment = assign_rules(order, wishes, {v.key: v.capacity for v in r3.variants})
    r4_players: list[str] = []
    for variant in r3.variants:
        members = assignment.players_of(variant.key)
        assert len(members) == variant.capacity
        draw3 = draw_groups(members, method="random", lottery=lot.child(f"r3{variant.key}"))
        res3 = run_groups("r3", draw3.groups, variant=variant.key)
        out3 = advance(res3, r3.advancement_rule(variant=variant.key))
        assert len(out3.players) == len(draw3.groups) * variant.advance_per_group
        r4_players.extend(out3.players)
    # Rule B sets are not in the history: a B player's latest entry is unrecorded.
    b_player = assignment.players_of("B")[0]
    assert not history[b_player][-1].recorded
    assert len(r4_players) == preset.round("r4").size == 8
    # Round 4: 下関ルール・改 (K7).
    draw4 = draw_groups(r4_players, method="random", lottery=lot.child("r4/draw"))
    res4 = run_groups("r4", draw4.groups, cards_deck=True)
    sf_players = advance(res4, preset.round("r4").advancement_rule()).players
    assert len(sf_players) == 4
    # Semi-final with simultaneous bans (K8): top 2 to the final, bottom 2 to 3rd place.
    sf_group = draw_groups(sf_players, method="random", lottery=lot.child("sf/draw")).groups
    res_sf = run_groups("sf", sf_group, bans=True)
    ranking = res_sf["sf-1"].ranking()
    finalists, third_contenders = ranking[:2], ranking[2:]
    present = [p for p in entrants + seeds if p not in sf_players]

    def pair_sets(restr_key: str, contender: str, partner: str, pair_hist: list[HistoryEntry],
                  round_name: str, plot: Lottery) -> tuple[Selection, Selection]:
        restr = preset.round(restr_key).restrictions
        rules_pair = preset.player_rules()
        first_ch = legal_choices(C, rules_pair, pair_hist, restr.match_rules(round_name))
        first = pick(first_ch, plot.child(contender))
        second_ch = legal_choices(C, rules_pair, pair_hist,
                                  restr.match_rules(round_name, partner=first))
        second = pick(second_ch, plot.child(partner))
        assert check_pair(C, first, second) == ()
        return first, second

    # Third-place match (K9): no history restriction, the two-set constraint only.
    partners = {c: present[i] for i, c in enumerate(third_contenders)}
    third = partner_match((third_contenders[0], third_contenders[1]), partners,
                          present=present + third_contenders)
    for contender in third_contenders:
        pair_sets("third", contender, partners[contender], [], "3位決定戦",
                  lot.child("third"))
    third_res = play([third.seats[s] for s in (1, 2, 3, 4)], lot.child("third/scores"))
    third_outcome = partner_match_winner(third, third_res)
    assert {third_outcome.winner, third_outcome.loser} == set(third_contenders)
    # Final (K10): dice, set order, best of 3, history reset and per pair.
    duel = roll_dice((finalists[0], finalists[1]), lot.child("final/dice"))
    setup = final_setup(duel, winner_decides="question_order", first=duel.loser,
                        question_order="alternating")
    final_partners = {setup.first: present[2], setup.second: present[3]}
    final = partner_match((setup.first, setup.second), final_partners)
    pair_history: dict[str, list[HistoryEntry]] = {setup.first: [], setup.second: []}
    final_restr = preset.round("final").restrictions
    game_winners: list[str] = []
    wins_needed = preset.round("final").wins_needed or 2
    state = series_state((setup.first, setup.second), game_winners, wins_needed=wins_needed)
    while not state.finished:
        game = state.games_played + 1
        assert len(set_order(setup.question_order, game)) == 4
        name = f"決勝 第{game}戦"
        for contender in (setup.first, setup.second):
            first, second = pair_sets("final", contender, final_partners[contender],
                                      pair_history[contender], name,
                                      lot.child(f"final/{game}"))
            pair_history[contender].append(final_restr.history_entry(first, name))
            pair_history[contender].append(final_restr.history_entry(second, name))
        result = play([final.seats[s] for s in (1, 2, 3, 4)], lot.child(f"final/{game}/s"))
        game_winners.append(partner_match_winner(final, result).winner)
        state = series_state((setup.first, setup.second), game_winners,
                             wins_needed=wins_needed)
    assert state.winner in finalists and 2 <= state.games_played <= 3
    # The basic rule held for every player through round 1 .. semi-final.
    for player, entries in history.items():
        counted = [e for e in entries if e.recorded]
        genres = [e.selection.genre for e in counted if e.selection.genre != C.nongenre]
        groups = [C.group_of(e.selection.format) for e in counted]
        assert len(genres) == len(set(genres)), player
        groups = [g for g in groups if g != C.random_group]
        assert len(groups) == len(set(groups)), player
    # ノンジャンル was only ever reused through the H6/K7 fallback.
    for player, entries in history.items():
        nongenre = [e for e in entries if e.recorded and e.selection.genre == C.nongenre]
        assert len(nongenre) <= 1 + nongenre_fallbacks, player
    return {"history": dict(history), "final_history": pair_history,
            "third": third_outcome.winner, "games": game_winners, "champion": state.winner}


# -- 堅田大会 --------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", ["katata-2019", "katata-other"])
def test_katata_13_entrants_with_shura_players_to_champion(seed: str) -> None:
    preset = get_preset("katata-kansai5-qualifier")
    assert preset.rounds[0].draw == preset.settings["draw"]
    play_katata(preset, seed)


def play_katata(preset: Preset, seed: str) -> Replay:
    """堅田 with 13 entrants, three 修羅 players and now and then an illegal set under
    ``preset``; what happened (every set, penalties, the final) for comparison."""
    lot = Lottery(seed, "simulation")
    players = [f"k{i:02d}" for i in range(1, 14)]
    q_levels = {p: lot.child(f"q/{p}").choice([20, 34, 40, 49, 55, 62, 79, 80, 95])
                for p in players}
    q_levels["k01"] = 92
    declarations = {
        "k01": ShuraDeclaration(national_title=True, shiga_winner=True, extra_lots=2),
        "k02": ShuraDeclaration(volunteer=True),
        "k03": ShuraDeclaration(seed_or_invitation=True, extra_lots=1),
    }
    rounds = preset.rounds_for(len(players))
    assert [r.size for r in rounds] == [13, 8, 4]
    max_matches = preset.max_matches(len(players))
    assert max_matches == 3
    rules: dict[str, PlayerRules] = {}
    lots_lot = Lottery(seed, "shura")
    for player in players:
        owed = lots_owed(declarations.get(player, ShuraDeclaration()))
        k = 0
        if player == "k01":
            k = format_lots_allowed([PastWin(4, 1)], q_level=q_levels[player],
                                    genre_lots_now=owed.genre_lots, max_matches=max_matches)
            assert k == 2  # min(5 − 3, 5 − 3)
        drawn = (draw_lots(lots_lot, C, player, genre_lots=owed.genre_lots, format_lots=k)
                 if owed.shura else None)
        rules[player] = preset.player_rules(q_level=q_levels[player], owed=owed, drawn=drawn)
    assert len(rules["k01"].lot_genres) == 4 and len(rules["k01"].lot_formats) == 2
    assert rules["k02"].mode.value == "bomber" and len(rules["k02"].lot_genres) == 1

    history: History = defaultdict(list)
    penalised: set[tuple[str, str]] = set()
    remaining = players
    final_result: MatchResult | None = None
    for spec in rounds:
        assert len(remaining) == spec.size
        draw = draw_groups(remaining, method=cast(Method, preset.rounds[0].draw),
                           lottery=lot.child(f"{spec.key}/draw"))
        if spec.kind == "final_group":
            assert len(draw.groups) == 1
        results: dict[str, MatchResult] = {}
        for group in draw.groups:
            glot = lot.child(f"{spec.key}/g{group.number}")
            match = spec.restrictions.match_rules(spec.name)
            penalties: list[Penalty] = []
            for player in group.players:
                ch = legal_choices(C, rules[player], history[player], match)
                plot = glot.child(player)
                if player == "k01" and spec.key == "r1":
                    # A 修羅 player plays one of their own lot genres: −400 (H7).
                    lot_genre = min(rules[player].lot_genres)
                    selection = Selection(lot_genre, "ランダム", "HARD")
                    assert not ch.is_legal(lot_genre, "ランダム")
                elif plot.die(10) == 1:  # now and then a player breaks the rules
                    genre = plot.choice(C.genre_names)
                    selection = Selection(genre, plot.choice(C.options_for(genre)), "HARD")
                else:
                    selection = pick(ch, plot)
                check = ch.check(selection, penalty=preset.selection_penalty())
                if not check.ok:
                    assert check.penalty == Decimal(400)
                    penalty = check.penalty_for(player)
                    assert penalty is not None
                    penalties.append(penalty)
                    penalised.add((player, spec.name))
                history[player].append(spec.restrictions.history_entry(selection, spec.name))
            result = play(group.seats, glot.child("scores"), penalties)
            for pen in penalties:
                row = result.get(pen.player)
                assert row.score == row.screen_score - Decimal(400)
            results[f"{spec.key}-{group.number}"] = result
        if spec.kind == "final_group":
            final_result = results[f"{spec.key}-1"]
            break
        outcome = advance(results, spec.advancement_rule(chain=preset.tie_break))
        assert len(outcome.players) == len(draw.groups) * spec.advance_per_group
        remaining = outcome.players
    assert final_result is not None
    assert [row.place for row in final_result.players] == [1, 2, 3, 4]
    assert ("k01", "1回戦") in penalised
    # 修羅 lots were never played without the penalty.
    for player in ("k01", "k02", "k03"):
        for entry in history[player]:
            if entry.selection.genre in rules[player].lot_genres:
                assert (player, entry.round) in penalised
    return {"history": dict(history), "penalised": sorted(penalised),
            "final": final_result}


# -- 店舗大会 -----------------------------------------------------------------------------------

def play_shop(preset: Preset, seed: str, entrants: int) -> Replay:
    """A shop event under ``preset``: unrestricted sets, top 2 a group, a final of 4."""
    lot = Lottery(seed, "simulation")
    remaining = [f"e{i:02d}" for i in range(1, entrants + 1)]
    rules = {p: preset.player_rules() for p in remaining}
    history: History = defaultdict(list)
    results: dict[str, MatchResult] = {}
    for spec in preset.rounds_for(entrants):
        assert len(remaining) == spec.size
        draw = draw_groups(remaining, method=cast(Method, preset.rounds[0].draw),
                           lottery=lot.child(f"{spec.key}/draw"))
        round_results: dict[str, MatchResult] = {}
        for group in draw.groups:
            glot = lot.child(f"{spec.key}/g{group.number}")
            chosen = choose_for_group(group, rules, history,
                                      spec.restrictions.match_rules(spec.name), glot)
            record(history, chosen, spec.restrictions.history_entry, spec.name)
            round_results[f"{spec.key}-{group.number}"] = play(group.seats, glot.child("s"))
        results.update(round_results)
        if spec.ranks_all:
            break
        remaining = advance(round_results, spec.advancement_rule(chain=preset.tie_break)).players
    return {"history": dict(history), "results": results}


# -- the same events under their rule sets (#17) ----------------------------------------------

@pytest.mark.parametrize("seed", ["kyushu-ix-2019", "another-seed"])
def test_kyushu_cup_ix_compiled_from_its_rule_set_replays_identically(seed: str) -> None:
    """The rule set of 九州杯IX, written to JSON and read back, compiles to a preset that
    plays the whole event exactly as the built-in preset does."""
    document = RuleSet.from_dict(json.loads(json.dumps(ruleset_of("kyushu-cup-ix").to_dict())))
    compiled = compile_ruleset(document)
    assert play_kyushu_cup_ix(compiled, seed) == play_kyushu_cup_ix(
        get_preset("kyushu-cup-ix"), seed)


@pytest.mark.parametrize("seed", ["katata-2019", "katata-other"])
def test_katata_compiled_from_its_rule_set_replays_identically(seed: str) -> None:
    document = RuleSet.from_dict(json.loads(json.dumps(
        ruleset_of("katata-kansai5-qualifier").to_dict())))
    compiled = compile_ruleset(document)
    assert play_katata(compiled, seed) == play_katata(get_preset("katata-kansai5-qualifier"),
                                                      seed)


@pytest.mark.parametrize("entrants", [22, 41])
def test_shop_compiled_from_its_rule_set_replays_identically(entrants: int) -> None:
    document = RuleSet.from_dict(json.loads(json.dumps(ruleset_of("shop-top2").to_dict())))
    builtin = play_shop(get_preset("shop-top2"), "shop", entrants)
    assert play_shop(compile_ruleset(document), "shop", entrants) == builtin
    results = builtin["results"]
    assert isinstance(results, dict) and len(results) > 4
