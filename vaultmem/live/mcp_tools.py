"""The MCP tools: each calls the same library function as its CLI command, on current files."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import gc
import json
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Annotated, Any

from .. import clock
from ..caller import LOCAL, Caller, LinkPolicy
from ..check.conflicts import KINDS
from ..check.sorted_findings import conflicts_sorted
from ..check.summaries import note_data
from ..errors import VaultmemError
from ..faces import text as readable
from ..index.notes import Index
from ..index.sql import within
from ..recall.search import Filters, search
from ..secrets import redact, redact_data
from ..vault import Vault
from ..write.apply import WriteResult
from .inotify import VaultWatch

if TYPE_CHECKING:
    from mcp.server.mcpserver.exceptions import ToolError as ToolError  # re-exported
    from pydantic import Field as Field  # re-exported for mcp_write
else:
    try:
        from mcp.server.mcpserver.exceptions import ToolError
        from pydantic import Field
    except ImportError:  # no mcp extra: still importable (doctests); mcp.serve refuses to run
        ToolError = RuntimeError

        def Field(**_: object) -> None:
            """Stands in for pydantic's Field."""


def Whole(**options: Any) -> Any:
    """A Field for a whole number: "50" and 50.0 are refused, not read as 50."""
    return Field(strict=True, **options)


log = logging.getLogger(__name__)
COLLECT_EVERY = 2.0  # seconds between collections of what earlier calls loaded

NoteName = Annotated[str, Field(description="A note id ('People/Lucy Tan'), name ('Lucy Tan', "
                                            "any case) or vault path.")]
DryRun = Annotated[bool, Field(description="True: return the diff it would make, write nothing.")]
Force = Annotated[bool, Field(description="True: create it even if a similar note exists.")]
Body = Annotated[str | None, Field(description="Markdown added after the template's body.")]
KeepLinks = Annotated[bool, Field(description="True: write [[links]] as given; none is "
                                  "rewritten or refused.")]
NewLink = Annotated[bool, Field(description="True: a [[link]] close to an existing note's name "
                                "is to a new note; keep it.")]
LinkMentions = Annotated[bool, Field(description="True: also link the first plain-text "
                                     "mention of each person and project.")]
Source = Annotated[str | None, Field(description="The note it was learned from (e.g. a daily "
                                                 "note '2026-11-26').")]


def writing(caller: Caller, keep_links: bool, new_link: bool,
            link_mentions: bool = False) -> Caller:
    """``caller``, its writes in this call treating links as the call asks."""
    return caller.linking(LinkPolicy(keep=keep_links, new=new_link, mentions=link_mentions))


def compact(data: Any) -> str:
    """One-line JSON without padding, for a model's context."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def written(results: Sequence[WriteResult]) -> dict[str, Any]:
    """Write results for JSON, empty fields left out."""
    rows = [{k: v for k, v in r.to_dict().items() if v not in (None, [], "")} for r in results]
    return {"results": rows}


def same_files(new: Index, old: Index) -> bool:
    """True when two scans read the same files in the same state (cache entries equal)."""
    return (_files(new) == _files(old) and new.other == old.other
            and new.attachments == old.attachments and new.generated == old.generated
            and new.listing_problems == old.listing_problems)


def same_index(new: Index, old: Index) -> bool:
    """True when the index stored nothing between two readings and the files that could not
    be listed are the same: what any tool answers is the same."""
    return new.generation == old.generation and new.listing_problems == old.listing_problems


def _files(index: Index) -> dict[str, tuple[object, ...]]:
    """Each note's file state as the scan saw it (not whether its text was read since)."""
    return {path: (e.mtime_ns, e.size, e.flags, e.identity) for path, e in index.states().items()}


def busy(waited: float | None) -> ToolError:
    """The refusal of a call that waited ``waited`` seconds for its turn."""
    return ToolError(f"the server is busy: this call waited {waited:g} s for its turn; call "
                     "again in a moment")


def moment() -> dt.datetime:
    """The moment a write records (as the CLI's default)."""
    return clock.this_minute()


