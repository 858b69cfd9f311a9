"""Moved to ``cookbook/services/optimade_data.py`` (shared by the demo, the cookbook and the tests).

This name stays an alias of that module, so ``tests.servers.optimade_data`` and
``cookbook.services.optimade_data`` are one module object (monkeypatching either patches both).
"""

import sys

from cookbook.services import optimade_data as _module

sys.modules[__name__] = _module
