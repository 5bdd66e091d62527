from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BracketsConfig(AppConfig):
    name = "brackets"
    verbose_name = _("大会運営")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from brackets.perf import revision

        revision.connect()
