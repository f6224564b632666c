"""Vault discovery and settings: Obsidian's own files plus .vaultmem/config.toml."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from .errors import ConfigError, VaultNotFound
from .folders import Journal, find_journals, folder_tree, git_ignored, side_by_side
from .locations import named_vault
from .regular_files import read_regular
from .semantic_config import Semantic, semantic_settings

DEFAULT_FOLDERS: dict[str, str] = {
    "person": "People",
    "project": "Projects",
    "decision": "Decisions",
    "lesson": "Lessons",
    "agent": "Agents",
    "kpi": "KPIs",
    "fact": "Facts",
    "learning": "Learnings",
}
ROOT_FILES = {"MEMORY.md": "core", "NOW.md": "now"}
TEMPLATE_FOLDERS = {"templates", "template", "_templates"}
# a templates folder's name, any case, perhaps after a number, punctuation or one letter to sort it
COMMON_TEMPLATE_NAMES = ("Templates", "templates", "Template", "template", "_templates",
                         "_Templates", "_template", "_Template")
TEMPLATE_NAME = re.compile(r"[\W\d_]*(?:[a-z][\W_]+)?templates?", re.IGNORECASE | re.ASCII)
TEMPLATE_PLUGINS = {"templater-obsidian", "quickadd"}
PLACEHOLDER = re.compile(r"\{\{[^{}\n]+\}\}|<%[\s\S]*?%>")
PLACEHOLDER_SAMPLE = 20
PERIODIC = "plugins/periodic-notes/data.json"  # the Periodic Notes plugin's settings
TOML_KEYS = {"folders", "daily_folder", "daily_format", "templates_folder", "context_folder",
             "secrets", "stale_days", "unreferenced_days", "trash_days", "triggers",
             "age_weight", "age_half_life_days", "feedback_weight", "types", "semantic",
             "vaults"}


@dataclass
class Config:
    """Everything vaultmem needs to know about one vault's settings."""

    root: Path
    config_dir: str = ".obsidian"
    ignore_filters: list[str] = field(default_factory=list)
    attachment_folder: str = ""
    new_link_format: str = "shortest"
    daily_folder: str = ""
    daily_format: str = "YYYY-MM-DD"
    daily_from: str = ""  # how the daily folder was found: a setting, detected, else the default
    journals: tuple[Journal, ...] = ()  # folders of notes named by a date (see folders.py)
    vaults: tuple[str, ...] = ()  # vaults side by side in this folder, each its own (folders.py)
    vaults_from: str = ""  # how they were found
    git_ignored: tuple[str, ...] = ()  # folders the vault's .gitignore keeps out of git
    templates_folder: str | None = None
    templates_from: str = ""  # how the templates folder was found (a setting, or detected)
    daily_template: str | None = None
    template_date_format: str = "YYYY-MM-DD"
    template_time_format: str = "HH:mm"
    secret_patterns: dict[str, str] = field(default_factory=dict)
    triggers: dict[str, list[str]] = field(default_factory=dict)  # capture's phrases, replaced
    stale_days: int = 90
    unreferenced_days: int = 30
    trash_days: int = 30
    context_folder: str = "_vaultmem/context"
    age_weight: float = 0.1  # context: the most a passage's age lowers its score (0..1)
    age_half_life_days: int = 180
    feedback_weight: float = 0.0  # context: pseudo-relevance feedback, off unless set
    folders: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_FOLDERS))
    folders_set: frozenset[str] = frozenset()  # the types whose folder config.toml names
    types: dict[str, str] = field(default_factory=dict)  # [types]: a vault's name -> a type
    semantic: Semantic = field(default_factory=Semantic)  # [semantic]: off unless a model is set
    # The folders a reader may see (an HTTP token's): no other note or file is listed, read or
    # written. Empty: the whole vault.
    scope_folders: tuple[str, ...] = ()

    def fingerprint(self) -> str:
        """A string that changes whenever a setting that affects parsing changes."""
        parts = [self.config_dir, self.daily_folder, self.daily_format, str(self.templates_folder)]
        parts += [f"{j.folder}:{j.format}" for j in self.journals]
        parts += [f"vault:{folder}" for folder in self.vaults]
        parts += [f"ignored:{folder}" for folder in self.git_ignored]
        parts += sorted(f"{k}:{v}" for k, v in self.types.items())
        parts += self.ignore_filters + sorted(f"{k}={v}" for k, v in self.folders.items())
        return "\x1f".join(parts)

    def view_name(self) -> str:
        """The name of the index of what this reader sees: "" for the whole vault, else one
        named by the scope's folders. A scoped reader never opens the whole vault's index,
        so no caller's folders can change what another caller's index holds.

        >>> Config(root=Path(".")).view_name()
        ''
        >>> Config(root=Path("."), scope_folders=("People",)).view_name()[:5]
        'view-'
        """
        if not self.scope_folders:
            return ""
        key = "\x1f".join(sorted(self.scope_folders)).encode("utf-8")
        return "view-" + hashlib.sha256(key).hexdigest()[:16]

    def in_scope(self, path: str) -> bool:
        """True when vault path ``path`` lies in one of the scope's folders (or none is set)."""
        return not self.scope_folders or any(path.startswith(f"{folder}/")
                                             for folder in self.scope_folders)

    def may_hold_scope(self, folder: str) -> bool:
        """True when ``folder`` is in the scope or on the way to one of its folders."""
        return not folder or self.in_scope(folder + "/") or any(
            scoped.startswith(f"{folder}/") for scoped in self.scope_folders)


