"""Make the innerloop pytest plugin available in a bare checkout too."""

from __future__ import annotations

import pytest

import engine.testing


def pytest_configure(config: pytest.Config) -> None:
    # pip install registers engine.testing through the pytest11 entry point; a checkout run
    # without installing (or with PYTEST_DISABLE_PLUGIN_AUTOLOAD) does not.
    if not config.pluginmanager.is_registered(engine.testing):
        config.pluginmanager.register(engine.testing, "innerloop")
