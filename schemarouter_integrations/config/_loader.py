"""``load_config(path)``: read a landscape file into a :class:`RouterConfig`, or say where it is wrong.

Steps: ``tomllib`` parses (a syntax error names its line); every string value has its
``${VAR}`` references replaced from the environment (a missing variable is an error naming
it and the key, never a value); pydantic validates. Every problem is reported at once (each
missing variable, each bad key, with "did you mean" for a misspelt one) as
``file:line: key: message``, lines found by :mod:`._locate`.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from ..adapters._kinds import kinds
from ..errors import ConfigurationError
from ._locate import KeyPath, describe, dotted, key_lines, line_of
from ._models import RouterConfig
from ._suggest import did_you_mean, known_keys

__all__ = ["LandscapeError", "load_config", "parse_config"]

_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
_TAG_ERRORS = {"union_tag_invalid", "union_tag_not_found"}


class LandscapeError(ConfigurationError):
    """A landscape file that cannot be used; ``path``, ``line`` and ``key`` say where.

    ``problems`` lists every ``file:line: key: message`` found (the message shows the first
    and counts the others). No secret value is ever part of the message.
    """

    def __init__(
        self,
        message: str,
        *,
        path: Path | None,
        line: int | None,
        key: str | None,
        problems: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.key = key
        self.problems = problems or [message]


def load_config(path: str | os.PathLike[str]) -> RouterConfig:
    """Read and check the landscape file at *path*; raises :class:`LandscapeError`."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LandscapeError(
            f"{file}: cannot read the landscape file: {exc.__class__.__name__}: {exc}",
            path=file,
            line=None,
            key=None,
        ) from None
    return parse_config(text, source=file)


def parse_config(
    text: str, *, source: Path | None = None, environ: Mapping[str, str] | None = None
) -> RouterConfig:
    """:func:`load_config` for TOML text (*source* only names it in errors)."""
    try:
        return _parsed(text, source, environ)
    except RecursionError:
        raise LandscapeError(
            f"{source or '<text>'}: the landscape nests tables or arrays too deeply to read",
            path=source,
            line=None,
            key=None,
        ) from None


def _parsed(text: str, source: Path | None, environ: Mapping[str, str] | None) -> RouterConfig:
    lines = key_lines(text)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(exc, text, source, lines) from None
    values: list[str] = []
    missing: list[_Problem] = []
    recording = _Recording(os.environ if environ is None else environ, values)
    expanded = _expand(raw, (), recording, source, lines, missing)
    try:
        config = RouterConfig.model_validate(expanded)
    except ValidationError as exc:
        unset = [problem.keys for problem in missing]
        invalid = [p for p in _problems(exc, expanded, source, lines) if not _under(p.keys, unset)]
        raise _error(missing + invalid, source) from None
    if missing:
        raise _error(missing, source)
    config._source = source
    config._lines = lines
    config._substituted = tuple(sorted({v for v in values if v.strip()}, key=len, reverse=True))
    return config


class _Recording(Mapping[str, str]):
    """The environment, noting every value a ``${VAR}`` reference took from it."""

    def __init__(self, environ: Mapping[str, str], taken: list[str]) -> None:
        self._environ = environ
        self._taken = taken

    def __getitem__(self, name: str) -> str:
        value = self._environ[name]
        self._taken.append(value)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._environ)

    def __len__(self) -> int:
        return len(self._environ)

    def __contains__(self, name: object) -> bool:
        return name in self._environ


class _Problem(NamedTuple):
    line: int
    text: str
    keys: KeyPath


