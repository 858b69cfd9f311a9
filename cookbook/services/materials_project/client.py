"""The real Materials Project Python client (PyPI ``mp-api``'s ``MPRester``) as a callable route.

What ``MPRester`` does, as read from its code and seen against the loopback server:

* constructing it contacts the server: ``GET /heartbeat`` twice (the emmet version check and
  the database version), with no timeout and cached per endpoint for the process; a 503
  body without ``version`` makes the constructor raise ``KeyError: 'version'``. So the
  rester is built on the first call (not at registration) and kept;
* each request is sent through a ``requests`` session whose urllib3 ``Retry`` repeats a
  failed connection or read three times, with the sub-rester's timeout (20 s by default,
  which ``MPRester`` does not pass down); here ``MPRester`` gets a session of our own
  (``session=``) whose adapter retries nothing (the router retries and falls back) and
  bounds every request to ``timeout`` seconds;
* errors: an answer of 503 raises ``MPRestError`` ("REST query returned with error status
  code 503 ..."); a refused connection or a read timeout raise ``MPRestError`` too, raised
  while handling ``requests.exceptions.ConnectionError`` (its ``__context__``; there is no
  explicit ``__cause__``).
"""

from __future__ import annotations

import threading
from typing import Any

SUMMARY_FIELDS = [
    "material_id",
    "formula_pretty",
    "elements",
    "nsites",
    "band_gap",
    "is_gap_direct",
    "is_metal",
    "energy_above_hull",
    "formation_energy_per_atom",
    "is_stable",
]
"""The summary fields the route asks ``MPRester`` for (its answers carry these keys)."""

API_KEY = "a" * 32
"""A well-formed dummy key: the loopback server checks none."""


class MPClient:
    """``MPRester(api_key, endpoint)`` built on first use; :meth:`summary_search` is the route."""

    def __init__(self, endpoint: str, *, timeout: float = 2.0, api_key: str = API_KEY) -> None:
        self.endpoint = endpoint
        self.timeout = timeout
        self.api_key = api_key
        self.calls = 0
        self._rester: Any = None
        self._lock = threading.Lock()

    def rester(self) -> Any:
        """The ``MPRester`` (built now if it is not yet: that contacts the server)."""
        with self._lock:
            if self._rester is None:
                from mp_api.client import MPRester

                session = _bounded_session(self.timeout)
                session.headers["x-api-key"] = self.api_key
                rester = MPRester(
                    api_key=self.api_key,
                    endpoint=self.endpoint,
                    session=session,
                    use_document_model=False,
                    mute_progress_bars=True,
                )
                self._rester = rester
            return self._rester

    def summary_search(
        self,
        formula: str | None = None,
        elements: list[str] | None = None,
        material_ids: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Materials Project summary documents (band gap, energy above hull, formation energy,
        stability) by reduced formula, by elements every material contains, or by ids."""
        self.calls += 1
        docs = self.rester().materials.summary.search(
            formula=formula, elements=elements, material_ids=material_ids, fields=SUMMARY_FIELDS
        )
        return [{key: doc.get(key) for key in SUMMARY_FIELDS if key in doc} for doc in docs]


def _bounded_session(timeout: float) -> Any:
    """A ``requests`` session that retries nothing and waits at most *timeout* per request."""
    import requests
    from requests.adapters import HTTPAdapter

    class BoundedAdapter(HTTPAdapter):
        def send(self, request: Any, **kwargs: Any) -> Any:
            asked = kwargs.get("timeout")
            kwargs["timeout"] = timeout if asked is None else min(float(asked), timeout)
            return super().send(request, **kwargs)

    session = requests.Session()
    for prefix in ("http://", "https://"):
        session.mount(prefix, BoundedAdapter(max_retries=0))
    return session
