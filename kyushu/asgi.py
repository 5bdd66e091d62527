"""ASGI entry point: ``manage.py up`` serves it with uvicorn (``kyushu/serving.py``)."""

from kyushu.gc_tuning import tune_for_server
from kyushu.serving import build_application

application = build_application()
tune_for_server()
