"""Creating buzzer rounds (staff): the list of a tournament's rounds, a round made by hand
from the engine's RoundConfig JSON, and the rounds of a preset seated by its feeds."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from brackets.engine import EngineError
from brackets.engine.buzzer import RoundConfig
from brackets.messages import error_text
from brackets.models import BuzzerRound, Entrant, PaperMarking, Role, Tournament
from brackets.permissions import role_required
from brackets.selectors.buzzer import round_players, tournament_rounds
from brackets.services.buzzer import BuzzerRefused, buzzer_round_create
from brackets.services.buzzer_presets import (
    available_presets,
    preset_courses_seat,
    preset_round_seat,
    preset_rounds_create,
)
from brackets.views.buzzer import STAFF_ROLES, refusal_text
from brackets.views.buzzer_paper import paper_ranked


@role_required(*STAFF_ROLES)
def buzzer_index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every live round of the tournament, the preset buttons and the paper quizzes."""
    rounds = tournament_rounds(tournament.pk)
    markings = PaperMarking.objects.filter(tournament=tournament).select_related("by")
    return render(
        request,
        "brackets/buzzer/index.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "markings": markings,
            "presets": available_presets(),
            "is_organiser": Role.ORGANISER in request.roles,  # type: ignore[attr-defined]
        },
    )


