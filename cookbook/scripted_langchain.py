"""The scripted tool-calling chat model for LangChain (no key, no network).

It lives in the public test kit, ``schemarouter_integrations.testing.langchain``; the cookbook
and the tests keep their old name for it.
"""

from schemarouter_integrations.testing.langchain import ScriptedChatModel as ScriptedChemist

__all__ = ["ScriptedChemist"]
