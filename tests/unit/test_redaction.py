"""Secrets are masked in text that leaves the router, also when a server echoes part of one."""

from __future__ import annotations

import base64

from schemarouter_integrations._redaction import redact

TOKEN = "ghp_R2d2C3p0Bb8Yoda5Luke9Leia"


def test_a_whole_header_value_is_masked() -> None:
    assert redact(f"sent Bearer {TOKEN}", [f"Bearer {TOKEN}"]) == "sent ***"


def test_the_token_after_an_authorization_scheme_is_masked_on_its_own() -> None:
    assert redact(f"invalid token {TOKEN}", [f"Bearer {TOKEN}"]) == "invalid token ***"


def test_a_partial_echo_of_a_long_token_is_masked() -> None:
    assert TOKEN[:14] not in redact(f"token {TOKEN[:14]}... is unknown", [f"token {TOKEN}"])


def test_basic_credentials_are_masked_encoded_decoded_and_as_a_password() -> None:
    credential = base64.b64encode(b"alice:s3cretpass").decode()
    text = redact(f"{credential} / alice:s3cretpass / s3cretpass", [f"Basic {credential}"])
    assert "s3cretpass" not in text and credential not in text


def test_a_url_encoded_echo_is_masked() -> None:
    secret = "key with/slash+plus"
    assert redact("api_key=key%20with%2Fslash%2Bplus", [secret]) == "api_key=***"


def test_text_without_secrets_is_left_alone() -> None:
    assert redact("invalid token, try again", [f"Bearer {TOKEN}"]) == "invalid token, try again"


def test_a_json_escaped_echo_is_masked() -> None:
    secret = "key/with/slashes-0123"
    body = '{"detail": "unknown key key\\/with\\/slashes\\u002d0123"}'
    assert redact(body, [secret]) == '{"detail": "unknown key ***"}'


def test_an_echo_mixing_escapes_of_the_bearer_token_is_masked() -> None:
    escaped = "".join(f"\\u{ord(c):04X}" if i % 3 == 0 else c for i, c in enumerate(TOKEN))
    assert TOKEN[3:9] not in redact(f"bad token {escaped}", [f"Bearer {TOKEN}"])
    assert redact(f"bad token {escaped}", [f"Bearer {TOKEN}"]) == "bad token ***"
