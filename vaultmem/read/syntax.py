"""markdown-it-py plugin for Obsidian syntax: the parser, block rules and the core step.

The tokenizer, not a regex over raw text, decides what is code, math or a comment, so nothing in
those places becomes a link. Every token the inline rules (:mod:`.inline`) emit carries
``meta["offset"]``: the number of newlines between the start of its block and the token.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.ruler import RuleOptionsType
from markdown_it.rules_block import StateBlock, blockquote, list_block, paragraph, reference
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import image, link
from markdown_it.token import Token
from markdown_it.utils import EnvType

from .inline import BLOCK_ID, obsidian_inline, text, with_offset
from .plain_inline import plain_children
from .plain_lines import hidden_opener

# An inline block without any of these holds nothing vaultmem collects; it is not tokenized.
TRIGGERS = ("[", "#", "^", "::")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
MAX_NESTING = 200
DEEP = MAX_NESTING - 10  # past this block level, list and quote markers are plain text


def obsidian_plugin(md: MarkdownIt, plain: bool = True) -> None:
    """Register the Obsidian inline and block rules on ``md`` (``plain``: see
    :func:`make_parser`)."""
    md.inline.ruler.at("text", text)
    md.inline.ruler.before("text", "obsidian", obsidian_inline)
    md.inline.ruler.at("link", with_offset(link))
    md.inline.ruler.at("image", with_offset(image))
    alt: RuleOptionsType = {"alt": ["paragraph", "blockquote", "list"]}
    md.block.ruler.before("table", "hidden_block", hidden_block, alt)
    md.block.ruler.before("table", "too_deep", too_deep)
    md.block.ruler.disable("html_block")
    md.block.ruler.at("reference", not_a_footnote)
    md.core.ruler.at("inline", inline_when_needed if plain else _inline_by_rules)


def make_parser(*, plain: bool = True) -> MarkdownIt:
    """A parser with only the rules vaultmem needs, plus the Obsidian plugin; ``plain=False``
    runs markdown-it's inline rules on every block, even one :mod:`.plain_inline` reads (the
    reference that module is tested against)."""
    md = MarkdownIt("commonmark", {"html": False, "maxNesting": MAX_NESTING}).enable("table")
    md.disable(["emphasis", "entity", "autolink", "html_inline", "text_join", "balance_pairs",
                "fragments_join"])
    md.use(obsidian_plugin, plain)
    return md


def _line(state: StateBlock, line: int) -> str:
    """The text of ``line`` after its indentation."""
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


HIDDEN = {"%": ("%%", "%%", "comment_block"), "$": ("$$", "$$", "math_block"),
          "<": ("<!--", "-->", "html_comment")}


def hidden_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A block whose content is never indexed: ``%%`` comment, ``$$`` math, HTML comment.

    It runs from a line starting with the opener to the next line holding the closer (or the end).
    """
    first_at = state.bMarks[start] + state.tShift[start]
    spec = HIDDEN.get(state.src[first_at : first_at + 1])
    if spec is None or state.sCount[start] - state.blkIndent >= 4:
        return False
    opener, closer, kind = spec
    first = _line(state, start)
    if not hidden_opener(first):
        return False  # not the opener, or `%% a %% text`: an inline comment in a paragraph
    rest = first[len(opener) :]
    last = start
    if closer not in rest:
        last += 1
        while last < end and closer not in _line(state, last):
            last += 1
    if not silent:
        state.line = min(last + 1, end)
        token = state.push(kind, "", 0)
        token.map = [start, state.line]
        if kind == "math_block" and last < end:  # Obsidian's id after display math: `$$ ^id`
            token.meta = closing_block_id(_line(state, last), closer, last - start)
    return True


def closing_block_id(line: str, closer: str, offset: int) -> dict[str, object]:
    """``{"id": ..., "offset": ...}`` when the closing line of a block ends in ``^id`` after its
    closer (``$$ x = 1 $$ ^eq1``), else nothing."""
    after = line[line.rindex(closer) + len(closer):] if closer in line else ""
    found = BLOCK_ID.match(after.strip() + "\n")
    return {"id": found.group(1), "offset": offset} if found and after[:1].isspace() else {}


def not_a_footnote(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it's link reference definition, except ``[^label]:``, which Obsidian always
    reads as a footnote (``[^1]:文本`` would otherwise define a link to ``文本``)."""
    first_at = state.bMarks[start] + state.tShift[start]
    if state.src.startswith("[^", first_at):
        return False
    return reference(state, start, end, silent)


def too_deep(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A list or quote opening past ``DEEP`` levels is read as a paragraph: at ``maxNesting``
    markdown-it would drop everything after it to the end of the note."""
    if state.level < DEEP or not (blockquote(state, start, end, True)
                                  or list_block(state, start, end, True)):
        return False
    return paragraph(state, start, end, silent)


def inline_when_needed(state: StateCore) -> None:
    """markdown-it's core inline step, as :func:`fill_inline` does it."""
    fill_inline(state.tokens, state.md, state.env)


def _inline_by_rules(state: StateCore) -> None:
    """:func:`inline_when_needed` with every block read by markdown-it's inline rules."""
    fill_inline(state.tokens, state.md, state.env, plain=False)


def fill_inline(tokens: list[Token], md: MarkdownIt, env: EnvType, plain: bool = True
                ) -> list[Token]:
    """Give each inline token of ``tokens`` its children (returned), skipping blocks without
    any syntax vaultmem collects; a block of only text, wikilinks, tags, block ids, fields,
    code spans and escapes is read by :func:`.plain_inline.plain_children`, any other by
    ``md``'s inline rules (every block when ``plain`` is false).

    A ``%%`` comment opened in one block and closed in a later one hides everything between:
    blocks inside it are not parsed, and the closing block is parsed after its ``%%``.
    """
    open_comment = False
    for token in tokens:
        if token.type != "inline":
            continue
        token.children = []
        content = token.content
        if open_comment:
            close = content.find("%%")
            if close < 0:
                continue
            content = re.sub(r"[^\n]", " ", content[: close + 2]) + content[close + 2 :]
        open_comment = _opens_comment(content)
        if any(trigger in content for trigger in TRIGGERS):
            children = plain_children(content, "references" in env) if plain else None
            if children is not None:
                token.children = children
                continue
            env["fields"] = "::" in content
            md.inline.parse(content, md, env, token.children)
    return tokens


def _opens_comment(content: str) -> bool:
    """True when the block leaves a ``%%`` comment open (an odd number outside code spans)."""
    return "%%" in content and CODE_SPAN.sub("", content).count("%%") % 2 == 1
