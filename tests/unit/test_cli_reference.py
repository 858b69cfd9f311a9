"""``docs/reference/cli.md`` is the application's own help: regenerate it with
``python -m tests.support.cli_reference`` when a command, option or example changes."""

from __future__ import annotations

from schemarouter_integrations._cli._help import EXAMPLES
from tests.support.cli_reference import PAGE, render


def test_the_cli_reference_page_is_up_to_date() -> None:
    assert PAGE.read_text(encoding="utf-8") == render(), "run: python -m tests.support.cli_reference"


def test_the_cli_reference_shows_every_command_with_its_examples() -> None:
    page = render()
    for command, examples in EXAMPLES.items():
        if command != "main":
            assert f"## `schemarouter-integrations {command}`" in page
        for example in examples:
            assert f"schemarouter-integrations {example}" in page
