"""What a review of a text's links decides: the policy it follows, the links it writes
otherwise and the ones it refuses."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LinkChange:
    """A link written otherwise, on ``line`` (1-based, of the text given), and why."""

    line: int
    before: str
    after: str
    why: str


@dataclass(frozen=True)
class LinkProblem:
    """A link refused: why, and the notes it may mean, likeliest first."""

    line: int
    link: str
    why: str
    candidates: tuple[str, ...] = ()


@dataclass
class LinkReview:
    """A text's links once reviewed: the text to write, what changed, what is refused."""

    text: str
    changes: list[LinkChange] = field(default_factory=list)
    problems: list[LinkProblem] = field(default_factory=list)


