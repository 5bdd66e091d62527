"""URLs of the app. Staff pages live under /t/<slug>/..., public pages under /p/<slug>/.

Every URL added here must also be placed in the role matrix (tests/test_role_matrix.py).
"""

from __future__ import annotations

from django.urls import path

from brackets.views import accounts, core
from brackets.views import documents as documents_views

urlpatterns = [
    path("", core.home, name="home"),
    path("tournaments/new/", core.tournament_new, name="tournament_new"),
    path("t/<slug:slug>/", core.tournament_dashboard, name="tournament_dashboard"),
    path("t/<slug:slug>/settings/", core.tournament_edit, name="tournament_edit"),
    path("t/<slug:slug>/staff/", core.staff_list, name="staff_list"),
    path(
        "t/<slug:slug>/staff/<int:membership_id>/delete/",
        core.staff_delete,
        name="staff_delete",
    ),
    path(
        "t/<slug:slug>/staff/<int:membership_id>/unlock/",
        accounts.staff_unlock,
        name="staff_unlock",
    ),
    path("p/<slug:slug>/", core.public_tournament_home, name="public_tournament"),
    path("t/<slug:slug>/documents/", documents_views.document_list, name="document_list"),
    path(
        "t/<slug:slug>/documents/<slug:doc_slug>/",
        documents_views.document_download,
        name="document_download",
    ),
    path("tournaments/import/", documents_views.tournament_import, name="tournament_import"),
]

# Live buzzer rounds (issue 6): operator console for bracket staff, public stage scoreboard.
from brackets.views import buzzer as buzzer_views  # noqa: E402
from brackets.views import buzzer_event as buzzer_event_views
from brackets.views import buzzer_overlay as buzzer_overlay_views
from brackets.views import buzzer_paper as paper_views
from brackets.views import buzzer_protest as buzzer_protest_views
from brackets.views import buzzer_public as buzzer_public_views
from brackets.views import buzzer_questions as buzzer_questions_views
from brackets.views import buzzer_rounds as buzzer_rounds_views
from brackets.views import buzzer_settings as buzzer_settings_views

urlpatterns += [
    path("t/<slug:slug>/buzzer/", buzzer_rounds_views.buzzer_index, name="buzzer_index"),
    path("t/<slug:slug>/buzzer/new/", buzzer_rounds_views.buzzer_round_new, name="buzzer_round_new"),
    path("t/<slug:slug>/buzzer/presets/", buzzer_rounds_views.buzzer_presets, name="buzzer_presets"),
    path(
        "t/<slug:slug>/buzzer/event/<slug:preset>/",
        buzzer_event_views.buzzer_event,
        name="buzzer_event",
    ),
    path(
        "t/<slug:slug>/buzzer/event/<slug:preset>/<slug:round_slug>/",
        buzzer_event_views.buzzer_event_round,
        name="buzzer_event_round",
    ),
    path("t/<slug:slug>/buzzer/<int:round_id>/", buzzer_views.buzzer_console, name="buzzer_console"),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/state.json",
        buzzer_views.buzzer_console_state,
        name="buzzer_console_state",
    ),
    path("t/<slug:slug>/buzzer/<int:round_id>/tap/", buzzer_views.buzzer_tap, name="buzzer_tap"),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/settings/",
        buzzer_settings_views.buzzer_round_settings,
        name="buzzer_round_settings",
    ),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/written/",
        buzzer_views.buzzer_written_entry,
        name="buzzer_written_entry",
    ),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/tiebreak/",
        buzzer_views.buzzer_tiebreak_start,
        name="buzzer_tiebreak_start",
    ),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/tiebreak/apply/",
        buzzer_views.buzzer_tiebreak_apply,
        name="buzzer_tiebreak_apply",
    ),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/protest/",
        buzzer_protest_views.buzzer_protest,
        name="buzzer_protest",
    ),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/questions/",
        buzzer_questions_views.buzzer_questions,
        name="buzzer_questions",
    ),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/questions/confirm/",
        buzzer_questions_views.buzzer_questions_confirm_view,
        name="buzzer_questions_confirm",
    ),
    path(
        "t/<slug:slug>/buzzer/<int:round_id>/questions/withdraw/",
        buzzer_questions_views.buzzer_questions_withdraw_view,
        name="buzzer_questions_withdraw",
    ),
    path("t/<slug:slug>/paper/new/", paper_views.paper_upload, name="paper_upload"),
    path("t/<slug:slug>/paper/<int:marking_id>/", paper_views.paper_detail, name="paper_detail"),
    path(
        "p/<slug:slug>/buzzer/<int:round_id>/",
        buzzer_public_views.public_buzzer_scoreboard,
        name="public_buzzer_scoreboard",
    ),
    path(
        "p/<slug:slug>/buzzer/<int:round_id>/state.json",
        buzzer_public_views.public_buzzer_state,
        name="public_buzzer_state",
    ),
    path(
        "p/<slug:slug>/buzzer/<int:round_id>/stream/",
        buzzer_public_views.public_buzzer_stream,
        name="public_buzzer_stream",
    ),
    path(
        "p/<slug:slug>/buzzer/<int:round_id>/overlay/lower/",
        buzzer_overlay_views.public_buzzer_overlay_lower,
        name="public_buzzer_overlay_lower",
    ),
    path(
        "p/<slug:slug>/buzzer/<int:round_id>/overlay/side/",
        buzzer_overlay_views.public_buzzer_overlay_side,
        name="public_buzzer_overlay_side",
    ),
]