def find_vault(explicit: str | os.PathLike[str] | None = None, start: Path | None = None) -> Path:
    """The vault root: ``explicit``, else $VAULTMEM_VAULT, else the nearest marked parent."""
    chosen = explicit or os.environ.get("VAULTMEM_VAULT")
    found = named_vault(os.fspath(chosen) if chosen else None, start)
    if found is not None:
        return found
    if chosen:
        raise VaultNotFound(_not_a_folder(Path(chosen).expanduser()))
    here = (start or Path.cwd()).resolve()
    raise VaultNotFound(
        f"no vault found at or above {here} (no .obsidian/ or .vaultmem/ folder); "
        "pass --vault PATH or set VAULTMEM_VAULT"
    )


def _not_a_folder(path: Path) -> str:
    """Why ``path`` cannot be a vault, and the likely fix."""
    if not path.exists():
        return f"vault folder {path} does not exist; pass --vault with the folder of your notes"
    if path.is_file():
        home = next((f for f in path.resolve().parents if (f / ".obsidian").is_dir()),
                    path.parent)
        return (f"{path} is a file, not a vault folder; pass the folder that holds your notes: "
                f"--vault {home}")
    return f"{path} is not a folder; pass --vault with the folder of your notes"


def load_config(root: Path) -> Config:
    """Read the vault's Obsidian settings and vaultmem config into a :class:`Config`."""
    config = Config(root=root, config_dir=_config_dir(root))
    app = _read_json(root / config.config_dir / "app.json")
    config.ignore_filters = [str(f) for f in app.get("userIgnoreFilters") or [] if f]
    config.attachment_folder = _folder(app.get("attachmentFolderPath"))
    config.new_link_format = str(app.get("newLinkFormat") or "shortest")
    templates = _read_json(root / config.config_dir / "templates.json")
    config.templates_folder, config.templates_from = _templates_folder(root, config.config_dir,
                                                                       templates)
    skip = frozenset({config.templates_folder} - {None, ""})
    tree = folder_tree(root, config_dir=config.config_dir, skip=cast(frozenset[str], skip))
    config.journals = tuple(find_journals(tree))
    _daily_settings(config)
    config.vaults = tuple(side_by_side(tree))
    config.vaults_from = "detected" if config.vaults else ""
    config.git_ignored = git_ignored(root)
    config.template_date_format = str(templates.get("dateFormat") or "YYYY-MM-DD")
    config.template_time_format = str(templates.get("timeFormat") or "HH:mm")
    _apply_toml(config, root / ".vaultmem" / "config.toml")
    return config


def _daily_settings(config: Config) -> None:
    """Where daily notes go and how they are named: the Daily notes settings, else Periodic
    Notes' daily ones, else the largest folder of notes named by a date alone, else Obsidian's
    default (the vault root, ``YYYY-MM-DD``); and every folder of such notes."""
    found = _read_json(config.root / config.config_dir / "daily-notes.json")
    config.daily_from = f"{config.config_dir}/daily-notes.json" if found else ""
    if not found:
        plugin = _read_json_any(config.root / config.config_dir / PERIODIC)
        periodic = plugin.get("daily") if isinstance(plugin, dict) else None
        if isinstance(periodic, dict) and periodic.get("enabled", True):
            found, config.daily_from = periodic, f"{config.config_dir}/{PERIODIC}"
    if found:
        config.daily_folder = _folder(found.get("folder"))
        config.daily_format = str(found.get("format") or "YYYY-MM-DD")
        config.daily_template = _folder(found.get("template")) or None
    elif config.journals:
        config.daily_folder, config.daily_format, notes = config.journals[0]
        config.daily_from = f"detected: {notes} notes named by date"
    else:
        config.daily_from = "Obsidian's default"


