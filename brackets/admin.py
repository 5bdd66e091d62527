"""The catalog, tournaments and staff are editable in the Django admin."""

from django.contrib import admin

from brackets import models


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


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "date", "venue", "status", "preset"]


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["tournament", "user", "role"]
    list_filter = ["tournament", "role"]


@admin.register(models.Entrant)
class EntrantAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "card_name", "tournament", "q_level", "seed", "checked_in"]
    list_filter = ["tournament"]
    search_fields = ["name", "reading", "card_name"]