# Entry desk (issue 2): entrants, walk-ins, one-tap check-in, import and export.
from brackets.views import desk as desk_views  # noqa: E402
from brackets.views import desk_print as desk_print_views

urlpatterns += [
    path("t/<slug:slug>/desk/", desk_views.desk, name="desk"),
    path("t/<slug:slug>/desk/new/", desk_views.desk_entrant_new, name="desk_entrant_new"),
    path(
        "t/<slug:slug>/desk/entrants/<int:entrant_id>/",
        desk_views.desk_entrant_edit,
        name="desk_entrant_edit",
    ),
    path(
        "t/<slug:slug>/desk/entrants/<int:entrant_id>/check-in/",
        desk_views.desk_check_in,
        name="desk_check_in",
    ),
    path("t/<slug:slug>/desk/entrants/<int:entrant_id>/fee/", desk_views.desk_fee, name="desk_fee"),
    path(
        "t/<slug:slug>/desk/entrants/<int:entrant_id>/print.pdf",
        desk_print_views.desk_entrant_print,
        name="desk_entrant_print",
    ),
    path("t/<slug:slug>/desk/import/", desk_views.desk_import, name="desk_import"),
    path(
        "t/<slug:slug>/desk/import/<str:token>/",
        desk_views.desk_import_preview,
        name="desk_import_preview",
    ),
    path("t/<slug:slug>/desk/export.xlsx", desk_views.desk_export, name="desk_export"),
]

# Rounds, matches and the public bracket (issue 4).
from brackets.urls_rounds import urlpatterns as _rounds_urls  # noqa: E402

urlpatterns += _rounds_urls

# The floor: cabinet sets and the call queue (issue 15).
from brackets.urls_floor import urlpatterns as _floor_urls

urlpatterns += _floor_urls

# Rule settings of the tournament's preset (organiser only).
from brackets.views import preset_settings as preset_settings_views  # noqa: E402

urlpatterns += [
    path("t/<slug:slug>/settings/rules/", preset_settings_views.preset_settings_page,
         name="preset_settings"),
]

# The hosted public copy's receiving endpoint (issue 18, docs/public-copy.md).
from brackets.hosted.urls import urlpatterns as _public_copy_urls

urlpatterns += _public_copy_urls

# Running the floor (issue 15 items 4-6): the draw's release, check-in by QR, announcements
# and the timetable.
from brackets.views import announcements as announcement_views  # noqa: E402
from brackets.views import checkin_qr as checkin_qr_views
from brackets.views import draw_release as draw_release_views

urlpatterns += [
    path("t/<slug:slug>/rounds/<int:number>/release/", draw_release_views.round_release,
         name="round_release"),
    path("t/<slug:slug>/desk/scan/", checkin_qr_views.desk_scan, name="desk_scan"),
    path("t/<slug:slug>/desk/entrants/<int:entrant_id>/qr/", checkin_qr_views.desk_entrant_qr,
         name="desk_entrant_qr"),
    path("p/<slug:slug>/c/<str:token>/", checkin_qr_views.public_checkin_code,
         name="public_checkin_code"),
    path("t/<slug:slug>/announcements/", announcement_views.announcements, name="announcements"),
    path("t/<slug:slug>/announcements/<int:announcement_id>/withdraw/",
         announcement_views.announcement_withdraw_view, name="announcement_withdraw"),
    path("t/<slug:slug>/timetable/", announcement_views.timetable, name="timetable"),
    path("p/<slug:slug>/timetable/", announcement_views.public_timetable,
         name="public_timetable"),
]

# The player registry across tournaments (issue 14): the desk's lookup, the record of each
# player, merges, and the organiser's overrides of the 修羅 duties it gives.
from brackets.views import player_links as link_views
from brackets.views import players as player_views
from brackets.views import registry_corrections as correction_views

