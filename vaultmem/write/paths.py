"""Where vaultmem may write: below the vault, visible, through no symlink, names any system
can store."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import VaultmemError
from ..names import RESERVED

WINDOWS_BAD = re.compile(r'[\\:*?"<>|\x00-\x1f]')


OWN_FILES = {(".vaultmem", "ignored.txt"), (".vaultmem", "link-history.md"),
             (".trash", ".vaultmem-trash.json")}  # the only hidden files vaultmem writes:
# the owner's ignore list, the links it wrote otherwise, the record of what it put in the trash


class OutsideVault(VaultmemError):
    """A write would land outside the vault, in a hidden folder, or through a symlink."""


def inside(root: Path, rel: str) -> Path:
    """``root / rel`` when it is a visible file of the vault, or one of vaultmem's own
    settings files (``.vaultmem/ignored.txt``); else OutsideVault.

    No ``..``, no absolute path, no other hidden folder, no symlink (replacing a link would
    detach it from the note it points to), no name Windows cannot store.
    """
    parts = checked_parts(rel)
    own = parts in OWN_FILES
    if not own and any(p.startswith(".") for p in parts):
        raise OutsideVault(f"{rel!r} is outside the vault's visible notes; vaultmem writes "
                           "only below the vault folder (check the folders in your config)")
    path = root / rel
    if path.is_symlink() or not within(root, path):
        raise OutsideVault(f"{rel} is a symbolic link or leads outside the vault; vaultmem "
                           "does not write through links; edit the note it points to")
    return path


def checked_parts(rel: str) -> tuple[str, ...]:
    """The parts of vault path ``rel``; OutsideVault if it could point anywhere else."""
    parts = Path(rel).parts
    if not parts or Path(rel).is_absolute() or ".." in parts or "\x00" in rel:
        raise OutsideVault(f"{rel!r} is outside the vault; vaultmem writes only below the "
                           "vault folder (check the folders in your config)")
    for part in parts:
        if WINDOWS_BAD.search(part) or part.endswith((".", " ")) or \
                part.split(".")[0].rstrip(" ").upper() in RESERVED:
            raise OutsideVault(f"{rel!r}: {part!r} is not a file name every system can store "
                               "(Windows reserves it, or it has one of \\ : * ? \" < > |, or "
                               "ends with a dot or space); rename it")
    return parts


def within(root: Path, path: Path) -> bool:
    """True when ``path`` (following any symlinked folders) stays below ``root``."""
    return path.resolve().is_relative_to(root.resolve())
