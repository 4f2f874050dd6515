"""Make the innerloop pytest plugin available in a bare checkout too."""

from __future__ import annotations

import pytest

import engine.authoring.testing


def pytest_configure(config: pytest.Config) -> None:
    # pip install registers engine.authoring.testing through the pytest11 entry point; a checkout run
    # without installing (or with PYTEST_DISABLE_PLUGIN_AUTOLOAD) does not.
    if not config.pluginmanager.is_registered(engine.authoring.testing):
        config.pluginmanager.register(engine.authoring.testing, "innerloop")
