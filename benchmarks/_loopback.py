"""The loopback HTTP double of the outage benchmarks (it answers at once, or it hangs).

It ships inside the package, where the demo uses it too.
"""

from schemarouter_integrations._demo.servers import RECORDS, HangingServer, LoopbackServer

__all__ = ["RECORDS", "HangingServer", "LoopbackServer"]
