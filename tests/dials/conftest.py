"""Fixtures for the controller tests: a fresh gpiozero mock pin factory per test."""

from __future__ import annotations

import gc
import warnings

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the default pin factory for one test, reset afterwards."""
    # gpiozero's shared SPI objects close themselves when garbage-collected, deleting whatever
    # shares their key by then: collect the previous test's before this one opens its own.
    gc.collect()
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            yield factory
        finally:
            gc.collect()
            factory.reset()
            Device.pin_factory = saved
