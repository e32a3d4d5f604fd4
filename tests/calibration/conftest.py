"""Fixtures for the calibration tests."""

from tests.dials.conftest import mock_factory  # noqa: F401 - the gpiozero mock pins fixture
