"""The documentation tests' shared fixtures."""

from tests.docs.site import built_site

__all__ = ["built_site"]
