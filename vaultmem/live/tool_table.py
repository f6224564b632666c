"""The MCP tools in one table: what each does, for the agent that calls it and for people,
the command that answers the same, and whether it writes. The server registers the tools from
it, ``mcp --help`` names them from it and docs/mcp.md shows :func:`docs_table` (a test checks
that the page shows it as it is)."""

from __future__ import annotations

from typing import NamedTuple


class ToolInfo(NamedTuple):
    """One MCP tool: a line for people, the CLI command answering the same, the description
    an agent reads, and whether it writes."""

    summary: str
    same_as: str
    description: str
    writes: bool = False


TOOLS: dict[str, ToolInfo] = {
    "context": ToolInfo(
        "the agent's memory for a task, within a token budget",
        "context",
        (
            "Build your memory for a task: core memory, the NOW board, the agent's rules and "
            "lessons, entries relevant to the query or note, recent decisions, KPIs, people, recent"
            " activity and open conflicts, within a token budget, as Markdown where each item cites"
            " its source note. Call it at the start of a session and whenever the task changes. "
            "Give `agent` (your agent note's name) and `query` (what you are doing); `note` focuses"
            " on one note. Only the passages that answer best are shown, the notes of others named;"
            " `fill` shows every passage found, as far as the budget goes."
        ),
    ),
    "search": ToolInfo(
        "ranked notes for words, names or a question, with filters",
        "search --json",
        (
            "Find notes by words (any word form), names (typos forgiven) and links around the best "
            "hits. Use it to look up people, projects, decisions, facts or past events before "
            "answering. Returns compact JSON: results with id, path, title, type, score, line and "
            "the best-matching snippet. Filters narrow by type, tag, status, date or folder."
        ),
    ),
    "show": ToolInfo(
        "one note: properties, links, backlinks, then its text",
        "show --text",
        (
            "Read one note: its type, properties, tags, headings, tasks, outgoing links and "
            "backlinks, then (content=true) its Markdown text. Use it after search or context to "
            "read the whole note. An unknown name fails with 'did you mean' suggestions."
        ),
    ),
    "related": ToolInfo(
        "notes around one note, with reasons",
        "related --json",
        (
            "Notes related to one note through direct links, shared neighbours (people, projects, "
            "agents), shared tags, similar text and recency. Use it to explore around a note you "
            "found. Returns compact JSON: results with id, type, score and reasons."
        ),
    ),
    "mentions": ToolInfo(
        "other notes that write a note's name without linking it, with the link to add",
        "mentions --json",
        (
            "Unlinked mentions of one note: other notes that write its title or an alias as plain "
            "words, not linked. Use it to find what else talks about a note, or to link those "
            "words. Returns compact JSON: results with id, line, words, the line's text and `edit`,"
            " the link that would replace the words (e.g. [[Lucy Tan|Lucy]])."
        ),
    ),
    "conflicts": ToolInfo(
        "contradicting memory",
        "conflicts --json",
        (
            "Memory that contradicts itself: different values of one fact, competing decisions on "
            "one topic, superseded entries still marked active, duplicates, alias clashes, expired "
            "facts still cited. Check it before relying on a fact that matters; ask the user to "
            "settle a conflict. Returns compact JSON: findings with kind, id, message, suggestion."
        ),
    ),
    "check_links": ToolInfo(
        "what a write would do with a text's `[[links]]`, writing nothing",
        "links --check --json",
        (
            "Check the [[links]] of a text before writing it (writes nothing): returns the text as "
            "the writing tools would write it (an alias as [[Note|Alias]], a name as the note "
            "spells it), each change with why, and the links they would refuse with the notes meant"
            " (`refused[].candidates`). The writing tools do the same on every write; "
            "keep_links=true writes links as given, new_link=true keeps a link to a note to be."
        ),
    ),
    "daily": ToolInfo(
        "append a timestamped entry to today's note",
        "daily",
        (
            "Append a timestamped entry (### HH:MM — title) to today's daily note, creating it from"
            " the template if needed. Use it to log what you did, learned or were told. Returns "
            "compact JSON of what was written."
        ),
        writes=True,
    ),
    "fact": ToolInfo(
        "record an attribute's value of a `note`, keeping the old one in History",
        "fact",
        (
            "Record the current value of an attribute of an entity note (person, project, agent, "
            "...), e.g. Lucy Tan's timezone. The previous value is kept in the note's ## History "
            "with its version. Use it when you learn a fact that changes or adds to memory."
        ),
        writes=True,
    ),
    "decide": ToolInfo(
        "a new decision note",
        "decide",
        (
            "Record a decision as a decision note (topic, who decided, rationale, alternatives). "
            "`supersedes` marks an earlier decision superseded. Use it when a decision is made, not"
            " for ideas. Refused if a similar note exists unless force=true."
        ),
        writes=True,
    ),
    "lesson": ToolInfo(
        "a new lesson note of an agent",
        "lesson",
        (
            "Record a lesson an agent learned, as a lesson note linked to the agent. Prefer `learn`"
            " for single events: it counts recurrences and promotes a pattern to a lesson itself."
        ),
        writes=True,
    ),
    "learn": ToolInfo(
        "log a correction, error or request; three of a key make a rule",
        "learn",
        (
            "Log a correction you received, an error you hit or a feature request, under a pattern "
            "key. The third entry of the same key is promoted to a confirmed lesson rule. Use it "
            "whenever the user corrects you or something fails."
        ),
        writes=True,
    ),
    "now": ToolInfo(
        "set, add, done, block, unblock, clear on NOW.md",
        "now",
        (
            "Update NOW.md, the board of current work: set the current task, add a priority, mark "
            "something done (also logged in today's daily note), block or unblock, or clear a "
            "section. Keep it true as your work moves on."
        ),
        writes=True,
    ),
    "rename": ToolInfo(
        "rename or move a note, every link to it written again",
        "rename --json",
        (
            "Rename or move a note (new: a name, a path, or a folder ending in /) and rewrite "
            "every link to it as Obsidian would, each still showing what it showed. Dry run by "
            "default: read the diff, then call again with dry_run=false. Your token must cover "
            "every note it touches. `vaultmem undo` puts it back."
        ),
        writes=True,
    ),
    "merge": ToolInfo(
        "merge a duplicate note into another, nothing lost",
        "merge --json",
        (
            "Merge note `old` into note `keep`: aliases, tags and list properties joined, old's "
            "title an alias, its body under a heading, properties that disagree kept both ways "
            "(conflicts shows them), every link to old reaching keep; old goes to the trash. Dry "
            "run by default: read the diff, then call again with dry_run=false."
        ),
        writes=True,
    ),
}
READ_TOOLS = tuple(name for name, tool in TOOLS.items() if not tool.writes)
WRITE_TOOLS = tuple(name for name, tool in TOOLS.items() if tool.writes)


def help_line() -> str:
    """The tools as ``mcp --help`` names them.

    >>> help_line()[:30]
    'Tools: context, search, show, '
    """
    return (f"Tools: {', '.join(READ_TOOLS)}, and (unless --read-only) "
            f"{', '.join(WRITE_TOOLS)}.")


def docs_table() -> str:
    """The tools as docs/mcp.md shows them: a Markdown table."""
    rows = ["| tool | what it does | same as |", "| --- | --- | --- |"]
    rows += [f"| `{name}` | {tool.summary} | `{tool.same_as}` |" for name, tool in TOOLS.items()]
    return "\n".join(rows) + "\n"
