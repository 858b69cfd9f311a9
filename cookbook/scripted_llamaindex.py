"""The scripted function-calling LLM for LlamaIndex (no key, no network).

It lives in the public test kit, ``schemarouter_integrations.testing.llamaindex``.
"""

from schemarouter_integrations.testing.llamaindex import BAND_GAP_OF_SI, scripted_llm

__all__ = ["BAND_GAP_OF_SI", "scripted_llm"]
