"""List a vault's files as Obsidian sees them: no dot folders, symlink loops reported."""

from __future__ import annotations

import bisect
import os
import re
import stat as modes
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..config import Config
from ..errors import ConfigError
from ..model import Problem
from .sync import copy_of
from .types import in_folder

MAX_BYTES = 8 * 1024 * 1024  # a larger .md file is reported, not read


@dataclass(slots=True)
class FileInfo:
    """One file of the vault: vault path, stat identity, and its role."""

    path: str
    mtime_ns: int
    size: int
    role: str = "source"  # source | template | excluded | sync-copy
    change_ns: int = 0  # ctime and inode: a rewrite that keeps mtime and size still shows
    inode: int = 0


@dataclass
class Listing:
    """The Markdown notes and attachments of a vault, and files that could not be listed."""

    notes: list[FileInfo] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def list_vault(config: Config) -> Listing:
    """Walk the vault (following symlinked folders once) and sort what is found."""
    listing = Listing()
    ignore = _ignore_matcher(config.ignore_filters)
    seen: set[tuple[int, int]] = set()
    stack = [""]
    while stack:
        folder = stack.pop()
        try:  # each file is stated through its open folder: the kernel walks no path again
            handle = os.open(os.path.join(config.root, folder), os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            listing.problems.append(Problem(folder or ".", "unreadable", f"cannot list: {exc}",
                                            None))
            continue
        try:
            found = _list_folder(handle, folder, listing, seen, config, lambda path: _role(
                path, config, ignore))
            stack += [path for path in found if config.may_hold_scope(path)]
        finally:
            os.close(handle)
    if config.scope_folders:  # what lies outside the scope is not there for this reader
        listing.notes = [info for info in listing.notes if config.in_scope(info.path)]
        listing.attachments = [path for path in listing.attachments if config.in_scope(path)]
        listing.problems = [p for p in listing.problems if config.in_scope(p.path)]
    listing.notes.sort(key=lambda info: info.path)
    listing.attachments.sort()
    return listing


def _list_folder(handle: int, folder: str, listing: Listing, seen: set[tuple[int, int]],
                 config: Config, role: Callable[[str], str]) -> list[str]:
    """Add the notes and attachments of the open ``folder`` to ``listing``; its folders."""
    folders = []
    for entry in _entries(handle, folder, listing, seen):
        path = f"{folder}/{entry.name}" if folder else entry.name
        if _is_symlink(entry) and _leads_out(config, path, listing):
            continue
        if _is_dir(entry):
            folders.append(path)
        elif path[-3:].lower() == ".md":
            info = _stat(entry, path, listing)
            if info is not None:
                info.role = role(path)
                listing.notes.append(info)
        else:  # never opened, so a named pipe here blocks nothing
            listing.attachments.append(path)
    return folders


def _entries(handle: int, folder: str, listing: Listing,
             seen: set[tuple[int, int]]) -> list[os.DirEntry[str]]:
    """The non-hidden entries of the open ``folder``; a folder seen before is a symlink loop."""
    try:
        stat = os.fstat(handle)
        if (stat.st_dev, stat.st_ino) in seen:
            listing.problems.append(Problem(folder, "unreadable", "symlink loop: this folder "
                                            "was already read through another path", None))
            return []
        seen.add((stat.st_dev, stat.st_ino))
        with os.scandir(handle) as scan:
            found = sorted((e for e in scan if e.name[0] != "."), key=lambda e: e.name)
    except OSError as exc:
        listing.problems.append(Problem(folder or ".", "unreadable", f"cannot list: {exc}", None))
        return []
    try:
        "".join(entry.name for entry in found).encode("utf-8")  # all names at once, mostly
    except UnicodeEncodeError:
        return [entry for entry in found if _utf8_name(entry.name, folder, listing)]
    return found


def _utf8_name(name: str, folder: str, listing: Listing) -> bool:
    """False, with a problem, for a name that is not valid UTF-8 (bytes decoded as surrogates):
    no link can reach it and it can be neither cached nor printed."""
    if _utf8(name):
        return True
    shown = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    listing.problems.append(Problem(f"{folder}/{shown}" if folder else shown, "encoding",
                                    "file name is not valid UTF-8; rename it", None))
    return False


def _is_symlink(entry: os.DirEntry[str]) -> bool:
    """True for a symbolic link (read from the folder listing: no system call)."""
    try:
        return entry.is_symlink()
    except OSError:
        return False


def _leads_out(config: Config, path: str, listing: Listing) -> bool:
    """True, with a problem, when the symbolic link at ``path`` leads out of the vault or out
    of the folders this reader may see: a link planted by git or a sync tool must not serve
    ``/etc`` or another folder's notes (its target is not named: it may be what is hidden)."""
    target = os.path.realpath(os.path.join(config.root, path))
    root = os.path.realpath(config.root)
    scopes = [os.path.realpath(os.path.join(root, folder)) for folder in config.scope_folders]
    if _under(target, root) and (not scopes or any(_under(target, top) for top in scopes)):
        return False
    where = "the folders this reader may see" if config.scope_folders else "the vault"
    listing.problems.append(Problem(path, "unreadable", f"a symbolic link out of {where}; "
                                    "vaultmem does not follow it (move what it points to into "
                                    "the vault, or remove the link)", None))
    return True


def _under(path: str, top: str) -> bool:
    """True when real path ``path`` is ``top`` or lies in it."""
    return path == top or path.startswith(top.rstrip(os.sep) + os.sep)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """A folder (or a symlink to one); broken links are not folders."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _stat(entry: os.DirEntry[str], path: str, listing: Listing) -> FileInfo | None:
    """Size and mtime of a note, or a problem when it cannot be read."""
    try:
        stat = entry.stat()
    except OSError as exc:
        listing.problems.append(Problem(path, "unreadable", f"cannot read: {exc}", None))
        return None
    return _note_info(path, stat, entry.is_symlink, listing)


def _note_info(path: str, stat: os.stat_result, is_symlink: Callable[[], bool],
               listing: Listing) -> FileInfo | None:
    """The note at ``path`` of status ``stat``, or a problem when it is not a regular file.

    Only regular files are notes: opening a named pipe would wait for a writer forever.
    """
    if not modes.S_ISREG(stat.st_mode):
        kind = ("a symbolic link to " if is_symlink() else "") + file_kind(stat.st_mode)
        listing.problems.append(Problem(path, "unreadable", f"not a regular file ({kind}), so "
                                        "vaultmem does not open it; remove it or rename it "
                                        "without .md", None))
        return None
    return FileInfo(path, stat.st_mtime_ns, stat.st_size, change_ns=stat.st_ctime_ns,
                    inode=stat.st_ino)


def relisted(config: Config, listing: Listing, paths: Iterable[str]) -> Listing | None:
    """``listing`` after the files at the vault ``paths`` changed (came, went or were
    written), only those stated again; None when one is a folder or a name that is not
    UTF-8: then the vault is listed again.

    >>> import tempfile, pathlib
    >>> from vaultmem.config import load_config
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "a.md").write_text("a")
    >>> config = load_config(root)
    >>> before = list_vault(config)
    >>> _ = (root / "b.md").write_text("b")
    >>> [info.path for info in relisted(config, before, ["b.md"]).notes]
    ['a.md', 'b.md']
    """
    changed = {path for path in paths if config.in_scope(path)
               and not any(part.startswith(".") for part in path.split("/"))}
    if any(not _utf8(path) for path in changed):
        return None
    after = Listing([i for i in listing.notes if i.path not in changed],
                    [a for a in listing.attachments if a not in changed],
                    [p for p in listing.problems if p.path not in changed])
    ignore = _ignore_matcher(config.ignore_filters)
    if not all(_restate(config, path, after, lambda path: _role(path, config, ignore))
               for path in sorted(changed)):
        return None
    return after


def _restate(config: Config, path: str, listing: Listing, role: Callable[[str], str]) -> bool:
    """Add the file at ``path`` to ``listing`` (sorted) as it is now (nothing when it is gone);
    False when it is a folder."""
    full = os.path.join(config.root, path)
    if os.path.islink(full) and _leads_out(config, path, listing):
        return True
    try:
        stat = os.stat(full)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError) and not os.path.islink(full):
            return True  # gone; a broken link stays a problem, as when listed
        listing.problems.append(Problem(path, "unreadable", f"cannot read: {exc}", None))
        return True
    if modes.S_ISDIR(stat.st_mode):
        return False
    if path[-3:].lower() != ".md":
        bisect.insort(listing.attachments, path)
    elif (info := _note_info(path, stat, lambda: os.path.islink(full), listing)) is not None:
        info.role = role(path)
        bisect.insort(listing.notes, info, key=lambda known: known.path)
    return True


def _utf8(path: str) -> bool:
    """True when ``path`` is valid UTF-8 (a name that is not was decoded with surrogates)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def file_kind(mode: int) -> str:
    """What kind of file system object a non-regular ``mode`` is."""
    kinds = ((modes.S_ISFIFO, "a named pipe"), (modes.S_ISSOCK, "a socket"),
             (modes.S_ISDIR, "a folder"),
             (modes.S_ISCHR, "a character device"), (modes.S_ISBLK, "a block device"))
    return next((name for test, name in kinds if test(mode)), "not a file")


def _ignore_matcher(filters: list[str]) -> re.Pattern[str] | None:
    """One regex for Obsidian's excluded files: ``/re/`` entries search, others are prefixes."""
    parts = []
    for item in filters:
        if len(item) > 1 and item.startswith("/") and item.endswith("/"):
            try:
                re.compile(item[1:-1])
            except re.error as exc:
                raise ConfigError(f"excluded files filter {item!r} in .obsidian/app.json is not "
                                  f"a valid regular expression ({exc}); fix it in Obsidian's "
                                  "settings") from exc
            parts.append(f"(?:.*?(?:{item[1:-1]}))")
        else:
            parts.append(re.escape(item.lstrip("/")))
    return re.compile("|".join(parts)) if parts else None


def _role(path: str, config: Config, ignore: re.Pattern[str] | None) -> str:
    """``template``, ``excluded``, ``sync-copy`` (a sync tool's conflict copy) or ``source``."""
    if copy_of(path):
        return "sync-copy"
    if config.templates_folder and in_folder(path, config.templates_folder):
        return "template"
    if ignore is not None and ignore.match(path):
        return "excluded"
    return "source"
