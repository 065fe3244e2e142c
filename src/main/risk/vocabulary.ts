/**
 * The words the risk engine judges a call by (docs/risk.md, docs/architecture.md "Adding a tool"):
 * a tool declares its domain, its access and the kind of its subject in these terms, and rules
 * files match on them. They belong to risk; tools take them from here.
 */

/**
 * A tool's domain (docs/architecture.md, "Adding a tool"). Separate from its access: a screenshot
 * is `desktop` + `read`, a click `desktop` + `execute`.
 */
export const ToolCategories = ['fs', 'shell', 'network', 'desktop', 'hardware', 'memory', 'messaging', 'browser', 'mcp'] as const
export type ToolCategory = (typeof ToolCategories)[number]

/** What a call does to the world. Only `read` runs without asking in supervised mode and at all in readonly mode. */
export const ToolAccessLevels = ['read', 'write', 'execute'] as const
export type ToolAccess = (typeof ToolAccessLevels)[number]

/**
 * What the risk engine and rules match on (docs/risk.md): a command is analysed as a shell
 * command line, a path goes through the path guardian, the rest are matched as one token.
 */
export const RiskSubjectKinds = ['command', 'path', 'url', 'device', 'chat', 'server'] as const
export type RiskSubjectKind = (typeof RiskSubjectKinds)[number]

/**
 * The shell tool's name and the argument that holds its command line: what `deskclaw risk` and
 * rules files mean by "a shell command". The shell tool takes its name from here.
 */
export const SHELL_SUBJECT = { tool: 'shell', arg: 'command' } as const
