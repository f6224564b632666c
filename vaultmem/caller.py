"""Who calls a tool or a write, and how their writes treat links: made once by each face
(CLI, MCP over stdio, an HTTP token, a worker) and passed to every tool and write."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class LinkPolicy:
    """How a write treats the links it is given: ``keep`` them as written, let ``new`` names
    close to an existing one stand, link plain ``mentions`` of people and projects; links to
    the notes ``to_be`` (ids the same operation writes) are kept."""

    keep: bool = False
    new: bool = False
    mentions: bool = False
    to_be: frozenset[str] = frozenset()


STRICT = LinkPolicy()  # every link reviewed, none kept as given, no mention linked


@dataclass(frozen=True)
class Caller:
    """Who is calling (a token's name; ``local`` for the vault's own user), whether they may
    write, the folders they may see and write (none: the whole vault), the agent their writes
    are signed by (none: unsigned) and how their writes treat links.

    >>> Caller(folders=("People",)).may_touch("People/Lucy Tan.md")
    True
    >>> Caller(folders=("People",)).may_touch("Private/Salaries.md")
    False
    """

    name: str = "local"
    may_write: bool = True
    folders: tuple[str, ...] = ()
    agent: str | None = None
    links: LinkPolicy = STRICT

    def may_touch(self, path: str) -> bool:
        """True when vault path ``path`` lies in the caller's folders (or none is set)."""
        return not self.folders or any(path.startswith(f"{folder}/") for folder in self.folders)

    def linking(self, policy: LinkPolicy) -> Caller:
        """This caller, its writes treating links as ``policy`` says."""
        return dataclasses.replace(self, links=policy)

    def expecting(self, *note_ids: str) -> Caller:
        """This caller, its writes keeping links to ``note_ids`` (notes the same operation
        writes, before or after)."""
        return self.linking(dataclasses.replace(
            self.links, to_be=self.links.to_be | frozenset(note_ids)))

    def signed_by(self, agent: str | None) -> Caller:
        """This caller, its writes signed by ``agent`` (an import carrying who wrote what)."""
        return dataclasses.replace(self, agent=agent)


LOCAL = Caller()  # the vault's own user at this machine: whole vault, writes, unsigned