def _templates_folder(root: Path, config_dir: str,
                      templates: dict[str, Any]) -> tuple[str | None, str]:
    """The templates folder and how it was found: Obsidian's Templates setting, Templater's,
    or its one folder named like ``Templates`` (at the top or one level down; as Templater and
    QuickAdd users name it) in a vault with a templates plugin on, with no list of plugins to
    say otherwise, or whose notes are mostly placeholders."""
    if folder := _folder(templates.get("folder")):
        return folder, f"{config_dir}/templates.json"
    plugins = root / config_dir / "plugins"
    templater = _read_json_any(plugins / "templater-obsidian" / "data.json")
    if isinstance(templater, dict) and (folder := _folder(templater.get("templates_folder"))):
        return folder, "Templater's settings"
    named = _named_like_templates(root)
    if len(named) != 1:
        return None, ""
    name = named[0].rsplit("/", 1)[-1]
    if _uses_templates(root / config_dir):
        return named[0], f"the folder named {name!r}, with a templates plugin on"
    if _mostly_placeholders(root / named[0]):
        return named[0], f"the folder named {name!r}, its notes full of placeholders"
    if not _plugins_known(root / config_dir):
        return named[0], f"the folder named {name!r} (no settings say which plugins are on)"
    return None, ""


def _named_like_templates(root: Path) -> list[str]:
    """The folders named like a templates folder (``Templates``, ``_template``, ``99 -
    Templates``, ``z_Templates``) at the top of the vault, or one level down by the common
    names (``Meta/templates``; asked for by name there, so a folder of many notes is never
    listed)."""
    tops = _subfolders(root)
    found: dict[tuple[int, int], str] = {}  # by inode: one folder where names ignore case
    asked = [name for name in tops if TEMPLATE_NAME.fullmatch(name)] + [
        f"{top}/{name}" for top in tops for name in COMMON_TEMPLATE_NAMES]
    for path in asked:
        with contextlib.suppress(OSError):
            if (info := (root / path).stat()) and (root / path).is_dir():
                found.setdefault((info.st_dev, info.st_ino), path)
    return sorted(found.values())


def _subfolders(folder: Path) -> list[str]:
    """The names of a folder's visible subfolders, sorted ([] when it cannot be listed)."""
    try:
        return sorted(entry.name for entry in os.scandir(folder)
                      if entry.is_dir() and not entry.name.startswith("."))
    except OSError:
        return []


def _mostly_placeholders(folder: Path) -> bool:
    """True when most notes of ``folder`` (the first few read) hold template placeholders
    (``{{title}}``, ``<% tp.file.title %>``): a templates folder whose vault left no settings."""
    notes = sorted(folder.rglob("*.md"))[:PLACEHOLDER_SAMPLE]
    marked = 0
    for note in notes:
        with contextlib.suppress(OSError):
            text = read_regular(note, 1 << 16).decode("utf-8", "replace")
            marked += bool(PLACEHOLDER.search(text))
    return bool(notes) and marked * 2 > len(notes)


def _plugins_known(settings: Path) -> bool:
    """True when the vault keeps Obsidian's list of core or community plugins (a copy without
    its settings folder tells nothing of them)."""
    return any((settings / name).is_file()
               for name in ("core-plugins.json", "community-plugins.json"))


def _uses_templates(settings: Path) -> bool:
    """True when Obsidian's Templates core plugin or a community templates plugin is on."""
    core = _read_json_any(settings / "core-plugins.json")
    core_on = core.get("templates") is True if isinstance(core, dict) else "templates" in core
    community = _read_json_any(settings / "community-plugins.json")
    return core_on or bool(TEMPLATE_PLUGINS & set(community if isinstance(community, list) else []))


def _config_dir(root: Path) -> str:
    """Obsidian's config folder: ``.obsidian`` unless the user renamed it (it keeps a dot)."""
    if (root / ".obsidian").is_dir():
        return ".obsidian"
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        if entry.name.startswith(".") and (entry / "app.json").is_file():
            return entry.name
    return ".obsidian"


