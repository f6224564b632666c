"""markdown-it-py plugin for Obsidian syntax: wikilinks, embeds, tags, inline fields, block ids.

The tokenizer, not a regex over raw text, decides what is code, math or a comment, so nothing in
those places becomes a link. Every token this plugin emits carries ``meta["offset"]``: the number
of newlines between the start of its inline block and the token, to turn into a file line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.ruler import RuleOptionsType
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline, image, link

FIELD_LINE = re.compile(r"[ \t]*(\*\*|__|\*|_)?([^\s:*_\[\]()`#>][^:\n\[\]()`]*?)\1?::(?=\s|$)")
FIELD_BRACKET = re.compile(r"[\[(]([^\s:*_\[\]()`][^:\n\[\]()`]*?)::")
BLOCK_ID = re.compile(r"\^([A-Za-z0-9-]+)[ \t]*(?=\n|\Z)")
# Only the characters a rule in use can start at (emphasis, entities and autolinks are off),
# plus "(" so that "(key:: value)" fields are seen; fewer stops mean longer text runs.
TERMINATORS = re.compile(r"[\n!#$%<\[\\\]^`]")
FIELD_TERMINATORS = re.compile(r"[\n!#$%<\[\\\]^`(]")
# An inline block without any of these holds nothing vaultmem collects; it is not tokenized.
TRIGGERS = ("[", "#", "^", "::")
SIZE = re.compile(r"\d+(x\d+)?")
LINKS_ONLY = re.compile(r"(?:[ \t]*!?\[\[[^\]\n]+\]\])+")
CLOSERS = {"[": "]", "(": ")"}


def obsidian_plugin(md: MarkdownIt) -> None:
    """Register the Obsidian inline and block rules on ``md``."""
    md.inline.ruler.at("text", text)
    md.inline.ruler.before("text", "obsidian", obsidian_inline)
    md.inline.ruler.at("link", _with_offset(link))
    md.inline.ruler.at("image", _with_offset(image))
    alt: RuleOptionsType = {"alt": ["paragraph", "blockquote", "list"]}
    md.block.ruler.before("table", "hidden_block", hidden_block, alt)
    md.block.ruler.disable("html_block")
    md.core.ruler.at("inline", inline_when_needed)


def make_parser() -> MarkdownIt:
    """A parser with only the rules vaultmem needs, plus the Obsidian plugin."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.disable(["emphasis", "entity", "autolink", "html_inline", "text_join", "balance_pairs",
                "fragments_join"])
    md.use(obsidian_plugin)
    return md


def _push(state: StateInline, kind: str, start: int, **meta: object) -> None:
    """Emit a token of ``kind`` for the source starting at ``start``."""
    token = state.push(kind, "", 0)
    token.content = state.src[start : state.pos]
    token.meta = {"offset": state.src.count("\n", 0, start), "pos": start, **meta}


InlineRule = Callable[[StateInline, bool], bool]