#: A round's settings are a few levels deep (a format's options); anything deeper is not a
#: round's settings, and a very deep one would exhaust the parser's recursion.
CONFIG_MAX_DEPTH = 8


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in parsed JSON (a scalar is 0)."""
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


class RoundForm(forms.Form):
    """A hand-made round: settings as the engine's RoundConfig JSON, players one per line."""

    name = forms.CharField(label=gettext_lazy("ラウンド名"), max_length=100)
    group_name = forms.CharField(label=gettext_lazy("組"), max_length=50, required=False)
    config = forms.CharField(
        label=gettext_lazy("ルール設定（JSON）"),
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 6, "class": "form-control font-monospace"}),
        help_text=gettext_lazy("プリセットのラウンドをコピーして数字だけ変えられます"),
    )
    players = forms.CharField(
        label=gettext_lazy("参加者（1行に1人、席順）"),
        widget=forms.Textarea(attrs={"rows": 8, "class": "form-control"}),
        help_text=gettext_lazy(
            "「名前」または「名前,アドバンテージ」。カードネームが一致すれば参加者に紐づけます"
        ),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        for name in ("name", "group_name"):
            self.fields[name].widget.attrs["class"] = "form-control"

    def clean_config(self) -> RoundConfig:
        try:
            data = json.loads(self.cleaned_data["config"])
        except RecursionError:
            raise forms.ValidationError(_("ルール設定のJSONの入れ子が深すぎます。")) from None
        except ValueError:
            raise forms.ValidationError(_("ルール設定のJSONが読めません。")) from None
        if _depth(data) > CONFIG_MAX_DEPTH:
            raise forms.ValidationError(_("ルール設定のJSONの入れ子が深すぎます。"))
        try:
            if not isinstance(data, dict):
                raise TypeError
            return RoundConfig.from_dict(data)
        except (ValueError, TypeError, KeyError, AttributeError):
            raise forms.ValidationError(_("ルール設定のJSONが読めません。")) from None
        except EngineError as error:
            raise forms.ValidationError(error_text(error)) from None

    def clean_players(self) -> list[dict[str, Any]]:
        entrants = {e.card_name: e for e in Entrant.objects.filter(tournament=self.tournament)} | {
            e.name: e for e in Entrant.objects.filter(tournament=self.tournament)
        }
        rows: list[dict[str, Any]] = []
        for number, line in enumerate(self.cleaned_data["players"].splitlines(), start=1):
            if not line.strip():
                continue
            parts = [p.strip() for p in line.replace("，", ",").split(",")]
            row: dict[str, Any] = {"name": parts[0], "entrant": entrants.get(parts[0])}
            if len(parts) > 1 and parts[1]:
                try:
                    row["advantage"] = int(parts[1])
                except ValueError:
                    raise forms.ValidationError(
                        _("%(n)d行目: アドバンテージは整数で入力してください。") % {"n": number}
                    ) from None
            rows.append(row)
        if not rows:
            raise forms.ValidationError(_("参加者を1人以上入力してください。"))
        return rows


@role_required(Role.ORGANISER)
def buzzer_round_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Create one round by hand (settings JSON + seating)."""
    initial: dict[str, Any] = {}
    template = request.GET.get("from", "")
    if template.isascii() and template.isdigit():  # a link's round id; anything else: a blank form
        source = BuzzerRound.objects.filter(tournament=tournament, pk=template).first()
        if source is not None:
            initial = {
                "name": source.name,
                "group_name": source.group_name,
                "config": json.dumps(source.config, ensure_ascii=False),
                "players": "\n".join(p.name for p in round_players(source)),
            }
    preset_ref = request.GET.get("template", "")
    templates = [
        (f"{p.slug}:{r.slug}", f"{r.name}（{r.rule}）")
        for p in available_presets()
        for r in p.rounds
        if r.config is not None
    ]
    # A round made from a preset round's template joins that preset's chain (the form posts
    # back to this URL, so the template is still in the query string): its winners and
    # carried points seat the preset's next rounds, e.g. M5 sets 2 and 3 after set 1.
    chain: dict[str, Any] = {}
    if ":" in preset_ref:
        preset_slug, round_slug = preset_ref.split(":", 1)
        try:
            preset = next(p for p in available_presets() if p.slug == preset_slug)
            config = preset.round(round_slug).config
        except (StopIteration, EngineError):
            config = None
        if config is not None:
            initial.setdefault("name", round_slug)
            initial["config"] = json.dumps(config.to_dict(), ensure_ascii=False)
            chain = {
                "preset": preset_slug,
                "round_slug": round_slug,
                "ranking_from_seats": True,
                "position": list(preset.rounds).index(preset.round(round_slug)) * 10,
            }
    form = RoundForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            round_ = buzzer_round_create(
                tournament=tournament,
                name=form.cleaned_data["name"],
                group_name=form.cleaned_data["group_name"],
                config=form.cleaned_data["config"],
                players=form.cleaned_data["players"],
                by=request.user,
                **(chain or {"position": len(tournament_rounds(tournament.pk)) + 1}),
            )
        except BuzzerRefused as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("ラウンドを作成しました。"))
            return redirect("buzzer_console", slug=tournament.slug, round_id=round_.pk)
    return render(
        request,
        "brackets/buzzer/round_form.html",
        {"tournament": tournament, "form": form, "templates": templates, "current": preset_ref},
    )


@role_required(Role.ORGANISER)
def buzzer_presets(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Create the rounds of a preset (seed 003 / seed 004), seated by the engine's feeds."""
    markings = list(PaperMarking.objects.filter(tournament=tournament))
    presets = available_presets()
    if request.method == "POST":
        slug = request.POST.get("preset", "")
        round_slug = request.POST.get("round_slug", "")
        try:
            if request.POST.get("courses"):
                raw_order = {
                    k.removeprefix("order-"): request.POST.get(k, "").strip()
                    for k in request.POST
                    if k.startswith("order-")
                }
                # A typed "a" or "-1" is refused here, before int() sees it.
                if not all(v.isdigit() and int(v) > 0 for v in raw_order.values()):
                    messages.error(request, _("コースの順番は1以上の数字で入力してください。"))
                    return redirect("buzzer_presets", slug=tournament.slug)
                if len({int(v) for v in raw_order.values()}) != len(raw_order):
                    messages.error(request, _("コースの順番が重複しています。"))
                    return redirect("buzzer_presets", slug=tournament.slug)
                order = sorted(raw_order, key=lambda slug: int(raw_order[slug]))
                created = preset_courses_seat(
                    tournament=tournament,
                    preset=slug,
                    order=order,
                    raised={
                        k.removeprefix("raised-"): request.POST.get(k, "").splitlines()
                        for k in request.POST
                        if k.startswith("raised-")
                    },
                    by=request.user,
                )
            elif round_slug:
                names = [n for n in request.POST.get("first_round", "").splitlines() if n.strip()]
                marking_id = request.POST.get("paper", "")
                if not names and marking_id.isdigit():
                    marking = next((m for m in markings if m.pk == int(marking_id)), None)
                    if marking is not None:
                        names = [s.player for s in paper_ranked(tournament, marking)]
                raw_groups = request.POST.get("groups", "")
                created = preset_round_seat(
                    tournament=tournament,
                    preset=slug,
                    round_slug=round_slug,
                    by=request.user,
                    first_round=names or None,
                    groups=int(raw_groups)
                    if raw_groups.isdigit() and int(raw_groups) > 0
                    else None,
                )
            else:
                created = preset_rounds_create(tournament=tournament, preset=slug, by=request.user)
        except (BuzzerRefused, EngineError) as refused:
            messages.error(request, refusal_text(refused))
            return redirect("buzzer_presets", slug=tournament.slug)
        if created:
            messages.success(request, _("%(n)d個のラウンドを作成しました。") % {"n": len(created)})
        else:
            messages.info(
                request,
                _(
                    "今作成できるラウンドはありません（前のラウンドが未終了か、1R順位が未入力です）。"
                ),
            )
        return redirect("buzzer_index", slug=tournament.slug)
    return render(
        request,
        "brackets/buzzer/presets.html",
        {
            "tournament": tournament,
            "presets": presets,
            "markings": markings,
            "course_presets": [
                p.slug
                for p in presets
                if any(r.feed is not None and r.feed.grouping == "courses" for r in p.rounds)
            ],
        },
    )

