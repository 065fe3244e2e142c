/**
 * One-shot commands that do not need MCP neither start the servers of mcp.json nor wait for them
 * (issue 37, item 4; docs/cli.md): with a stdio server configured, `schedule list`, `schedule add`
 * and `desktop enable APP` print their answer and exit within 2 s of it (they used to hang until killed).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliPath, cliScratch, requireBuiltCli } from '../helpers/cli'
import { EVERYTHING_SERVER } from '../helpers/mcp'

requireBuiltCli()
const scratch = cliScratch()

/** The built CLI, killed after `killAfterMs`; how long it took from spawn to exit and from its answer to exit. */
async function timedCli(args: string[], env: NodeJS.ProcessEnv, killAfterMs = 15_000) {
  const started = Date.now()
  const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let answeredAt = 0
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    answeredAt ||= Date.now()
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearTimeout(killer)
  const ended = Date.now()
  return { code, stdout, stderr, totalMs: ended - started, afterAnswerMs: answeredAt ? ended - answeredAt : Infinity }
}

function dataFolderWithStdioServer(): { env: NodeJS.ProcessEnv; marker: string; workspace: string } {
  scratch.root = mkdtempSync(join(tmpdir(), 'deskclaw-cli-exit-'))
  const home = join(scratch.root, 'home')
  const workspace = join(scratch.root, 'ws')
  mkdirSync(home)
  mkdirSync(workspace)
  const marker = join(scratch.root, 'server-started')
  // A real stdio server (server-everything) behind a shell that leaves a mark when it is started.
  const config = { mcpServers: { everything: { command: '/bin/sh', args: ['-c', `touch '${marker}'; exec '${process.execPath}' '${EVERYTHING_SERVER}' stdio`] } } }
  writeFileSync(join(home, 'mcp.json'), JSON.stringify(config, null, 2))
  return { env: { DESKCLAW_HOME: home }, marker, workspace }
}

describe('CLI commands exit with an MCP stdio server configured', () => {
  const cases: Array<[string, (workspace: string) => string[], RegExp]> = [
    ['schedule list', () => ['schedule', 'list'], /no scheduled tasks/],
    ['schedule add', (workspace) => ['schedule', 'add', '--name', 'daily', '--prompt', 'report', '--cron', '0 9 * * *', '--workspace', workspace], /^added task_/],
    ['desktop enable', () => ['desktop', 'enable', 'weixin'], /enabled/]
  ]
  for (const [name, argv, answer] of cases) {
    it(`${name} answers, starts no MCP server and exits within 2 s`, async () => {
      expect(existsSync(EVERYTHING_SERVER), 'server-everything is a devDependency').toBe(true)
      const { env, marker, workspace } = dataFolderWithStdioServer()
      const outcome = await timedCli(argv(workspace), env)
      console.log(`${name}: exit ${outcome.code} after ${outcome.totalMs} ms (${outcome.afterAnswerMs} ms after its answer)`)
      expect(outcome.stderr).toBe('')
      expect(outcome.stdout).toMatch(answer)
      expect(outcome.code).toBe(0)
      // From its answer, not from its start: starting takes seconds on a busy machine, the hang came after the answer.
      expect(outcome.afterAnswerMs).toBeLessThan(2_000)
      expect(existsSync(marker), 'the MCP server was not started').toBe(false)
    })
  }
})
