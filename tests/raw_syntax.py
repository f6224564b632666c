"""What a context must not show an agent: Obsidian syntax left raw (used by test_context_real).

Each check looks at prose only: code (fenced blocks, inline code spans) and math (``$...$``,
``$$...$$``) may hold anything, so they are taken out first.
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it.common.html_re import attribute

from vaultmem.model import Note
from vaultmem.read.fences import split

FENCED = re.compile(r"^( *)(`{3,}|~{3,})[^\n]*\n.*?^\1\2[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
DISPLAY_MATH = re.compile(r"\$\$.+?\$\$", re.DOTALL)
INLINE_MATH = re.compile(r"\$(?=\S)[^$\n]*?(?<=\S)\$(?!\d)")
# CommonMark's open and close tags (markdown_it.common.html_re), for element names HTML knows:
# ``<T>`` in prose or ``a<b`` in math are no tags an author meant
ELEMENTS = (
    "a", "abbr", "address", "article", "aside", "audio", "b", "bdi", "bdo", "blockquote",
    "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup",
    "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption",
    "figure", "font", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header",
    "hr", "html", "i", "iframe", "img", "input", "ins", "kbd", "label", "legend", "li", "link",
    "main", "mark", "meta", "nav", "object", "ol", "optgroup", "option", "p", "picture", "pre",
    "q", "s", "samp", "script", "section", "select", "small", "source", "span", "strike",
    "strong", "style", "sub", "summary", "sup", "svg", "table", "tbody", "td", "template",
    "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "u", "ul", "var",
    "video", "wbr",
)
HTML_TAG = re.compile(rf"</?(?:{'|'.join(ELEMENTS)})(?:{attribute}*\s*/?>|\s*>)",
                      re.IGNORECASE)
FIELD = re.compile(r"\S::(?=\s|$)", re.MULTILINE)
LINK_MARK = re.compile(r"\[\[|\]\]")
IMAGE = re.compile(r"!\[[^\[\]\n]*\]\(")
MD_LINK = re.compile(r"\]\(<?([^()<>\s]*)>?\)")
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
CITE_LINK = re.compile(r"\[\[([^\[\]|#^]+)(#[^\[\]|]*)?\]\]")
LINK_CHARS = re.compile(r"[\s#|^:\[\]]+")  # what a heading link cannot hold (as lint reads it)


def prose(text: str) -> str:
    """``text`` without code and math (each replaced by a space, line breaks kept)."""
    for pattern in (FENCED, CODE_SPAN, DISPLAY_MATH, INLINE_MATH):
        text = pattern.sub(lambda m: " " + "\n" * m.group().count("\n"), text)
    return text


def raw_syntax(text: str) -> list[str]:
    """What ``text`` shows raw: embeds and images, HTML tags, Dataview fields, unbalanced or
    nested wikilinks, percent escapes in a link to a note."""
    shown = prose(text)
    found = []
    if "![[" in shown:
        found.append("embed ![[")
    found += [f"image {image.group()!r}" for image in IMAGE.finditer(shown)]
    found += [f"HTML {tag.group()}" for tag in HTML_TAG.finditer(shown)]
    found += [f"field {line.strip()!r}" for line in shown.split("\n") if FIELD.search(line)]
    found += [f"wikilinks {line!r}" for line in shown.split("\n") if not balanced(line)]
    for link in MD_LINK.finditer(shown):
        if not SCHEME.match(link.group(1)) and ESCAPE.search(link.group(1)):
            found.append(f"escaped link {link.group()!r}")
    for inner in re.findall(r"\[\[([^\[\]]*)\]\]", shown):
        if ESCAPE.search(inner) and not SCHEME.match(inner):
            found.append(f"escaped link [[{inner}]]")
    return found


def balanced(line: str) -> bool:
    """True when every ``[[`` of ``line`` closes before the next one opens (a ``]]`` that
    closes nothing is text: ``maze[x][dirs[d][0]][0]``)."""
    depth = 0
    for mark in LINK_MARK.findall(line):
        if mark == "[[" and depth:
            return False
        depth = 1 if mark == "[[" else 0
    return depth == 0


def frontmatter_lines(path: Path) -> list[str]:
    """The lines between a note file's frontmatter fences (stripped, empty ones left out)."""
    text = path.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff")
    lines = split(text.replace("\r\n", "\n"))[0] or []
    return [line.strip() for line in lines if line.strip()]


def yaml_lines(lines: list[str]) -> set[str]:
    """The frontmatter lines only YAML would write: a key with its value below (``key:``), a
    list item (``- "[[Books]]"``, also without its ``- ``), a value with quotes or brackets."""
    found = set()
    for line in lines:
        item = line.removeprefix("- ").strip()
        if line.endswith(":") or re.search(r"""["'\[\]{}]""", line):
            found.add(line)
        if line.startswith("- ") and re.search(r"""["'\[\]{}]""", item):
            found.add(item)
    return found


def shows_frontmatter(text: str, yaml: set[str]) -> list[str]:
    """The lines of ``text`` (code and math aside) that are a ``---`` fence or a frontmatter
    line as YAML wrote it."""
    found = []
    for line in prose(text).split("\n"):
        bare = line.strip().removeprefix("- ").strip()
        if bare == "---" or bare in yaml or line.strip() in yaml:
            found.append(f"frontmatter {line.strip()!r}")
    return found


def heading_key(text: str) -> str:
    """A heading as a link names it: characters links cannot hold made spaces, case aside."""
    return LINK_CHARS.sub(" ", text).strip().casefold()


def bad_citation(cite: str, note: Note) -> str | None:
    """Why ``cite`` (``[[id]]``, ``[[id#Heading]]``, ``[[id#^block]]``) is no valid link to
    ``note``, or None."""
    match = CITE_LINK.fullmatch(cite)
    if match is None:
        return f"citation {cite!r} is no wikilink"
    target, subpath = match.group(1), (match.group(2) or "")[1:]
    if target != note.id:
        return f"citation {cite!r} is not to {note.id}"
    if subpath.startswith("^"):
        ok = subpath[1:] in {block.id for block in note.block_ids}
    else:
        ok = not subpath or heading_key(subpath) in {heading_key(h.text) for h in note.headings}
    return None if ok and "^" not in subpath[1:] else f"citation {cite!r}: no such place"
