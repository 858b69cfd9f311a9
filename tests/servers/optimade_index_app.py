"""Moved to ``cookbook/services/optimade_index_app.py`` (shared by the demo, the cookbook and the tests).

This name stays an alias of that module, so ``tests.servers.optimade_index_app`` and
``cookbook.services.optimade_index_app`` are one module object (monkeypatching either patches both).
"""

import sys

from cookbook.services import optimade_index_app as _module

sys.modules[__name__] = _module
