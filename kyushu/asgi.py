"""ASGI entry point: ``manage.py up`` serves it with uvicorn.

Ordinary views stay synchronous (Django runs each in a thread of its own for the request);
the scoreboard streams are async views that wait without a thread
(``brackets/views/buzzer_stream.py``), so any number of open screens costs the server no
thread.
"""

import os

from django.core.asgi import get_asgi_application

from kyushu.gc_tuning import tune_for_server

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kyushu.settings")
application = get_asgi_application()
tune_for_server()
