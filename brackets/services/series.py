"""Series writes: a series and its details, a tournament's link to a series (as qualifier or
main event), and a main-event berth granted by hand for a qualifier run elsewhere (and its
withdrawal, recorded with the reason).

Each function is one transaction; a refusal raises ``ValidationError`` with a Japanese
message per field and changes nothing. Berths of qualifiers run in the app are never
written: ``brackets.selectors.series`` derives them from the results.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from brackets.adapters import players as ad
from brackets.adapters import series as sa
from brackets.engine import (
    RuleRefusal,
    check_berth_grant,
    check_found,
    check_reason,
    check_still_in_force,
)
from brackets.messages import engine_message, error_text
from brackets.models import (
    BerthWithdrawal,
    GameVersion,
    Player,
    Series,
    SeriesBerthGrant,
    Tournament,
)
from brackets.models.series import PLACE_MAX, PLACE_MIN
from brackets.perf import revision
from brackets.selectors.series import MAIN_EVENT, QUALIFIER, qualifiers, series_berths_of

ROLES = (QUALIFIER, MAIN_EVENT)


def _touch_members(series: Series) -> None:
    """Every tournament of the series carries the series in its file (the ``series``
    section): moving their revisions makes the public copy's pusher send them again."""
    for pk in {*series.qualifiers.values_list("pk", flat=True),
               *series.main_events.values_list("pk", flat=True)}:
        revision.touch(pk)


def _who(by: Any) -> Any:
    return by if getattr(by, "is_authenticated", False) else None


def _check_details(*, name: str, slug: str, game_version: str, series: Series | None) -> None:
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = [_("シリーズ名を入力してください。")]
    elif Series.objects.filter(name=name).exclude(pk=getattr(series, "pk", None)).exists():
        errors["name"] = [_("同じ名前のシリーズが既にあります。")]
    if not slug:
        errors["slug"] = [_("識別子（URLに使う英数字）を入力してください。")]
    elif Series.objects.filter(slug=slug).exclude(pk=getattr(series, "pk", None)).exists():
        errors["slug"] = [_("この識別子は別のシリーズが使っています。")]
    if game_version not in GameVersion.values:
        errors["game_version"] = [_("バージョンを選択肢から選んでください。")]
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def series_create(*, name: str, slug: str, game_version: str, by: Any) -> Series:
    """A new series (no tournament yet: they are attached one by one)."""
    name, slug = name.strip(), slug.strip()
    _check_details(name=name, slug=slug, game_version=game_version, series=None)
    row = Series(name=name, slug=slug, game_version=game_version, by=_who(by))
    row.full_clean()
    row.save()
    return row


@transaction.atomic
def series_update(*, series: Series, name: str, slug: str, game_version: str) -> Series:
    """A series' name, identifier or game version, corrected."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    name, slug = name.strip(), slug.strip()
    _check_details(name=name, slug=slug, game_version=game_version, series=series)
    series.name, series.slug, series.game_version = name, slug, game_version
    series.full_clean()
    series.save()
    _touch_members(series)
    return series


def _unlink(tournament: Tournament) -> None:
    for row in Series.objects.filter(qualifiers=tournament):
        row.qualifiers.remove(tournament)
    for row in Series.objects.filter(main_events=tournament):
        row.main_events.remove(tournament)


@transaction.atomic
def tournament_series_set(*, tournament: Tournament, series: Series | None,
                          role: str = QUALIFIER) -> bool:
    """Put the tournament in ``series`` as a qualifier or its main event, moving it out of
    any other series (a tournament belongs to at most one); ``None`` takes it out. True when
    something changed. Refused: a second main event, or a qualifier that already decided
    berths being moved (its berths would silently vanish from the series)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if role not in ROLES:
        raise ValidationError({"series_role": [_("予選か本戦かを選んでください。")]})
    current = Series.objects.filter(qualifiers=tournament).first()
    now_role = QUALIFIER if current else ""
    if current is None:
        current = Series.objects.filter(main_events=tournament).first()
        now_role = MAIN_EVENT if current else ""
    if (current, now_role) == (series, role) or (current is None and series is None):
        return False
    if series is not None:
        series = Series.objects.select_for_update().get(pk=series.pk)
        if role == MAIN_EVENT and series.main_events.exclude(pk=tournament.pk).exists():
            raise ValidationError({"series": [
                _("「%(s)s」には既に本戦（%(t)s）があります。") % {
                    "s": series.name, "t": series.main_events.first()}]})
    if (current is not None and now_role == QUALIFIER
            and tournament.status == Tournament.Status.FINISHED
            and any(b.qualifier == f"t{tournament.pk}"
                    for b in series_berths_of(series=current).berths)):
        raise ValidationError({"series": [
            _("この大会は「%(s)s」の予選として本戦出場権を決めています。シリーズを変えると"
              "その出場権が消えるため変更できません。") % {"s": current.name}]})
    _unlink(tournament)
    if series is not None:
        (series.qualifiers if role == QUALIFIER else series.main_events).add(tournament)
    revision.touch(tournament.pk)
    return True


