/**
 * The shell tool's name and the argument that holds its command line: what `deskclaw risk` and
 * rules files mean by "a shell command". Kept apart from shell.ts so the risk engine can read it
 * without loading the tool.
 */
export const SHELL_SUBJECT = { tool: 'shell', arg: 'command' } as const