def _with_offset(rule: InlineRule) -> InlineRule:
    """Wrap markdown-it's link/image rule so its tokens know their line and source text."""

    def wrapped(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        if not silent:
            for token in state.tokens[count:]:
                if token.type in ("link_open", "image"):
                    token.meta = {"offset": state.src.count("\n", 0, start),
                                  "raw": state.src[start : state.pos]}
        return True

    return wrapped


def obsidian_inline(state: StateInline, silent: bool) -> bool:
    """Run the Obsidian rule that can start at the current character, if any.

    One dispatching rule instead of eight keeps markdown-it's per-character loop short.
    """
    pos, src = state.pos, state.src
    if (pos == 0 or src[pos - 1] in "\n]") and inline_field(state, silent):
        return True
    rules = DISPATCH.get(src[pos])
    return rules is not None and any(rule(state, silent) for rule in rules)


def text(state: StateInline, silent: bool) -> bool:
    """Plain text up to the next character some rule may start at."""
    stops = FIELD_TERMINATORS if state.env.get("fields") else TERMINATORS
    match = stops.search(state.src, state.pos, state.posMax)
    end = match.start() if match else state.posMax
    if end == state.pos:
        return False
    if not silent:
        state.pending += state.src[state.pos : end]
    state.pos = end
    return True


def wikilink(state: StateInline, silent: bool) -> bool:
    """``[[target#subpath|alias]]`` and ``![[embed|size]]``."""
    pos, src = state.pos, state.src
    embed = src.startswith("![[", pos)
    if not embed and not src.startswith("[[", pos):
        return False
    begin = pos + (3 if embed else 2)
    end = src.find("]]", begin)
    if end <= begin or "\n" in src[begin:end] or "[[" in src[begin:end]:
        return False
    if not silent:
        state.pos = end + 2
        _push(state, "wikilink", pos, embed=embed, inner=src[begin:end])
    state.pos = end + 2
    return True


def split_wikilink(inner: str, embed: bool) -> tuple[str, str, str | None, str | None]:
    """Split the inside of a wikilink into (target, subpath, alias, size).

    >>> split_wikilink("People/Bob#Role|Robert", False)
    ('People/Bob', '#Role', 'Robert', None)
    >>> split_wikilink("Diagram.png|300", True)
    ('Diagram.png', '', None, '300')
    """
    target, bar, alias = inner.replace("\\|", "|").partition("|")
    path, hash_, subpath = target.partition("#")
    size = None
    if bar and embed and SIZE.fullmatch(alias.strip()):
        size, alias = alias.strip(), ""
    return path.strip(), (hash_ + subpath).strip(), (alias if bar and alias else None), size


def _tag_char(ch: str) -> bool:
    """Letters, digits, ``_-/`` and non-punctuation Unicode may appear in a tag."""
    if ch.isalnum() or ch in "_-/":
        return True
    return ord(ch) > 127 and unicodedata.category(ch)[0] not in "PZC"


def obsidian_tag(state: StateInline, silent: bool) -> bool:
    """``#tag`` and ``#nested/tag`` after whitespace or at the start; not ``#1984``."""
    pos, src = state.pos, state.src
    if src[pos] != "#" or (pos > 0 and not src[pos - 1].isspace()):
        return False
    end = pos + 1
    while end < state.posMax and _tag_char(src[end]):
        end += 1
    name = src[pos + 1 : end]
    if not name or name.replace("/", "").isdigit() or all(c in "/-_" for c in name):
        return False
    if not silent:
        state.pos = end
        _push(state, "tag", pos, name=name)
    state.pos = end
    return True


def block_id(state: StateInline, silent: bool) -> bool:
    """``^block-id`` at the end of a line (of a block), after whitespace or alone."""
    pos, src = state.pos, state.src
    if src[pos] != "^" or (pos > 0 and not src[pos - 1].isspace()):
        return False
    match = BLOCK_ID.match(src, pos)
    if not match:
        return False
    if not silent:
        state.pos = match.end()
        _push(state, "block_id", pos, id=match.group(1))
    state.pos = match.end()
    return True


def _sanitize_key(raw: str) -> str:
    """Dataview's canonical field key: lower-case, formatting removed, spaces to ``-``.

    >>> _sanitize_key("Due Date")
    'due-date'
    """
    kept = "".join(c for c in raw.strip().lower() if c.isalnum() or c in " -_")
    return re.sub(r"\s+", "-", kept.strip())


def inline_field(state: StateInline, silent: bool) -> bool:
    """A field filling the rest of its line: ``key:: value``, or ``[[Entity]] key:: value``."""
    pos, src = state.pos, state.src
    line_start = src.rfind("\n", 0, pos) + 1
    after_links = src[pos - 1 : pos] == "]" and LINKS_ONLY.fullmatch(src, line_start, pos)
    if pos != line_start and not after_links:
        return False
    match = FIELD_LINE.match(src, pos)
    if not match:
        return False
    if not silent:
        line_end = src.find("\n", match.end())
        line_end = line_end if line_end >= 0 else len(src)
        value = src[match.end() : line_end]
        state.pos = match.end()
        raw_key = match.group(2).strip()
        _push(state, "field", pos, key=_sanitize_key(raw_key), raw_key=raw_key,
              value=value.strip(), end=line_end)
    state.pos = match.end()
    return True


def _closing(src: str, start: int, opener: str) -> int:
    """Index of the bracket closing ``src[start]`` on the same line, or -1."""
    depth, closer = 0, CLOSERS[opener]
    for index in range(start, len(src)):
        char = src[index]
        if char == "\n":
            return -1
        depth += (char == opener) - (char == closer)
        if depth == 0:
            return index
    return -1


def bracket_field(state: StateInline, silent: bool) -> bool:
    """A Dataview field inside a sentence: ``[key:: value]`` or ``(key:: value)``."""
    pos, src = state.pos, state.src
    if src[pos] not in CLOSERS or src.startswith("[[", pos):
        return False
    match = FIELD_BRACKET.match(src, pos)
    close = _closing(src, pos, src[pos]) if match else -1
    if not match or close < 0:
        return False
    if not silent:
        state.pos = match.end()
        raw_key = match.group(1).strip()
        value = src[match.end() : close].strip()
        _push(state, "field", pos, key=_sanitize_key(raw_key), raw_key=raw_key, value=value,
              end=close)
    state.pos = match.end()  # the value is parsed on, so links in it are found
    return True


def _skip_to(state: StateInline, start: int, opener: str, closer: str) -> bool:
    """Consume ``opener ... closer`` (or to the end when unclosed) as one hidden token."""
    src = state.src
    if not src.startswith(opener, start):
        return False
    close = src.find(closer, start + len(opener))
    state.pos = len(src) if close < 0 else close + len(closer)
    return True


def percent_comment(state: StateInline, silent: bool) -> bool:
    """Obsidian comments ``%%hidden%%``; an unclosed one hides the rest of the block."""
    return _skip_to(state, state.pos, "%%", "%%")


def html_comment(state: StateInline, silent: bool) -> bool:
    """HTML comments ``<!-- hidden -->`` inside a paragraph."""
    return _skip_to(state, state.pos, "<!--", "-->")


def math_inline(state: StateInline, silent: bool) -> bool:
    """``$inline math$`` and ``$$display math$$`` inside a paragraph."""
    pos, src = state.pos, state.src
    if src.startswith("$$", pos):
        close = src.find("$$", pos + 2)
        if close < 0:
            return False
        state.pos = close + 2
        return True
    if src[pos] != "$" or pos + 1 >= len(src) or src[pos + 1].isspace():
        return False
    close = pos + 1
    while (close := src.find("$", close + 1)) >= 0:
        if not src[close - 1].isspace() and not src[close + 1 : close + 2].isdigit():
            state.pos = close + 1
            return True
    return False


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
    if not first.startswith(opener):
        return False
    rest = first[len(opener) :]
    if opener == "%%" and closer in rest and not rest.rstrip().endswith(closer):
        return False  # `%% a %% text`: an inline comment in a paragraph
    last = start
    if closer not in rest:
        last += 1
        while last < end and closer not in _line(state, last):
            last += 1
    if not silent:
        state.line = min(last + 1, end)
        state.push(kind, "", 0).map = [start, state.line]
    return True


def inline_when_needed(state: StateCore) -> None:
    """markdown-it's core inline step, skipping blocks without any syntax vaultmem collects."""
    for token in state.tokens:
        if token.type == "inline":
            token.children = []
            content = token.content
            if any(trigger in content for trigger in TRIGGERS):
                state.env["fields"] = "::" in content
                state.md.inline.parse(content, state.md, state.env, token.children)


DISPATCH: dict[str, tuple[InlineRule, ...]] = {
    "[": (bracket_field, wikilink), "!": (wikilink,), "(": (bracket_field,),
    "#": (obsidian_tag,), "^": (block_id,), "%": (percent_comment,), "$": (math_inline,),
    "<": (html_comment,),
}