def _expand(
    value: Any,
    keys: KeyPath,
    environ: Mapping[str, str],
    source: Path | None,
    lines: Any,
    missing: list[_Problem],
) -> Any:
    """*value* with every ``${VAR}`` replaced; a variable that is not set is noted in *missing*
    (the reference stays), so every one of them is reported at once."""
    if isinstance(value, dict):
        return {k: _expand(v, (*keys, k), environ, source, lines, missing) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v, (*keys, i), environ, source, lines, missing) for i, v in enumerate(value)]
    if not isinstance(value, str):
        return value

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in environ:
            where = describe(source, lines, keys)
            text = f"{where}: environment variable {name} is not set"
            missing.append(_Problem(_line(lines, keys) or 0, text, keys))
            return match.group(0)
        return environ[name]

    return _VARIABLE.sub(replace, value)


def _under(keys: KeyPath, parents: list[KeyPath]) -> bool:
    return any(keys[: len(parent)] == parent for parent in parents)


def _syntax_error(exc: tomllib.TOMLDecodeError, text: str, source: Path | None, lines: Any) -> LandscapeError:
    message = str(exc)
    position = _TOML_POSITION.search(message)
    line = int(position.group(1)) if position else None
    key = None
    if line is not None:
        for keys, number in lines.items():
            if number == line:
                key = _key(keys)
        if key is None:
            written = text.splitlines()[line - 1] if line <= len(text.splitlines()) else ""
            key = written.split("=", 1)[0].strip() or None if "=" in written else None
    reason = _TOML_POSITION.sub("", message).strip()
    where = f"{source or '<config>'}:{line}" if line is not None else f"{source or '<config>'}"
    return LandscapeError(
        f"{where}: {key or '(top level)'}: invalid TOML: {reason}", path=source, line=line, key=key
    )


def _problems(exc: ValidationError, raw: Any, source: Path | None, lines: Any) -> list[_Problem]:
    problems: list[_Problem] = []
    seen: set[tuple[KeyPath, str]] = set()
    for error in exc.errors(include_input=False, include_url=False):
        keys = _keys_in(raw, error["loc"])
        if error["type"] in _TAG_ERRORS:
            keys = (*keys, "kind")
        message = _message(error)
        if (keys, message) in seen:
            continue
        seen.add((keys, message))
        problems.append(
            _Problem(_line(lines, keys) or 0, f"{describe(source, lines, keys)}: {message}", keys)
        )
    return problems


def _error(problems: list[_Problem], source: Path | None) -> LandscapeError:
    """One error for every problem, in file order: the message shows the first and counts the rest."""
    ordered = sorted(problems, key=lambda p: p.line)
    texts = [problem.text for problem in ordered]
    first = ordered[0]
    more = f" (and {len(texts) - 1} more problem(s))" if len(texts) > 1 else ""
    return LandscapeError(
        texts[0] + more, path=source, line=first.line or None, key=_key(first.keys), problems=texts
    )


def _message(error: Any) -> str:
    if error["type"] == "extra_forbidden":
        loc = error["loc"]
        close = did_you_mean(str(loc[-1]), known_keys(RouterConfig, loc)) if loc else None
        return f"unknown key (did you mean {close!r}?)" if close else "unknown key"
    if error["type"] == "missing":
        return "required key is missing"
    if error["type"] == "union_tag_not_found":
        return "kind is missing: one of " + ", ".join(repr(kind.name) for kind in kinds())
    message = str(error["msg"])
    return message.removeprefix("Value error, ")


def _keys_in(raw: Any, loc: tuple[str | int, ...]) -> KeyPath:
    """The error location as keys of the file: union and validator steps are left out."""
    keys: list[str | int] = []
    current = raw
    for index, step in enumerate(loc):
        inside = isinstance(current, dict) and step in current
        if isinstance(current, list) and isinstance(step, int):
            inside = 0 <= step < len(current)
        if inside:
            keys.append(step)
            current = current[step]
        elif index == len(loc) - 1 and isinstance(current, dict) and isinstance(step, str):
            keys.append(step)  # a missing key: named, though the file does not have it
    return tuple(keys)


def _line(lines: dict[KeyPath, int], keys: KeyPath) -> int | None:
    return line_of(lines, keys)


def _key(keys: KeyPath) -> str | None:
    return dotted(keys) if keys else None
