"""``vaultmem mcp``: the vault's memory as Model Context Protocol tools over stdio."""

from __future__ import annotations

import contextlib
import inspect
import typing
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..access_tokens import Grant
from ..caller import LOCAL, Caller
from ..errors import MissingExtra
from ..vault import Vault
from .forked import CommandLine
from .http_gate import Limits, grant_of_request
from .keeper import IndexKeeper
from .mcp_tools import busy
from .mcp_write import WriteTools
from .tool_table import READ_TOOLS, TOOLS, WRITE_TOOLS

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from pydantic import ValidationError

    from .tool_pool import ToolPool

INSTRUCTIONS = (
    "Long-term memory kept in an Obsidian vault that people edit too. Call `context` at the "
    "start of a task, `search`/`show`/`related` to look things up, and the writing tools to "
    "remember what happened (`daily`), facts, decisions, lessons and the current task (`now`). "
    "Results cite notes as [[wikilinks]]; every call sees the files as they are now."
)



def build_server(vault: Vault, *, read_only: bool = False, watch: bool = True,
                 limits: Limits | None = None, pool: ToolPool | None = None) -> MCPServer:
    """The MCP server for ``vault``; with ``read_only`` no writing tool is offered; with
    ``watch`` files are read again only when the system reports a change (where it can); with
    ``limits`` (over HTTP) each call is held to them and to its token's scope; with ``pool``
    the calls are answered by its worker processes, else in this one."""
    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError as exc:
        raise MissingExtra("mcp needs the MCP SDK 2.x: pip install 'vaultmem[mcp]'") from exc
    server: MCPServer = _guarded(MCPServer, limits)("vaultmem", version=__version__,
                                                    instructions=INSTRUCTIONS,
                                                    log_level="WARNING")
    tools = WriteTools(Vault(vault.root, config=vault.config, use_cache=vault.use_cache),
                       watch=watch and pool is None,  # with a pool: for the signatures only
                       call_wait=limits.call_wait if limits else None,
                       call_seconds=limits.call_seconds if limits else None)
    offered = {name: tool.description for name, tool in TOOLS.items()
               if not (read_only and tool.writes)}
    for name, description in offered.items():
        tool = getattr(tools, name) if pool is None else \
            pool.tool(name, getattr(tools, name), reading=name in READ_TOOLS)
        _add(server, called_by_request(tool), name, description, read_only=name in READ_TOOLS)
    return server


def _guarded(base: type[MCPServer], limits: Limits | None) -> type[MCPServer]:
    """``base`` whose tools answer arguments that fail validation with the plain reason
    (``limit: Input should be greater than or equal to 1``), without pydantic's model name,
    input echo and documentation links; over HTTP, each call runs with its token's grant,
    within ``limits``, and a read token neither sees nor calls the writing tools."""
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    turns = TokenTurns(limits)

    class Guarded(base):  # type: ignore[misc,valid-type]
        """The MCP server with plain argument errors and the calls' grants."""

        async def call_tool(self, name: str, arguments: dict[str, Any],
                            context: Any = None) -> Any:
            """Call a tool; a validation error's text is replaced by its plain reasons."""
            grant = grant_of_request(_request_of(context))
            if grant is not None and limits is not None:
                refusal = call_refusal(name, arguments, grant.scope, grant.name, limits)
                if refusal:
                    raise ToolError(refusal)
            try:
                async with turns.of(grant):
                    return await super().call_tool(name, arguments, context)
            except ToolError as exc:
                if not isinstance(exc.__cause__, ValidationError):
                    raise
                # the cause is kept: the SDK logs the rejected fields' names from it
                raise ToolError(f"Error executing tool {name}: {plain(exc.__cause__)}") \
                    from exc.__cause__

        async def _handle_list_tools(self, ctx: Any, params: Any) -> Any:
            """The tools this caller may call: a read token's list has no writing tool."""
            listed = await super()._handle_list_tools(ctx, params)
            grant = grant_of_request(getattr(ctx, "request", None))
            if grant is not None and not grant.may_write:
                listed.tools = [tool for tool in listed.tools if tool.name not in WRITE_TOOLS]
            return listed

    return Guarded


