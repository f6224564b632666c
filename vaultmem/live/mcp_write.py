"""The writing MCP tools: daily, fact, decide, lesson, learn, now (same functions as the CLI);
each reviews the links it writes as the CLI does (``keep_links``, ``new_link``)."""

from __future__ import annotations

from typing import Annotated, Literal

from ..caller import LOCAL, Caller, LinkPolicy
from ..generate.context_note import context_follows
from ..write import entries, facts, journal
from ..write.link_review.review import review_data, review_links
from ..write.merge import merge
from ..write.rename import rename
from .mcp_tools import (
    Body,
    DryRun,
    Field,
    Force,
    KeepLinks,
    LinkMentions,
    NewLink,
    Source,
    Tools,
    moment,
    writing,
)

FirstDry = Annotated[bool, Field(description="True (the default): return the diff it would "
                                 "make and write nothing; false: make it.")]


class WriteTools(Tools):
    """The reading tools and the writing ones."""

    def daily(
        self,
        text: Annotated[str, Field(description="The entry, Markdown; [[links]] welcome.")],
        title: Annotated[str | None, Field(description="Entry title (default: the start of "
                                           "the text).")] = None,
        dry_run: DryRun = False,
        keep_links: KeepLinks = False,
        new_link: NewLink = False,
        link_mentions: LinkMentions = False,
        caller: Caller = LOCAL,
    ) -> str:
        """Append a timestamped entry to today's daily note."""
        writer = writing(caller, keep_links, new_link, link_mentions)
        with self.fresh(writer, reading=False) as vault:
            return self.written([journal.append_daily(vault, text, title=title, when=moment(),
                                                      dry_run=dry_run, caller=writer)])

    def fact(
        self,
        note: Annotated[str, Field(description="The note the fact is about (person, "
                                   "project, agent...).")],
        attribute: Annotated[str, Field(description="A simple property name, e.g. "
                                        "'timezone', 'role', 'price'.")],
        value: Annotated[str, Field(description="The new value, one line.")],
        source: Source = None,
        confidence: Annotated[float | None, Field(ge=0, le=1, description="How sure, 0 to "
                                                  "1.")] = None,
        valid_from: Annotated[str | None, Field(description="Since when it holds, "
                                                "YYYY-MM-DD.")] = None,
        dry_run: DryRun = False,
        keep_links: KeepLinks = False,
        new_link: NewLink = False,
        link_mentions: LinkMentions = False,
        caller: Caller = LOCAL,
    ) -> str:
        """Set a fact on an entity note; the old value stays in its history."""
        writer = writing(caller, keep_links, new_link, link_mentions)
        with self.fresh(writer, reading=False) as vault:
            return self.written([facts.record_fact(vault, note, attribute, value, source=source,
                                                   confidence=confidence, valid_from=valid_from,
                                                   when=moment(), dry_run=dry_run,
                                                   caller=writer)])

    def decide(
        self,
        title: Annotated[str, Field(description="The decision as a short title, e.g. 'Use "
                                    "Surya OCR'.")],
        topic: Annotated[str, Field(description="What it is about, a stable key compared for "
                                    "conflicts, e.g. 'ocr-engine'.")],
        by: Annotated[str | None, Field(description="The person who decided.")] = None,
        supersedes: Annotated[str | None, Field(description="The earlier decision this one "
                                                "replaces (it is marked superseded).")] = None,
        rationale: Annotated[str | None, Field(description="Why, in one sentence.")] = None,
        status: Literal["proposed", "approved", "rejected"] = "proposed",
        alternatives: Annotated[list[str] | None, Field(description="Options not "
                                                        "taken.")] = None,
        body: Body = None,
        force: Force = False,
        dry_run: DryRun = False,
        keep_links: KeepLinks = False,
        new_link: NewLink = False,
        link_mentions: LinkMentions = False,
        caller: Caller = LOCAL,
    ) -> str:
        """Record a decision note."""
        writer = writing(caller, keep_links, new_link, link_mentions)
        with self.fresh(writer, reading=False) as vault:
            return self.written(entries.decide(vault, title, topic=topic, by=by,
                                               supersedes=supersedes, rationale=rationale,
                                               status=status, alternatives=alternatives or (),
                                               body=body, force=force, dry_run=dry_run,
                                               when=moment(), caller=writer))

    def lesson(
        self,
        title: Annotated[str, Field(description="'<Agent> - <lesson>', e.g. 'Rafael - Crop "
                                    "margins'.")],
        agent: Annotated[str | None, Field(description="The agent that learned it (an "
                                           "existing agent note); default: the agent this "
                                           "server's token writes as.")] = None,
        pattern_key: Annotated[str | None, Field(description="A stable key for the pattern, "
                                                 "e.g. 'ocr.margins'.")] = None,
        applies_to: Annotated[str | None, Field(description="The project or area it applies "
                                                "to.")] = None,
        source: Source = None,
        status: Literal["observing", "active", "confirmed"] = "observing",
        body: Annotated[str | None, Field(description="The rule, in Markdown; it goes under "
                                          "the note's ## Rule.")] = None,
        force: Force = False,
        dry_run: DryRun = False,
        keep_links: KeepLinks = False,
        new_link: NewLink = False,
        link_mentions: LinkMentions = False,
        caller: Caller = LOCAL,
    ) -> str:
        """Record a lesson note for an agent."""
        writer = writing(caller, keep_links, new_link, link_mentions)
        with self.fresh(writer, reading=False) as vault:
            return self.written([entries.lesson(vault, title, agent=agent,
                                                pattern_key=pattern_key,
                                                applies_to=applies_to, source=source,
                                                status=status, body=body, force=force,
                                                dry_run=dry_run, when=moment(),
                                                caller=writer)])

    def learn(
        self,
        kind: Literal["correction", "error", "request"],
        text: Annotated[str, Field(description="What happened or was asked, one or two "
                                   "sentences.")],
        pattern_key: Annotated[str, Field(description="What groups recurring entries, e.g. "
                                          "'ocr.currency-symbol'.")],
        context: Annotated[str | None, Field(description="What was going on.")] = None,
        action: Annotated[str | None, Field(description="What to do next time (the rule "
                                            "if promoted).")] = None,
        agent: Annotated[str | None, Field(description="The agent whose lesson a promotion "
                                           "goes to.")] = None,
        area: Annotated[str | None, Field(description="Promote into Lessons/<area>.md "
                                          "instead.")] = None,
        dry_run: DryRun = False,
        keep_links: KeepLinks = False,
        new_link: NewLink = False,
        link_mentions: LinkMentions = False,
        caller: Caller = LOCAL,
    ) -> str:
        """Log a correction, error or request; the third of a key becomes a lesson rule."""
        from ..curate.learn import learn

        writer = writing(caller, keep_links, new_link, link_mentions)
        with self.fresh(writer, reading=False) as vault:
            return self.written(learn(vault, kind, text, pattern_key=pattern_key, context=context,
                                      action=action, agent=agent, area=area, when=moment(),
                                      dry_run=dry_run, caller=writer))

    def now(
        self,
        action: Literal["set", "add", "done", "block", "unblock", "clear"],
        text: Annotated[str | None, Field(description="The task, priority, completion or "
                                          "blocker; for 'clear' the section (task, "
                                          "priorities, blockers, completions).")] = None,
        dry_run: DryRun = False,
        keep_links: KeepLinks = False,
        new_link: NewLink = False,
        link_mentions: LinkMentions = False,
        caller: Caller = LOCAL,
    ) -> str:
        """Change the NOW board."""
        writer = writing(caller, keep_links, new_link, link_mentions)
        with self.fresh(writer, reading=False) as vault:
            return self.written(journal.now_update(vault, action, text, when=moment(),
                                                   dry_run=dry_run, caller=writer))

    def check_links(
        self,
        text: Annotated[str, Field(description="The Markdown you are about to write.")],
        note: Annotated[str | None, Field(description="The note it goes to (its folder "
                                          "decides between notes of one name).")] = None,
        new_link: NewLink = False,
        link_mentions: LinkMentions = False,
        caller: Caller = LOCAL,
    ) -> str:
        """What the writing tools would do with the links of ``text``."""
        with self.fresh(caller) as vault:
            review = review_links(vault, text, source=vault.note(note).id if note else "",
                                  policy=LinkPolicy(new=new_link, mentions=link_mentions))
            return self.out(review_data(review))

    def rename(
        self,
        note: Annotated[str, Field(description="The note to rename or move.")],
        new: Annotated[str, Field(description="Its new name, path, or a folder ending in /.")],
        dry_run: FirstDry = True,
        caller: Caller = LOCAL,
    ) -> str:
        """Rename or move a note and write every link to it again (planned on the whole vault,
        so that a link outside the token's folders is never left behind: a change that would
        touch one is refused)."""
        with self.fresh(LOCAL, reading=False) as vault:
            return self.out(rename(vault, note, new, dry_run=dry_run, caller=caller,
                                   follows=context_follows(vault)).to_dict())

    def merge(
        self,
        keep: Annotated[str, Field(description="The note that stays.")],
        old: Annotated[str, Field(description="The note merged into it (then trashed).")],
        redirect: Annotated[bool, Field(description="True: leave old as a note saying where "
                                        "it went, not in the trash.")] = False,
        under: Annotated[str | None, Field(description="A heading of keep whose section gets "
                                           "old's text (default: the end of keep).")] = None,
        dry_run: FirstDry = True,
        caller: Caller = LOCAL,
    ) -> str:
        """Merge a note into another, every link to it reaching the one that stays (planned
        on the whole vault, as :meth:`rename` is)."""
        with self.fresh(LOCAL, reading=False) as vault:
            return self.out(merge(vault, keep, old, redirect=redirect, under=under,
                                  dry_run=dry_run, caller=caller).to_dict())
