"""WSGI entry point, for deployments that prefer a WSGI server (``manage.py up`` serves
``kyushu.asgi``)."""

import os

from django.core.wsgi import get_wsgi_application

from kyushu.gc_tuning import tune_for_server

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kyushu.settings")
application = get_wsgi_application()
tune_for_server()
