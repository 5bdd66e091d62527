"""The catalog, tournaments and staff are editable in the Django admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest

from brackets import models
from brackets.services import preset_settings as pss


class SubGenreInline(admin.TabularInline):  # type: ignore[type-arg]
    model = models.SubGenre
    extra = 0


class FormatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = models.Format
    extra = 0


@admin.register(models.QmaVersion)
class QmaVersionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "slug", "order"]


@admin.register(models.Genre)
class GenreAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "version", "order", "is_non_genre"]
    list_filter = ["version"]
    inlines = [SubGenreInline]


@admin.register(models.FormatGroup)
class FormatGroupAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "version", "order"]
    list_filter = ["version"]
    inlines = [FormatInline]


@admin.register(models.SubGenre, models.Format, models.Difficulty)
class CatalogItemAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "version", "order"]
    list_filter = ["version"]


@admin.register(models.Rank)
class RankAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "version", "q_min", "q_max"]
    list_filter = ["version"]


class TournamentAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """The tournament row, with its rule settings (JSON) validated as the rule-settings
    screen validates them: a bad value would otherwise only break the rounds later."""

    class Meta:
        model = models.Tournament
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if "preset_settings" in self.errors or "preset" in self.errors:
            return cleaned  # the field's own error (e.g. not JSON) is already shown
        preset = cleaned.get("preset") or self.instance.preset
        raw = cleaned.get("preset_settings")
        try:
            cleaned["preset_settings"] = pss.settings_check(
                tournament=self.instance if self.instance.pk else None, preset=preset,
                stored={} if raw is None else raw)
        except pss.SettingsError as exc:
            self.add_error("preset_settings", exc.message)
        return cleaned


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "date", "venue", "status", "preset"]
    form = TournamentAdminForm

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """A settings change goes through the settings service, as on the settings screen:
        each changed key is recorded (who, when) and configured rounds are re-planned."""
        if not change or "preset_settings" not in form.changed_data:
            super().save_model(request, obj, form, change)
            return
        wanted = dict(obj.preset_settings or {})
        old_preset = form.initial.get("preset", obj.preset)
        obj.preset_settings = models.Tournament.objects.get(pk=obj.pk).preset_settings
        super().save_model(request, obj, form, change)
        if obj.preset != old_preset:
            pss.settings_preset_changed(tournament=obj, by=request.user, old_preset=old_preset)
            obj.refresh_from_db(fields=["preset_settings"])
        from brackets import engine_adapter as ea

        _slug, before = ea.preset_source(obj)
        try:
            pss.settings_save(tournament=obj, by=request.user, values=wanted,
                              reset=[k for k in before if k not in wanted])
        except pss.SettingsError as exc:  # re-planning the rounds failed: nothing changed
            self.message_user(request, exc.message, level=messages.ERROR)


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["tournament", "user", "role"]
    list_filter = ["tournament", "role"]


@admin.register(models.Entrant)
class EntrantAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "card_name", "tournament", "q_level", "seed", "checked_in"]
    list_filter = ["tournament"]
    search_fields = ["name", "reading", "card_name"]
