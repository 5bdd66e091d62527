"""WSGI entry point (waitress serves it in ``manage.py up``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kyushu.settings")
application = get_wsgi_application()
