"""docread as other tools see it: the agent-tool call shared by the LangChain, LlamaIndex and MCP
tools, the MCP server (stdio and HTTP) and the Ray Data datasource."""
