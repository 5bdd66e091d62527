"""The entry desk: list and search, walk-ins, one-tap check-in, edit, import and export.

Views stay thin: forms coerce types, ``brackets.services.entrants`` enforces the rules and
keeps revisions, ``brackets.selectors.entrants`` reads. Pages answer htmx requests with
fragments (the result table, a flipped button plus the counts bar out of band) and work
as plain forms without JavaScript.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from brackets.adapters.entrant_files import IGNORE, ImportRefused, mapping_choices
from brackets.adapters.entrant_rows import preview_rows
from brackets.exporters import entrants_xlsx
from brackets.forms.desk import EntrantForm, UploadForm, WalkInForm
from brackets.models import BerthOverride, Entrant, EntrantImport, Role, Tournament
from brackets.permissions import role_required
from brackets.selectors.duties import duties_by_id, weighs_record
from brackets.selectors.entrants import (
    desk_counts,
    entrant_history,
    entrant_list,
    rank_bands,
    rank_namer,
    revision_by,
)
from brackets.selectors.registry import entrant_duties
from brackets.selectors.series import main_event_berth, main_event_series
from brackets.services.entrant_imports import (
    entrant_import_cancel,
    entrant_import_confirm,
    entrant_import_create,
    entrant_import_remap,
)
from brackets.services.entrants import (
    ENTRANT_FIELDS,
    StaleEntrantError,
    display_value,
    entrant_check_in,
    entrant_mark_paid,
    entrant_update,
    snapshot,
)
from brackets.services.players import entrant_register_linked
from brackets.tables import EntrantTable, flag_button

PER_PAGE = 50
DESK_ROLES = (Role.ORGANISER, Role.DESK)


def _apply_service_errors(form: forms.Form, error: ValidationError) -> None:
    for name, messages_ in error.message_dict.items():
        target = name if name in form.fields else None
        for message in messages_:
            form.add_error(target, message)


def _table(request: HttpRequest, tournament: Tournament, query: str) -> EntrantTable:
    rows = entrant_list(tournament=tournament, query=query)
    table = EntrantTable(
        rows,
        slug=tournament.slug,
        rank_name=rank_namer(tournament=tournament),
        csrf_token=get_token(request),
        duties=(duties_by_id(tournament, [e.pk for e in rows if e.player_id],
                             entrants={e.pk: e for e in rows})
                if weighs_record(tournament) else None),
        request=request,
    )
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return table



def _may_admit_without_berth(request: HttpRequest, tournament: Tournament) -> bool:
    """The form offers the organiser's reason field at a series' main event only."""
    return (Role.ORGANISER in getattr(request, "roles", ())
            and main_event_series(tournament=tournament) is not None)


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _desk_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    query = request.GET.get("q", "").strip()
    return {
        "tournament": tournament,
        "query": query,
        "table": _table(request, tournament, query),
        "counts": desk_counts(tournament=tournament),
        **extra,
    }


@role_required(*DESK_ROLES)
def desk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The desk page: counts, search-as-you-type, the entrant table and the walk-in form.

    A POST is the walk-in form; on error the page comes back with messages beside the
    fields and what was typed kept.
    """
    walk_in = WalkInForm(request.POST or None, prefix="walkin", tournament=tournament,
                         berth_override=_may_admit_without_berth(request, tournament))
    if request.method == "POST" and walk_in.is_valid():
        try:
            entrant = entrant_register_linked(
                tournament=tournament, by=request.user, data=walk_in.data_for_service(),
                player_id=walk_in.cleaned_data.get("player"), action="walk_in",
                berth_override=walk_in.cleaned_data.get("berth_override", ""),
            )
        except ValidationError as error:
            _apply_service_errors(walk_in, error)
        else:
            messages.success(request, format_html(
                '{} <a class="btn btn-sm btn-outline-dark ms-2" href="{}" target="_blank" rel="noopener" '
                'data-print-entrant="{}">{}</a>',
                _("%(name)s さん（%(card)s）を登録しました。") % {"name": entrant.name, "card": entrant.card_name},
                reverse("desk_entrant_print", args=[tournament.slug, entrant.pk]), entrant.pk,
                _("名札とエントリーシートを印刷")))
            return redirect("desk", slug=tournament.slug)
    context = _desk_context(request, tournament, walk_in=walk_in)
    if _is_htmx(request) and request.method == "GET":
        return render(request, "brackets/desk/_results.html", context)
    status = 422 if request.method == "POST" else 200
    return render(request, "brackets/desk/desk.html", context, status=status)


def _flag_response(request: HttpRequest, tournament: Tournament, entrant: Entrant, field: str) -> HttpResponse:
    if not _is_htmx(request):
        return redirect(reverse("desk", args=[tournament.slug]) + "?" + request.GET.urlencode())
    button = flag_button(entrant=entrant, slug=tournament.slug, csrf_token=get_token(request), field=field)
    counts = render_to_string(
        "brackets/desk/_counts.html",
        {"counts": desk_counts(tournament=tournament), "tournament": tournament, "oob": True},
        request=request,
    )
    return HttpResponse(button + counts)


