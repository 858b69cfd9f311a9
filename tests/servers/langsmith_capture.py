"""Moved to ``cookbook/services/langsmith_capture.py`` (shared by the demo, the cookbook and the tests).

This name stays an alias of that module, so ``tests.servers.langsmith_capture`` and
``cookbook.services.langsmith_capture`` are one module object (monkeypatching either patches both).
"""

import sys

from cookbook.services import langsmith_capture as _module

sys.modules[__name__] = _module