def called_by_request(tool: Callable[..., str]) -> Callable[..., str]:
    """``tool`` as the SDK registers and calls it: the same arguments, and the SDK's context
    of the call in place of ``caller``, which is made from the call's HTTP request (its token's
    grant) or, over stdio, is the vault's own user; no argument can name a caller."""
    from mcp.server.mcpserver import Context

    def call(ctx: Context, **arguments: Any) -> str:
        return tool(**arguments, caller=caller_of(grant_of_request(_request_of(ctx))))

    hints = {k: v for k, v in typing.get_type_hints(tool, include_extras=True).items()
             if k != "caller"}
    shown = inspect.signature(tool)
    kept = [p.replace(annotation=hints[p.name]) for p in shown.parameters.values()
            if p.name != "caller"]
    ctx = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)
    call.__signature__ = shown.replace(parameters=[*kept, ctx])  # type: ignore[attr-defined]
    call.__annotations__ = {**hints, "ctx": Context}
    call.__name__, call.__doc__ = tool.__name__, tool.__doc__
    return call


def caller_of(grant: Grant | None) -> Caller:
    """The caller of a tool call: its token's, or the vault's own user (stdio, or a loopback
    server without tokens)."""
    return LOCAL if grant is None else grant.as_caller()


class TokenTurns:
    """Each token's calls take turns: at most ``limits.token_calls`` of one token run at once
    (the others wait, at most ``limits.call_wait`` seconds), so one token sending many heavy
    calls at once leaves the server's other workers to other tokens."""

    def __init__(self, limits: Limits | None) -> None:
        self.limits = limits
        self.by_token: dict[str, Any] = {}  # token name: its anyio.Semaphore

    @contextlib.asynccontextmanager
    async def of(self, grant: Grant | None) -> AsyncIterator[None]:
        """A turn for a call of ``grant``'s token (none needed over stdio or without limits)."""
        if grant is None or self.limits is None:
            yield
            return
        import anyio

        turn = self.by_token.setdefault(grant.name, anyio.Semaphore(self.limits.token_calls))
        with anyio.move_on_after(self.limits.call_wait) as waited:
            await turn.acquire()
        if waited.cancelled_caught:
            raise busy(self.limits.call_wait)
        try:
            yield
        finally:
            turn.release()


def _request_of(context: Any) -> Any:
    """The HTTP request a tool call came in (None over stdio)."""
    try:
        return context.request_context.request
    except (AttributeError, ValueError):
        return None


def call_refusal(name: str, arguments: dict[str, Any], scope: str, token: str,
                 limits: Limits) -> str | None:
    """Why a call over HTTP is refused (a read token calling a writing tool, a limit asked
    above the server's), or None.

    >>> call_refusal("search", {"limit": 500}, "read", "ci", Limits(results=100))
    "limit 500 is above this server's 100 results per call; ask for 100 or fewer"
    """
    if name in WRITE_TOOLS and scope != "write":
        return (f"token {token!r} may only read, and {name} writes; a token for writing is "
                "made with: vaultmem token add NAME --scope write")
    for key, most, what in (("limit", limits.results, "results per call"),
                            ("budget", limits.budget, "tokens of context")):
        asked = arguments.get(key)
        if isinstance(asked, int) and asked > most:
            return f"{key} {asked} is above this server's {most} {what}; ask for {most} or fewer"
    return None


def plain(error: ValidationError) -> str:
    """Each failed argument and why, e.g. ``limit: Input should be greater than or equal to 1``."""
    reasons = [f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}"
               for item in error.errors(include_url=False, include_input=False)]
    return "; ".join(reasons) + "; fix the arguments and call again"


def _add(server: MCPServer, fn: Callable[..., str], name: str, description: str, *,
         read_only: bool) -> None:
    """Register one tool with text output and hints of what it touches."""
    from mcp_types import ToolAnnotations

    hints = ToolAnnotations(read_only_hint=read_only, destructive_hint=False,
                            idempotent_hint=read_only, open_world_hint=False)
    server.add_tool(fn, name=name, description=description, annotations=hints,
                    structured_output=False)


def serve(vault: Vault, *, read_only: bool = False, watch: bool = True,
          command_line: CommandLine | None = None) -> None:
    """Serve ``vault`` over stdio until the client closes the connection; while it runs (with
    ``watch``) it keeps the index current for other vaultmem processes too."""
    server = build_server(vault, read_only=read_only, watch=watch)
    keeper = IndexKeeper(vault, command_line=command_line) if watch else None
    if keeper is not None:
        keeper.start()  # another process keeping it already is fine
    try:
        server.run("stdio")
    finally:
        if keeper is not None:
            keeper.close()
