"""The live dashboard: a Starlette app (JSON API + server-sent events) and its static page."""

from controller.service.web.app import create_app
from controller.service.web.server import WebServer

__all__ = ["WebServer", "create_app"]
