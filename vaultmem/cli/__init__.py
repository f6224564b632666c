"""The ``vaultmem`` command line: a thin click layer over the library (only it imports click)."""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import click

from .. import __version__
from ..errors import VaultmemError, missing_dependency
from ..locations import hoisted
from ..secrets import redact, redact_data

if TYPE_CHECKING:
    from ..vault import Vault

BAR_MIN = 500


class Bar:
    """A click progress bar on stderr, shown only when a scan parses many files (or many
    passages are embedded)."""

    def __init__(self, label: str = "Parsing notes") -> None:
        self.bar: Any = None
        self.label = label

    def __call__(self, done: int, total: int) -> None:
        if total < BAR_MIN:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                         show_pos=True)  # counts, percent and time left
            self.bar.__enter__()
        self.bar.update(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


class Refused(click.ClickException):
    """A library error: not found, refused, findings (exit 1)."""

    exit_code = 1


class BadUsage(click.ClickException):
    """A library usage error: bad vault path or settings (exit 2)."""

    exit_code = 2


COMMANDS = {
    "scan": "read", "show": "read", "graph": "read", "lint": "read", "conventions": "read",
    "links": "read",
    "search": "recall", "related": "recall", "tune-related": "recall", "mentions": "recall",
    "index": "recall",
    "context": "recall",
    "sync": "recall",
    "new": "write", "daily": "write", "now": "write", "fact": "write", "decide": "write",
    "lesson": "write", "write": "write", "read": "write",
    "conflicts": "curate", "resolve": "curate", "ignore": "curate", "kpi": "curate",
    "stale": "life", "archive": "life", "forget": "life", "restore": "life", "trash": "life",
    "learn": "learning", "capture": "learning", "reflect": "learning",
    "watch": "live", "mcp": "live", "export": "exchange", "import": "exchange",
    "token": "access",
    "rename": "moves", "merge": "moves", "undo": "moves",
}


class Group(click.Group):
    """Loads a command's module on first use (so ``search`` starts fast) and turns library
    errors into one-line messages and exit codes, never tracebacks."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoisted(args))  # ``scan --vault X`` reads as it looks

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            importlib.import_module(f"{__name__}.{COMMANDS[name]}")
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except VaultmemError as exc:
            kind = BadUsage if exc.exit_code == 2 else Refused
            raise kind(str(exc)) from exc
        except OSError as exc:
            raise click.ClickException(f"{exc}; check the path and its permissions") from exc
        except ImportError as exc:  # a broken install, not a bug
            raise BadUsage(str(missing_dependency(exc))) from exc
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:  # a bug: one line for the user, the traceback on request
            if os.environ.get("VAULTMEM_DEBUG"):
                raise
            raise click.ClickException(
                f"internal error ({exc.__class__.__name__}: {exc}); please report it with the "
                "output of the same command run with VAULTMEM_DEBUG=1") from exc


def json_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json``: print exactly one JSON document to stdout."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON document instead of text.")(func)


def emit(data: Any, text: Callable[[Any], str], as_json: bool) -> None:
    """Print ``data`` as JSON or through its text renderer, credentials redacted."""
    if as_json:
        data = redact_data(data, secret_patterns())
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False))
    else:
        say(text(data))


def say(text: str, *, nl: bool = True) -> None:
    """Print vault-derived ``text`` to stdout with every credential redacted."""
    click.echo(redact(text, secret_patterns()), nl=nl)


def secret_patterns() -> Mapping[str, str] | None:
    """The opened vault's own secret patterns (None: only the built-in kinds)."""
    ctx = click.get_current_context(silent=True)
    opener = ctx.find_root().obj if ctx is not None else None
    return opener().config.secret_patterns if callable(opener) else None


def with_vault(func: Callable[..., Any]) -> Callable[..., Any]:
    """Pass the vault opened by the group (built once, on first use) as ``vault``."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        opener: Callable[[], Vault] = ctx.obj
        return func(opener(), *args, **kwargs)

    return wrapper


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--vault", "vault_path", metavar="PATH",
              help="Vault folder (default: $VAULTMEM_VAULT, else the nearest folder above the "
                   "current one holding .obsidian/ or .vaultmem/).")
@click.option("--no-cache", is_flag=True, help="Parse every file again; ignore the cache.")
@click.version_option(__version__, prog_name="vaultmem")
@click.pass_context
def cli(ctx: click.Context, vault_path: str | None, no_cache: bool) -> None:
    """Long-term memory for AI agents, kept in an Obsidian vault.

    \b
    Example:
      vaultmem --vault sample_vault scan
    """
    bar, embedding = Bar(), Bar("Embedding passages")
    ctx.call_on_close(bar.close)
    ctx.call_on_close(embedding.close)

    @functools.cache
    def opener() -> Vault:
        from ..vault import Vault  # the index code loads with a command, not for --version

        vault = Vault.discover(vault_path, use_cache=not no_cache, progress=bar)
        vault.embed_progress = embedding
        ctx.call_on_close(lambda: _tell(vault.notices))
        _ = vault.index
        bar.close()
        return vault

    ctx.obj = opener


def _tell(notices: list[str]) -> None:
    """Print what the user should know of how the answer was made, each once, on stderr."""
    for notice in dict.fromkeys(notices):
        click.echo(f"note: {notice}", err=True)


def main() -> None:
    """Console entry point."""
    cli(prog_name="vaultmem")


# What the reading commands a keeper runs load on first use (see vaultmem.launch.SERVED)
WARM = ("vaultmem.cli.read", "vaultmem.cli.recall", "vaultmem.cli.curate", "vaultmem.vault",
        "vaultmem.recall.context.build", "vaultmem.recall.related.notes", "vaultmem.check.conflicts",
        "vaultmem.check.duplicates", "vaultmem.check.linting", "vaultmem.generate.export")


def warm(vault: Vault) -> None:
    """Import what the reading commands load on first use, and make what their first query
    makes (compiled patterns, the credential rules): a keeper's forks then start warm. The open
    conflicts are not found here: a fork of a larger process starts slower, and a fork brings
    those kept in the index up to date itself."""
    for module in WARM:
        importlib.import_module(module)
    from ..recall.context.build import build_context
    from ..recall.search import search

    search(vault, "memory", limit=5)
    build_context(vault, query="memory")

