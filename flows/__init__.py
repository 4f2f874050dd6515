"""The shipped bots and their flows; importing this package registers every bot module in it."""

import importlib
import pkgutil

# Each bot lives in its own module and registers itself on import; discovering them here
# means adding a bot never edits a shared list.
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
