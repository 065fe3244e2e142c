/**
 * MCP servers as a dynamic tool source (docs/tools.md, "MCP servers"; docs/architecture.md,
 * "Adding a tool source"): `mcp.json` in the Claude Desktop shape, one connection per server over
 * stdio, streamable HTTP or SSE, tools named `mcp__<server>__<tool>`, results mapped to tool outputs.
 */
export { MCP_CONFIG_FILE, mcpConfigPath, readMcpConfig, transportOf, writeMcpConfig, type McpConfigFile, type McpTransportKind } from './config'
export { changeMcpServer, mcpBackupPath } from './config-write'
export { confirmMcpTrust, mcpTrustChanges, type McpTrustChange, type McpTrustConfirmer } from './confirm'
export { McpConnection, type McpCallOutcome } from './connection'
export { createMcpTool, isTrustedRead, MCP_TOOL_MESSAGES } from './mcp-tool'
export { mapCallResult } from './results'
export { McpService, mcpNamespace, type McpServiceOptions } from './service'
export { stdioServerEnv, type StdioEnvOptions } from './stdio-env'
