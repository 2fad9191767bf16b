"""The WSGI application, for gunicorn and any WSGI server: `service.wsgi:app`."""

from service.api.app import create_app

app = create_app()
