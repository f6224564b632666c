"""What the faces (the CLI, the MCP tools) share: the text a person reads of an answer."""
