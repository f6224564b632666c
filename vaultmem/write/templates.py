"""Note templates: the vault's own (Obsidian's templates folder) first, else vaultmem's."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from ..config import Config
from ..errors import UsageError
from ..moment import format_moment
from ..read.types import TYPE_NAMES
from .note_file import NotWritable

# installed: <site-packages>/vaultmem/templates; from a checkout: <repo>/templates
PLACES = (Path(__file__).resolve().parents[1] / "templates",
          Path(__file__).resolve().parents[2] / "templates")
PLACEHOLDER = re.compile(r"\{\{\s*(title|date|time)(?::([^}]*))?\s*\}\}", re.IGNORECASE)


def builtin_names() -> list[str]:
    """The note types vaultmem ships a template for."""
    return sorted(path.stem for path in _builtin_folder().glob("*.md"))


def _builtin_folder() -> Path:
    """Where vaultmem's templates are (the installed package data, or the repository)."""
    return next((place for place in PLACES if place.is_dir()), PLACES[-1])


def _user_template(config: Config, kind: str) -> Path | None:
    """The vault's own template for ``kind``: daily-notes.json's, or the one in the templates
    folder named after the type (``Person.md``, ``Contact Template.md``)."""
    if kind == "daily" and config.daily_template:
        path = config.root / (config.daily_template.removesuffix(".md") + ".md")
        if path.is_file():
            return path
    if not config.templates_folder:
        return None
    folder = config.root / config.templates_folder
    if not folder.is_dir():
        return None
    found = {p.stem.casefold().removesuffix(" template").removeprefix("template "): p
             for p in sorted(folder.glob("*.md"), reverse=True) if p.is_file()}
    return next((found[name] for name in type_names(kind) if name in found), None)


def type_names(kind: str) -> list[str]:
    """The names a vault may give the templates of memory type ``kind``, the type's own first
    (``person``, then ``people``, ``persons``, ``contact``, ...).

    >>> type_names("project")
    ['project', 'projects']
    """
    return [kind.casefold(), *(name for name, typed in TYPE_NAMES.items()
                               if typed == kind and name != kind.casefold())]


def template_text(config: Config, kind: str) -> str:
    """The template for note type ``kind``."""
    path = _user_template(config, kind) or _builtin_folder() / f"{kind}.md"
    if not path.is_file():
        raise UsageError(f"no template for type {kind!r}; known types: "
                         f"{', '.join(builtin_names())}")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        shown = path.relative_to(config.root) if path.is_relative_to(config.root) else path
        raise NotWritable(f"the {kind} template {shown.as_posix()} is not valid UTF-8 (byte "
                          f"{exc.start}); vaultmem will not use it; re-save it as UTF-8 "
                          "first; nothing was written") from exc


def render(text: str, config: Config, title: str, when: dt.datetime) -> str:
    """Fill in ``{{title}}``, ``{{date}}``, ``{{time}}`` and ``{{date:FORMAT}}`` as Obsidian does.

    >>> from pathlib import Path
    >>> render("# {{title}} {{date}} {{time:HH}}", Config(Path(".")), "Q3",
    ...        dt.datetime(2026, 11, 29, 14, 5))
    '# Q3 2026-11-29 14'
    """

    def fill(match: re.Match[str]) -> str:
        name, fmt = match.group(1).lower(), match.group(2)
        if name == "title":
            return title
        default = config.template_date_format if name == "date" else config.template_time_format
        return format_moment(when, fmt.strip() if fmt else default)

    return PLACEHOLDER.sub(fill, text)
