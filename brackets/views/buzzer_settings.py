"""Edit a created round's settings (organiser): the settings form prefilled from the round,
what a started round may still change, and every earlier edit with who and when."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from brackets.engine.buzzer import LIVE_EDITABLE, RoundConfig
from brackets.forms.buzzer_settings import RoundSettingsForm
from brackets.labels import listed
from brackets.models import Role, Tournament
from brackets.permissions import role_required
from brackets.selectors.buzzer import latest_seq
from brackets.services.buzzer import BuzzerRefused
from brackets.services.buzzer_settings import buzzer_settings_change, setting_labels
from brackets.views.buzzer import round_or_404


@role_required(Role.ORGANISER)
def buzzer_round_settings(
    request: HttpRequest, tournament: Tournament, round_id: int
) -> HttpResponse:
    """The round's settings as a form; a POST records the edit or says why it is refused."""
    round_ = round_or_404(tournament, round_id)
    config = RoundConfig.from_dict(round_.config)
    events = latest_seq(round_.pk)
    form = RoundSettingsForm(request.POST if request.method == "POST" else None, config=config,
                             started=events > 0)
    if request.method == "POST":
        if form.is_valid():
            try:
                buzzer_settings_change(round=round_, config=form.cleaned_data["config"],
                                       by=request.user)
            except BuzzerRefused as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(request, _("設定を変更しました（変更前の設定は履歴に残ります）。"))
                return redirect("buzzer_round_settings", slug=tournament.slug,
                                round_id=round_.pk)
        else:
            form.add_error(None, _("入力を確認してください。設定は変更していません。"))
    labels = setting_labels()
    history = [
        {"change": change, "labels": [labels.get(key, key) for key in change.changed]}
        for change in round_.settings_changes.select_related("by").order_by("-at", "-id")
    ]
    return render(request, "brackets/buzzer/round_settings.html", {
        "tournament": tournament, "round": round_, "settings_form": form,
        "events": events, "history": history,
        "live_editable": listed(labels[key] for key in sorted(LIVE_EDITABLE)),
    })