def _folder(value: Any) -> str:
    """A settings folder value as a vault-relative POSIX path without slashes around it."""
    text = str(value or "").strip().strip("/")
    text = "" if text in ("", ".", "./") else text.removeprefix("./")
    if ".." in text.split("/") or text.startswith("~"):
        raise ConfigError(f"folder {text!r} leads outside the vault; use a folder inside it")
    return text


def _read_json_any(path: Path) -> Any:
    """A JSON settings file of any shape ({} when missing or broken: only a hint is read)."""
    try:
        return json.loads(read_regular(path).decode("utf-8-sig"))
    except (OSError, ValueError):
        return {}


def _read_json(path: Path) -> dict[str, Any]:
    """A JSON settings file as a dict; a missing file is empty, a broken one an error."""
    try:
        data = json.loads(read_regular(path).decode("utf-8-sig"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot read settings ({exc}); fix or delete the file") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object; fix or delete the file")
    return data


def _apply_toml(config: Config, path: Path) -> None:
    """Overlay ``.vaultmem/config.toml`` on the Obsidian settings."""
    try:
        data = _parse_toml(read_regular(path).decode("utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: {exc}; fix the TOML syntax") from exc
    for key in data:
        if key not in TOML_KEYS:
            raise ConfigError(f"{path}: unknown setting {key!r}{_did_you_mean(key)}")
    folders = data.get("folders", {})
    if not isinstance(folders, dict):
        raise ConfigError(f"{path}: [folders] must be a table of type = \"Folder\"")
    config.folders.update({str(k): _folder(v) for k, v in folders.items()})
    config.folders_set = frozenset(str(k) for k in folders)
    types = data.get("types", {})
    if not isinstance(types, dict) or not all(isinstance(v, str) for v in types.values()):
        raise ConfigError(f"{path}: [types] must be a table of name = \"type\" (Authors = "
                          "\"person\")")
    config.types = {str(k).casefold(): v.casefold() for k, v in types.items()}
    if "semantic" in data:
        config.semantic = semantic_settings(data["semantic"], path, config.root)
    for key in ("daily_folder", "templates_folder", "context_folder"):
        if key in data:
            setattr(config, key, _folder(data[key]))
    if "templates_folder" in data:
        config.templates_from = ".vaultmem/config.toml"
    if "daily_format" in data:
        config.daily_format = str(data["daily_format"])
    if "daily_folder" in data or "daily_format" in data:
        config.daily_from = ".vaultmem/config.toml"
    if "vaults" in data:
        given = data["vaults"]
        if not isinstance(given, list) or not all(isinstance(v, str) for v in given):
            raise ConfigError(f"{path}: vaults must be a list of folders (vaults = [\"en\", "
                              "\"zh\"]), or [] for one vault")
        config.vaults = tuple(sorted(_folder(v) for v in given))
        config.vaults_from = ".vaultmem/config.toml"
    for key in ("stale_days", "unreferenced_days", "trash_days", "age_half_life_days"):
        if key in data:
            if not isinstance(data[key], int) or data[key] < 1:
                raise ConfigError(f"{path}: {key} must be a whole number of days (1 or more)")
            setattr(config, key, data[key])
    for key in ("age_weight", "feedback_weight"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int | float) or \
                    not 0 <= value <= 1:
                raise ConfigError(f"{path}: {key} must be a number from 0 to 1")
            setattr(config, key, float(value))
    secrets = data.get("secrets", {})
    if not isinstance(secrets, dict) or not all(isinstance(v, str) for v in secrets.values()):
        raise ConfigError(f'{path}: [secrets] must be a table of name = "regex"')
    config.secret_patterns = dict(secrets)
    triggers = data.get("triggers", {})
    if not isinstance(triggers, dict) or not all(
            isinstance(v, list) and all(isinstance(p, str) for p in v) for v in triggers.values()):
        raise ConfigError(f'{path}: [triggers] must be a table of category = ["phrase", ...]')
    config.triggers = {str(k): list(v) for k, v in triggers.items()}


def _parse_toml(text: str) -> dict[str, Any]:
    """The settings in ``text``; the TOML parser is loaded only for a vault that has them."""
    import tomllib

    return tomllib.loads(text)


def _did_you_mean(key: str) -> str:
    """A hint naming the known setting closest to ``key``, if one is close enough."""
    from rapidfuzz import process  # only a mistyped setting pays for loading rapidfuzz

    guess = process.extractOne(key, sorted(TOML_KEYS))
    return f"; did you mean {guess[0]!r}?" if guess and guess[1] > 60 else ""