urlpatterns += [
    path("t/<slug:slug>/desk/players/lookup/", player_views.desk_player_lookup,
         name="desk_player_lookup"),
    path("t/<slug:slug>/players/", player_views.registry_list, name="registry_list"),
    path("t/<slug:slug>/players/<int:player_id>/", player_views.registry_player,
         name="registry_player"),
    path("t/<slug:slug>/players/<int:player_id>/achievements/",
         player_views.registry_achievement_add, name="registry_achievement_add"),
    path("t/<slug:slug>/players/<int:player_id>/cards/", player_views.registry_card_record,
         name="registry_card_record"),
    path("t/<slug:slug>/players/<int:player_id>/merge/", player_views.registry_merge,
         name="registry_merge"),
    path("t/<slug:slug>/players/<int:player_id>/achievements/<int:achievement_id>/withdraw/",
         correction_views.registry_achievement_withdraw, name="registry_achievement_withdraw"),
    path("t/<slug:slug>/players/<int:player_id>/achievements/<int:achievement_id>/correct/",
         correction_views.registry_achievement_correct, name="registry_achievement_correct"),
    path("t/<slug:slug>/players/<int:player_id>/rename/",
         correction_views.registry_player_rename, name="registry_player_rename"),
    path("t/<slug:slug>/players/<int:player_id>/link/",
         correction_views.registry_entrant_link, name="registry_entrant_link"),
    path("t/<slug:slug>/players/<int:player_id>/unlink/",
         correction_views.registry_entrant_unlink, name="registry_entrant_unlink"),
    path("t/<slug:slug>/players/links/", link_views.player_links_review,
         name="player_links_review"),
    path("t/<slug:slug>/players/links/<int:link_id>/", link_views.player_link_decide,
         name="player_link_decide"),
    path("t/<slug:slug>/shura/override/", player_views.shura_override, name="shura_override"),
]

# Qualifier series (issue 14 item 3): the public series page and the organiser's pages.
from brackets.views import series as series_views

urlpatterns += [
    path("s/<slug:series_slug>/", series_views.public_series_page, name="public_series"),
    path("t/<slug:slug>/series/", series_views.series_index, name="series_index"),
    path("t/<slug:slug>/series/<slug:series_slug>/", series_views.series_edit,
         name="series_edit"),
    path("t/<slug:slug>/series/<slug:series_slug>/attach/", series_views.series_attach,
         name="series_attach"),
    path("t/<slug:slug>/series/<slug:series_slug>/berths/", series_views.series_berth_grant,
         name="series_berth_grant"),
    path("t/<slug:slug>/series/<slug:series_slug>/berths/<int:grant_id>/withdraw/",
         correction_views.series_berth_withdraw, name="series_berth_withdraw"),
]

# Composed rule sets (issue 17): organisers only, under a tournament they organise.
from brackets.views import rulesets as ruleset_views  # noqa: E402

urlpatterns += [
    path("t/<slug:slug>/rulesets/", ruleset_views.ruleset_list, name="rulesets"),
    path("t/<slug:slug>/rulesets/start/", ruleset_views.ruleset_start, name="ruleset_start"),
    path("t/<slug:slug>/rulesets/empty/", ruleset_views.ruleset_start_empty,
         name="ruleset_start_empty"),
    path("t/<slug:slug>/rulesets/import/", ruleset_views.ruleset_import,
         name="ruleset_import"),
    path("t/<slug:slug>/rulesets/clone/", ruleset_views.ruleset_clone, name="ruleset_clone"),
    path("t/<slug:slug>/rulesets/<int:ruleset_id>/", ruleset_views.ruleset_edit,
         name="ruleset_edit"),
    path("t/<slug:slug>/rulesets/<int:ruleset_id>/export/", ruleset_views.ruleset_export,
         name="ruleset_export"),
    path("t/<slug:slug>/rulesets/<int:ruleset_id>/apply/", ruleset_views.ruleset_apply,
         name="ruleset_apply"),
]

# A rule set rehearsed and its rule page read before it is applied (issue 17).
from brackets.views import ruleset_preview as ruleset_preview_views

urlpatterns += [
    path("t/<slug:slug>/rulesets/<int:ruleset_id>/rehearsal/",
         ruleset_preview_views.ruleset_rehearsal, name="ruleset_rehearsal"),
    path("t/<slug:slug>/rulesets/<int:ruleset_id>/rules/",
         ruleset_preview_views.ruleset_rule_page, name="ruleset_rule_page"),
]

# A tournament's rules as a rule page, and the organiser's rehearsal (issue 17 items 3, 4).
from brackets.views import rules as rules_views

urlpatterns += [
    path("p/<slug:slug>/rules/", rules_views.public_rules, name="public_rules"),
    path("t/<slug:slug>/rules/rehearsal/", rules_views.rules_rehearsal, name="rules_rehearsal"),
]