class Tools:
    """The vault's tools; one call at a time, each on the vault's current files."""

    def __init__(self, vault: Vault, *, watch: bool = True, call_wait: float | None = None,
                 call_seconds: float | None = None) -> None:
        self.vault = vault
        self.lock = threading.Lock()
        self.watch = VaultWatch(vault.root) if watch else None  # before the first read
        self.call_wait = call_wait  # seconds a call waits for its turn (None: as long as needed)
        self.call_seconds = call_seconds  # seconds a reading call may run (None: no limit)
        self.scoped: dict[tuple[str, ...], Vault] = {}  # the vaults of tokens' folders
        # changes reported but not yet taken in, by reading (): the whole vault's
        self.pending: dict[tuple[str, ...], set[str] | None] = {}
        self.collected = -COLLECT_EVERY  # when garbage was last collected (monotonic)

    @contextlib.contextmanager
    def fresh(self, caller: Caller, *, reading: bool = True) -> Iterator[Vault]:
        """The vault re-scanned now, as ``caller`` may see it; a reading call's queries end
        after ``call_seconds`` (a write is never cut short); library errors become tool
        errors that say the fix."""
        with self._turn():
            try:
                vault = self.current(caller)
                loaded = set(vault.__dict__)
                with within(vault.store.db, self.call_seconds if reading else None):
                    yield vault
                if set(vault.__dict__) != loaded:
                    self._keep_out_of_collections()
                for notice in dict.fromkeys(vault.notices):  # the server's stderr log
                    log.warning("%s", notice)
                vault.notices.clear()
            except VaultmemError as exc:
                raise ToolError(str(exc)) from exc
            except OSError as exc:
                raise ToolError(f"{exc}; check the path and its permissions") from exc
            except Exception as exc:
                log.exception("vaultmem tool failed")
                raise ToolError(f"internal error ({exc.__class__.__name__}: {exc}); please "
                                "report it with the server's stderr") from exc

    def _keep_out_of_collections(self) -> None:
        """After a call loaded something that lasts (index, graph, search index): exempt it
        from later collections, which would otherwise walk the loaded index again and again
        (100 ms at 10,000 notes). What earlier calls loaded and is garbage now is collected
        first, at most every :data:`COLLECT_EVERY` seconds: that collection walks everything
        loaded (60 ms at 10,000 notes), and a vault edited five times a second would pay it on
        every call. Garbage frozen in between is collected by the next load after that."""
        now = time.monotonic()
        if now - self.collected >= COLLECT_EVERY:
            gc.unfreeze()
            gc.collect()
            self.collected = now
        gc.freeze()

    @contextlib.contextmanager
    def _turn(self) -> Iterator[None]:
        """Hold the tools' lock: calls run one at a time, and one that waited ``call_wait``
        seconds is refused (a call that started is never cut short: writes are whole)."""
        if not self.lock.acquire(timeout=-1 if self.call_wait is None else self.call_wait):
            raise busy(self.call_wait)
        try:
            yield
        finally:
            self.lock.release()

    def current(self, caller: Caller = LOCAL) -> Vault:
        """The vault as its files are now, as ``caller`` may see it (an HTTP token limited to
        some folders sees only them, through an index of its own): the same object (graph and
        all) if nothing it holds changed (known without reading a file status when the system
        reports changes)."""
        self._take_reported()
        if not caller.folders:
            self.vault = self._now(self.vault, ())
            return self.vault
        known = self.scoped.get(caller.folders)
        if known is None:  # the first read of these folders
            config = dataclasses.replace(self.vault.config, scope_folders=caller.folders)
            known = Vault(self.vault.root, config=config, use_cache=self.vault.use_cache)
        self.scoped[caller.folders] = self._now(known, caller.folders)
        return self.scoped[caller.folders]

    def _take_reported(self) -> None:
        """Add the changes the system reported since the last call to what each reading (the
        whole vault's, each set of folders') has not taken in yet (None: any file may have
        changed)."""
        changes = self.watch.changes() if self.watch is not None else None
        for key in [(), *self.scoped]:
            held = self.pending.get(key, set())
            self.pending[key] = None if changes is None or held is None else held | changes

    def _now(self, vault: Vault, key: tuple[str, ...]) -> Vault:
        """``vault`` (a reading of the folders ``key``) as its files are now."""
        changes = self.pending.pop(key, None)
        if "index" not in vault.__dict__:  # the first read
            _ = vault.index
            return vault
        if changes is not None and not any(vault.config.may_hold_scope(path) for path in changes):
            return vault
        latest = vault.after(changes)  # only the files reported changed are read again
        same = same_files if changes is None else same_index
        return vault if same(latest.index, vault.index) else latest

    def out(self, answer: str | dict[str, Any]) -> str:
        """A tool's answer, text or compact JSON, with every credential redacted."""
        extra = self.vault.config.secret_patterns
        if isinstance(answer, str):
            return redact(answer, extra)
        return compact(redact_data(answer, extra))

    def written(self, results: Sequence[WriteResult]) -> str:
        """What a writing tool did, as compact JSON (credentials redacted)."""
        return self.out(written(results))

    # -- reading -------------------------------------------------------------------------

    def search(
        self,
        query: Annotated[str, Field(description="Words, a question or a (misspelt) name.")],
        type: Annotated[str | None, Field(description="Only notes of this type: person, "
                                          "project, decision, lesson, agent, kpi, fact, daily, "
                                          "learning, core, now, note.")] = None,
        tag: Annotated[str | None, Field(description="Only notes with this tag (nested tags "
                                         "included), e.g. 'ocr'.")] = None,
        status: Annotated[str | None, Field(description="Only notes with this status, e.g. "
                                            "'approved', 'active', 'archived'.")] = None,
        since: Annotated[str | None, Field(description="Only notes dated on or after this "
                                           "day, YYYY-MM-DD.")] = None,
        folder: Annotated[str | None, Field(description="Only notes in this folder.")] = None,
        limit: Annotated[int, Whole(ge=1, le=1000, description="Most results.")] = 10,
        passages: Annotated[int, Whole(ge=0, le=100, description="Best passages shown per "
                                       "note.")] = 0,
        caller: Caller = LOCAL,
    ) -> str:
        """Ranked notes for a query, as the ``search --json`` document."""
        with self.fresh(caller) as vault:
            hits = search(vault, query, filters=Filters(type, tag, status, since, folder),
                          limit=limit, passages=passages)
            return self.out({"query": query, "results": [h.to_dict() for h in hits]})

    def related(
        self,
        note: NoteName,
        limit: Annotated[int, Whole(ge=1, le=1000, description="Most results.")] = 10,
        depth: Annotated[int, Whole(ge=1, le=6, description="How many links away candidates "
                                    "may be.")] = 2,
        caller: Caller = LOCAL,
    ) -> str:
        """Notes related to one note, as the ``related --json`` document."""
        from ..recall.related.notes import related_notes

        with self.fresh(caller) as vault:
            note_id, items = related_notes(vault, note, limit=limit, depth=depth)
            return self.out({"note": note_id, "results": [i.to_dict() for i in items]})

    def mentions(
        self,
        note: NoteName,
        linked: Annotated[bool, Field(description="Also in notes that already link it "
                                      "elsewhere.")] = False,
        caller: Caller = LOCAL,
    ) -> str:
        """The note's unlinked mentions, as the ``mentions --json`` document."""
        from ..check.mentions import unlinked_mentions

        with self.fresh(caller) as vault:
            note_id, found = unlinked_mentions(vault, note)
            return self.out({"note": note_id, "results": [m.to_dict() for m in found
                                                          if linked or not m.linked]})

    def context(
        self,
        agent: Annotated[str | None, Field(description="The agent whose context it is (its "
                                           "note name, e.g. 'Rafael').")] = None,
        query: Annotated[str | None, Field(description="What the agent is working on or "
                                           "asking.")] = None,
        note: Annotated[str | None, Field(description="A note the context is about.")] = None,
        budget: Annotated[int, Whole(ge=50, le=200_000, description="Most tokens the context "
                                     "may take.")] = 2000,
        explain: Annotated[bool, Field(description="Then say why each item is in, after the "
                                       "context (not counted in the budget).")] = False,
        fill: Annotated[bool, Field(description="Every passage found for the query, as far as "
                                    "the budget goes, not only the best (breadth over "
                                    "precision).")] = False,
        caller: Caller = LOCAL,
    ) -> str:
        """The agent's context as Markdown, as ``vaultmem context`` prints it."""
        from ..check.conflicts import ready_conflicts
        from ..recall.context.build import build_context

        with self.fresh(caller) as vault:
            ready_conflicts(vault)  # found once, then brought up to date by each change
            built = build_context(vault, agent=agent, query=query, note=note, budget=budget,
                                  fill=fill)
            return self.out(built.explained() if explain else built.text)

    def show(
        self,
        note: NoteName,
        content: Annotated[bool, Field(description="Also return the note's Markdown text "
                                       "(credentials redacted).")] = True,
        caller: Caller = LOCAL,
    ) -> str:
        """One note as ``vaultmem show`` prints it, then its text."""
        with self.fresh(caller) as vault:
            found = vault.note(note)
            if content:
                return self.out(readable.note_with_text(vault, found))
            return self.out(readable.show_text(note_data(vault, found)))

    def conflicts(
        self,
        kinds: Annotated[list[str] | None, Field(description="Only these kinds: " + ", ".join(
            KINDS) + ". Default: all.")] = None,
        caller: Caller = LOCAL,
    ) -> str:
        """Conflicting memory, as the ``conflicts --json`` document."""
        with self.fresh(caller) as vault:
            split = conflicts_sorted(vault, kinds=kinds or ())
            return self.out(split.to_dict())
