"""Choosing a controller backend by name, configuration or the ``BITBOX_DIALS`` variable.

>>> backend = open_backend("sim", controllers=2, poll_thread=False)
>>> backend.NAME
'sim'

The backend is returned unstarted: use it as a context manager (``with open_backend() as b:``)
or call ``start()`` and ``close()``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from typing import Any

from controller.dials.backend import ControllerBackend, ControllerError

#: Environment variable naming the backend when neither the caller nor the configuration does.
ENV_VAR = "BITBOX_DIALS"

#: Backend used when nothing names one: simulated controllers, so a demo runs anywhere.
DEFAULT_BACKEND = "sim"

#: Backend names and the class each one loads (imported only when chosen).
BACKENDS: dict[str, tuple[str, str]] = {
    "sim": ("controller.dials.sim_backend", "SimBackend"),
    "gpio": ("controller.dials.gpio_backend", "GpioBackend"),
    "serial": ("controller.dials.serial_backend", "SerialBackend"),
    "phone": ("controller.dials.phone_backend", "PhoneBackend"),
    "keyboard": ("controller.dials.keyboard_backend", "KeyboardBackend"),
}


def backend_class(name: str) -> type[ControllerBackend]:
    """The backend class registered under ``name``."""
    key = name.strip().lower()
    if key not in BACKENDS:
        raise ControllerError(f"unknown controller backend {name!r}; choose one of {', '.join(BACKENDS)} "
                              f"(with --backend or the {ENV_VAR} environment variable)")
    module_name, class_name = BACKENDS[key]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ControllerError(f"the {key} backend cannot load ({exc}); reinstall bitbox-controller "
                              f"or choose another backend") from exc
    return getattr(module, class_name)


def open_backend(name_or_config: str | Mapping[str, Any] | None = None, **kw: Any) -> ControllerBackend:
    """A new, unstarted backend.

    ``name_or_config`` is a backend name (``"sim"``, ``"gpio"``, ``"serial"``), or a mapping with
    a ``"backend"`` key whose other keys are passed to the backend's constructor, or ``None``
    to use ``$BITBOX_DIALS`` (default ``"sim"``). Keyword arguments override the mapping's.
    """
    options: dict[str, Any] = {}
    if isinstance(name_or_config, Mapping):
        options.update(name_or_config)
        name = options.pop("backend", None)
    else:
        name = name_or_config
    if not name:
        name = os.environ.get(ENV_VAR, "").strip() or DEFAULT_BACKEND
    options.update(kw)
    cls = backend_class(str(name))
    try:
        return cls(**options)
    except TypeError as exc:
        raise ControllerError(f"bad options for the {name} backend: {exc}") from exc