GRANT_FIELDS = {"berth_place_taken": "place", "berth_already_held": "player",
                "berth_place_invalid": "place", "berth_qualifier_missing": "qualifier",
                "berth_date_missing": "held_on"}


@transaction.atomic
def berth_grant(*, series: Series, player: Player, qualifier: str,
                held_on: datetime.date | None, place: int, source: str, by: Any
                ) -> SeriesBerthGrant:
    """A main-event berth won at a qualifier run elsewhere, recorded with its source.

    Refused (nothing recorded) when that qualifier's place already has a berth, when the
    player already holds one of the series, when the source is missing, or when the
    qualifier is one of the series' own (its berths are derived from its results).
    """
    series = Series.objects.select_for_update().get(pk=series.pk)
    qualifier, source = qualifier.strip(), source.strip()
    if not source:
        raise ValidationError({"source": [
            _("出典のない出場権は登録できません。予選の結果ページなど、確かめられる出典を入力してください。")]})
    if not PLACE_MIN <= place <= PLACE_MAX:
        raise ValidationError({"place": [_("順位は%(low)d〜%(high)dで入力してください。")
                                         % {"low": PLACE_MIN, "high": PLACE_MAX}]})
    if any(t.name.strip() == qualifier for t in qualifiers(series)):
        raise ValidationError({"qualifier": [
            _("「%(q)s」はこのアプリで行った予選です。出場権は結果から決まるため手入力できません。")
            % {"q": qualifier}]})
    # Granting a place again after its grant was withdrawn: the new grant follows that
    # withdrawal (the constraint's one grant in force per place).
    follows = (BerthWithdrawal.objects.filter(grant__series=series, grant__qualifier=qualifier,
                                              grant__place=place, followed_by__isnull=True)
               .order_by("-id").first())
    row = SeriesBerthGrant(series=series, player=ad.canonical(player), qualifier=qualifier,
                           held_on=held_on, place=place, source=source, follows=follows,
                           by=_who(by))
    derived = series_berths_of(series=series)
    try:
        check_berth_grant(sa.grant_of(row), qualifiers=derived.results,
                          grants=[sa.grant_of(g) for g in derived.grants.values()])
    except RuleRefusal as exc:
        params = dict(exc.params)
        if "qualifier" in params:  # an app qualifier is named by its key: show its name
            params["qualifier"] = derived.name(str(params["qualifier"]))
        raise ValidationError({GRANT_FIELDS.get(exc.code, "__all__"): [
            engine_message(exc.code, params, None, detail=str(exc))]}) from exc
    row.full_clean()
    row.save()
    _touch_members(series)
    return row


@transaction.atomic
def berth_withdraw(*, series: Series, grant_id: int, reason: str, by: Any) -> BerthWithdrawal:
    """A berth granted by hand withdrawn, with who, when and why; the grant stays as it was
    entered and no longer counts (H0, the series pages). Refused without a reason or for a
    grant withdrawn already; the place may be granted again afterwards."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    grant = (SeriesBerthGrant.objects.select_for_update(of=("self",))
             .filter(series=series, pk=grant_id).first())
    try:
        check_found(found=grant is not None)
        check_reason(reason)
        check_still_in_force(withdrawn=BerthWithdrawal.objects.filter(grant=grant).exists(),
                             corrected=False)
        assert grant is not None
    except RuleRefusal as exc:
        field = "reason" if exc.code in ("correction_no_reason", "correction_reason_long") \
            else "__all__"
        raise ValidationError({field: [error_text(exc)]}) from exc
    row = BerthWithdrawal.objects.create(grant=grant, reason=reason.strip(), by=_who(by))
    _touch_members(series)  # the public copy's series page drops the berth on the next push
    return row