def _entrant_or_404(tournament: Tournament, entrant_id: int) -> None:
    if not Entrant.objects.filter(tournament=tournament, pk=entrant_id).exists():
        raise Http404


@require_POST
@role_required(*DESK_ROLES)
def desk_check_in(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    """One tap: the POST says the state wanted, so a double tap records once."""
    _entrant_or_404(tournament, entrant_id)
    entrant, _changed = entrant_check_in(
        tournament=tournament,
        entrant_id=entrant_id,
        by=request.user,
        checked_in=request.POST.get("checked_in", "1") == "1",
    )
    return _flag_response(request, tournament, entrant, "checked_in")


@require_POST
@role_required(*DESK_ROLES)
def desk_fee(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    _entrant_or_404(tournament, entrant_id)
    entrant, _changed = entrant_mark_paid(
        tournament=tournament,
        entrant_id=entrant_id,
        by=request.user,
        fee_paid=request.POST.get("fee_paid", "1") == "1",
    )
    return _flag_response(request, tournament, entrant, "fee_paid")


def _form_page(
    request: HttpRequest, tournament: Tournament, form: EntrantForm, **extra: Any
) -> HttpResponse:
    return render(
        request,
        "brackets/desk/entrant_form.html",
        {
            "tournament": tournament,
            "form": form,
            "ranks": rank_bands(tournament=tournament),
            "counts": desk_counts(tournament=tournament),
            **extra,
        },
    )


@role_required(*DESK_ROLES)
def desk_entrant_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Register an entrant with every field (seeds, 修羅 declarations, notes)."""
    form = EntrantForm(request.POST or None, tournament=tournament,
                       berth_override=_may_admit_without_berth(request, tournament))
    if request.method == "POST" and form.is_valid():
        try:
            entrant = entrant_register_linked(tournament=tournament, by=request.user,
                                              data=form.data_for_service(),
                                              player_id=form.cleaned_data.get("player"),
                                              berth_override=form.cleaned_data.get(
                                                  "berth_override", ""))
        except ValidationError as error:
            _apply_service_errors(form, error)
        else:
            messages.success(request, _("%(name)s さんを登録しました。") % {"name": entrant.name})
            return redirect("desk", slug=tournament.slug)
    return _form_page(request, tournament, form, creating=True)


def _merge_after_conflict(
    mine: dict[str, Any], base: dict[str, Any], current: dict[str, Any]
) -> tuple[dict[str, Any], set[str]]:
    """Keep what this desk changed, take the rest from the current data; list clashes."""
    merged, clashes = {}, set()
    for name in ENTRANT_FIELDS:
        if name not in mine:
            merged[name] = current[name]
            continue
        changed_here = not base or mine[name] != base.get(name)
        changed_there = bool(base) and current[name] != base.get(name)
        merged[name] = mine[name] if changed_here else current[name]
        if changed_here and changed_there and mine[name] != current[name]:
            clashes.add(name)
    return merged, clashes


@role_required(*DESK_ROLES)
def desk_entrant_edit(request: HttpRequest, tournament: Tournament, entrant_id: int) -> HttpResponse:
    """Edit an entrant; a save based on an older revision is refused and shown, not lost."""
    entrant = get_object_or_404(Entrant, tournament=tournament, pk=entrant_id)
    initial = {**snapshot(entrant), "revision": entrant.revision}
    form = EntrantForm(request.POST or None, initial=initial, tournament=tournament)
    conflict = None
    if request.method == "POST" and form.is_valid():
        base_revision = form.cleaned_data.get("revision") or entrant.revision
        mine = form.data_for_service()
        try:
            updated = entrant_update(
                tournament=tournament,
                entrant_id=entrant.pk,
                by=request.user,
                base_revision=base_revision,
                data=mine,
            )
        except StaleEntrantError as stale:
            current = snapshot(stale.entrant)
            base_rev = revision_by(entrant=stale.entrant, number=base_revision)
            merged, clashes = _merge_after_conflict(mine, base_rev.data if base_rev else {}, current)
            latest = revision_by(entrant=stale.entrant, number=stale.entrant.revision)
            conflict = {
                "changes": [
                    {
                        "label": c.label,
                        "before": display_value(c.field, c.before),
                        "after": display_value(c.field, c.after),
                        "mine": display_value(c.field, mine.get(c.field)) if c.field in clashes else None,
                    }
                    for c in stale.changes
                ],
                "latest": latest,
                "base_revision": base_revision,
            }
            form = EntrantForm(initial={**merged, "revision": stale.entrant.revision},
                               tournament=tournament)
            for name in clashes:
                form.fields[name].widget.attrs["class"] += " border-danger border-2"
            entrant = stale.entrant
        except ValidationError as error:
            _apply_service_errors(form, error)
        else:
            if updated.revision == base_revision:  # an edit that changes nothing stores nothing
                messages.info(request, _("%(name)s さんの情報に変更はありません。") % {"name": updated.name})
            else:
                messages.success(request, _("%(name)s さんの情報を保存しました。") % {"name": mine["name"]})
            return redirect("desk", slug=tournament.slug)
    return _form_page(
        request,
        tournament,
        form,
        entrant=entrant,
        conflict=conflict,
        history=entrant_history(entrant=entrant),
        duties=entrant_duties(entrant=entrant),
        berth=main_event_berth(tournament=tournament, player=entrant.player),
        main_event=main_event_series(tournament=tournament),
        berth_override=BerthOverride.objects.filter(entrant=entrant).select_related("by").first(),
        rank_name=rank_namer(tournament=tournament)(entrant.q_level),
    )


@role_required(*DESK_ROLES)
def desk_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload a pre-entry file; it is parsed and kept for the preview, nothing registered."""
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            batch = entrant_import_create(
                tournament=tournament, by=request.user, filename=upload.name, content=upload.read()
            )
        except ImportRefused as refused:
            form.add_error("file", refused.message)
        else:
            return redirect("desk_import_preview", slug=tournament.slug, token=batch.token)
    recent = EntrantImport.objects.filter(tournament=tournament).select_related("by")[:10]
    return render(
        request,
        "brackets/desk/import.html",
        {"tournament": tournament, "form": form, "recent": recent, "counts": desk_counts(tournament=tournament)},
        status=422 if form.errors else 200,
    )


def _row_numbers(raw: str | None) -> list[int] | None:
    """The row numbers a form listed ("3,4,9"); None when it listed none (an older page)."""
    if raw is None:
        return None
    try:
        return [int(part) for part in raw.split(",") if part.strip()]
    except ValueError:  # a garbled list matches no rows: the confirmation is refused
        return []


def _berth_overrides(post: Any) -> dict[int, str]:
    """The organiser's reasons per refused row (``override_<row number>``)."""
    out = {}
    for name, value in post.items():
        number = name.removeprefix("override_")
        if number != name and number.isdigit() and value.strip():
            out[int(number)] = value
    return out


@role_required(*DESK_ROLES)
def desk_import_preview(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    """The preview: column mapping, per-row errors, and the one button that writes."""
    batch = get_object_or_404(EntrantImport, tournament=tournament, token=token)
    if request.method == "POST" and batch.status == EntrantImport.Status.PENDING:
        action = request.POST.get("action", "")
        try:
            if action == "remap":
                mapping = [request.POST.get(f"col_{i}", IGNORE) for i in range(len(batch.headers))]
                entrant_import_remap(tournament=tournament, token=token, mapping=mapping)
                return redirect("desk_import_preview", slug=tournament.slug, token=token)
            if action == "cancel":
                entrant_import_cancel(tournament=tournament, token=token)
                messages.info(request, _("取り込みを取り消しました。"))
                return redirect("desk_import", slug=tournament.slug)
            if action == "confirm":
                outcome = entrant_import_confirm(
                    tournament=tournament,
                    token=token,
                    by=request.user,
                    skip_errors=request.POST.get("skip_errors") == "1",
                    shown_skipped=_row_numbers(request.POST.get("shown_skipped")),
                    berth_overrides=_berth_overrides(request.POST),
                )
                messages.success(
                    request,
                    _("%(new)d人を登録しました（登録済みのため飛ばした行 %(already)d、エラーで飛ばした行 %(skipped)d）。")
                    % {"new": len(outcome.created), "already": len(outcome.already), "skipped": len(outcome.skipped)},
                )
                return redirect("desk", slug=tournament.slug)
        except ImportRefused as refused:
            messages.error(request, refused.message)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        batch.refresh_from_db()
    preview = preview_rows(tournament=tournament, batch=batch) if batch.status == EntrantImport.Status.PENDING else None
    columns = [
        {"index": i, "header": header, "target": target, "unknown": target == "?"}
        for i, (header, target) in enumerate(zip(batch.headers, batch.mapping))
    ]
    return render(
        request,
        "brackets/desk/import_preview.html",
        {
            "tournament": tournament,
            "batch": batch,
            "preview": preview,
            "columns": columns,
            "choices": mapping_choices(),
            "counts": desk_counts(tournament=tournament),
            "may_override": Role.ORGANISER in request.roles,  # type: ignore[attr-defined]
        },
    )


@require_GET
@role_required(*DESK_ROLES)
def desk_export(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The entrant table as .xlsx (the search box's query narrows it, if given)."""
    filename, content_type, content = entrants_xlsx.render(
        tournament=tournament, query=request.GET.get("q", "").strip()
    )
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
