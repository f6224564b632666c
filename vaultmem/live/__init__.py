"""Live access to a vault that changes while vaultmem runs: the watcher and the MCP server."""
