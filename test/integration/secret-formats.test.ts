import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine } from '../../src/main/risk'
import { credentialFormatOf, findSecretValues } from '../../src/main/secrets'
import { createFileTools, createSearchTools, riskSubjectOf, ToolRegistry, type ToolContext } from '../../src/main/tools'

/*
 * Secrets by content, not only by name (docs/risk.md, "Secrets"; issue 34 item 8): a generator over
 * every credential format × every reader — file_read's judgement, grep and glob as they run, `cat`
 * and git's remote-printing commands as the shell judgement sees them, and the provenance tracker's
 * API (findSecretValues) — each with a control of the same format holding no secret that must not
 * ask (and must be found by grep), so a reader that asks about every such file fails too.
 */

interface Format {
  name: string
  /** The name alone asks (its control is the `.example` copy). */
  byName?: boolean
  /** Where the file lives in the workspace. */
  path: string
  secret: string
  /** The secret file's text (holds `secret`). */
  holding: string
  /** The control: same format, same reader, no secret. */
  control: { path: string; text: string }
}

const FORMATS: Format[] = [
  {
    name: 'git remote URL with user info',
    path: '.git/config',
    secret: 'ghs_R7vQ2mXw9LtK4pZs8NcB1dHy6Fj3',
    holding: '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://x-access-token:ghs_R7vQ2mXw9LtK4pZs8NcB1dHy6Fj3@github.com/o/r.git\n',
    control: { path: '.git/config', text: '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://github.com/o/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n' }
  },
  {
    name: 'git http.extraheader',
    path: '.git/config',
    secret: 'eC1hY2Nlc3MtdG9rZW46Z2hzX3JlYWw=',
    holding: '[remote "origin"]\n\turl = https://github.com/o/r.git\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3JlYWw=\n',
    control: { path: '.git/config', text: '[remote "origin"]\n\turl = git@github.com:o/r.git\n[http]\n\tpostBuffer = 524288000\n' }
  },
  {
    name: '.npmrc _authToken',
    path: '.npmrc',
    secret: 'npm_Vb3kLq8Zr2Wx6Ty1Pm4Nc7Hs9Jd0Fg5Ae2Q',
    holding: 'registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=npm_Vb3kLq8Zr2Wx6Ty1Pm4Nc7Hs9Jd0Fg5Ae2Q\n',
    control: { path: '.npmrc', text: 'registry=https://registry.npmjs.org/\nsave-exact=true\nengine-strict=true\n' }
  },
  {
    name: '.npmrc private-registry token',
    path: 'packages/app/.npmrc',
    secret: 'corp-registry-4471-auth',
    holding: '@corp:registry=https://npm.corp.example/\n//npm.corp.example/:_authToken=corp-registry-4471-auth\n',
    control: { path: 'packages/app/.npmrc', text: '@corp:registry=https://npm.corp.example/\n' }
  },
  {
    name: '.yarnrc.yml npmAuthToken',
    path: '.yarnrc.yml',
    secret: 'yarn-tok-88f2a1c9d3',
    holding: 'nodeLinker: node-modules\nnpmScopes:\n  corp:\n    npmAuthToken: "yarn-tok-88f2a1c9d3"\n',
    control: { path: '.yarnrc.yml', text: 'nodeLinker: node-modules\nnpmRegistryServer: "https://registry.yarnpkg.com"\n' }
  },
  {
    name: '.pypirc password',
    path: '.pypirc',
    secret: 'pypi-AgEIcHlwaS5vcmcCJGE0ZDM3YzVhLWQ5ZjgtNDQ5ZC1hMDliLWI0NjM3ZjRmZjk0NwACKlsz',
    holding: '[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcCJGE0ZDM3YzVhLWQ5ZjgtNDQ5ZC1hMDliLWI0NjM3ZjRmZjk0NwACKlsz\n',
    control: { path: '.pypirc', text: '[distutils]\nindex-servers =\n    pypi\n[pypi]\nusername = __token__\n' }
  },
  {
    name: 'local.settings.json connection string',
    path: 'api/local.settings.json',
    secret: 'q8Zr2vLw0P+aa9XkT3mN7bV1cX5zR2==',
    holding: '{\n  "IsEncrypted": false,\n  "Values": {\n    "AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=q8Zr2vLw0P+aa9XkT3mN7bV1cX5zR2==;"\n  }\n}\n',
    control: { path: 'api/local.settings.json', text: '{\n  "IsEncrypted": false,\n  "Values": {\n    "FUNCTIONS_WORKER_RUNTIME": "node"\n  }\n}\n' }
  },
  {
    name: 'appsettings.json password',
    path: 'appsettings.Development.json',
    secret: 'Tr0ub4dor&3-dev-db',
    holding: '{ "ConnectionStrings": { "Db": "Server=db;User Id=app;Password=Tr0ub4dor&3-dev-db;" } }\n',
    control: { path: 'appsettings.Development.json', text: '{ "Logging": { "LogLevel": { "Default": "Information" } } }\n' }
  },
  {
    name: 'gcloud application default credentials',
    path: 'application_default_credentials.json',
    secret: '1//0gLq9Zr2Vw6Xk8TtPm4NcHs7Jd3Fg5Ae',
    holding: '{ "client_id": "x.apps.googleusercontent.com", "client_secret": "d-FL95Q19q7MQmFpd7hHD0Ty", "refresh_token": "1//0gLq9Zr2Vw6Xk8TtPm4NcHs7Jd3Fg5Ae", "type": "authorized_user" }\n',
    control: { path: 'application_default_credentials.json', text: '{ "type": "authorized_user", "quota_project_id": "demo-project" }\n' }
  },
  {
    name: 'azure token cache',
    path: 'accessTokens.json',
    secret: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL21hbmFnZW1lbnQifQ.c2lnbmF0dXJlLXZhbHVl',
    holding: '[{ "tokenType": "Bearer", "accessToken": "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL21hbmFnZW1lbnQifQ.c2lnbmF0dXJlLXZhbHVl" }]\n',
    control: { path: 'accessTokens.json', text: '[]\n' }
  },
  {
    name: 'GitHub token in source code',
    path: 'src/deploy.ts',
    secret: 'ghp_Zq8LmR2vT4xW6yB1nC3dF5gH7jK9pQ0sU2wE',
    holding: 'export const deployToken = "ghp_Zq8LmR2vT4xW6yB1nC3dF5gH7jK9pQ0sU2wE"\n',
    control: { path: 'src/deploy.ts', text: 'export const deployToken = process.env.DEPLOY_TOKEN\n' }
  },
  {
    name: 'AWS key in a script',
    path: 'scripts/upload.sh',
    secret: 'AKIAZ7QX4LM2PR8WT3NB',
    holding: '#!/bin/sh\nexport AWS_ACCESS_KEY_ID=AKIAZ7QX4LM2PR8WT3NB\naws s3 cp out s3://bucket/\n',
    control: { path: 'scripts/upload.sh', text: '#!/bin/sh\naws s3 cp out s3://bucket/\n' }
  },
  {
    name: 'private key pasted in notes',
    path: 'notes/deploy.md',
    secret: 'MIIEowIBAAKCAQEAr8ZqLm2vT4xW6yB1nC3dF5gH',
    holding: '# Deploy\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAr8ZqLm2vT4xW6yB1nC3dF5gH\n-----END RSA PRIVATE KEY-----\n',
    control: { path: 'notes/deploy.md', text: '# Deploy\nThe key is in the vault, see -----BEGIN PUBLIC KEY----- in the docs.\n' }
  },
  {
    name: 'Slack token in JSON',
    path: 'config/bot.json',
    secret: 'xoxb-2644817390-5523001772-Qm8Zr2Vw6Xk8TtPm4Nc',
    holding: '{ "slack": { "token": "xoxb-2644817390-5523001772-Qm8Zr2Vw6Xk8TtPm4Nc" } }\n',
    control: { path: 'config/bot.json', text: '{ "slack": { "channel": "#deploys" } }\n' }
  },
  // Names that hold secrets whatever they say: the control is the documented non-secret copy (`.example`).
  {
    name: '.env (by name)',
    byName: true,
    path: '.env',
    secret: 'sk-proj-4fQ9Lm2Zr8Wx6Ty1Pm4Nc7Hs9Jd',
    holding: 'OPENAI_API_KEY=sk-proj-4fQ9Lm2Zr8Wx6Ty1Pm4Nc7Hs9Jd\n',
    control: { path: '.env.example', text: 'OPENAI_API_KEY=\n' }
  },
  {
    name: '.netrc (by name)',
    byName: true,
    path: '.netrc',
    secret: 'hunter2-netrc-pass',
    holding: 'machine api.example.com login me password hunter2-netrc-pass\n',
    control: { path: 'netrc.example', text: 'machine api.example.com login me\n' }
  },
  {
    name: '.git-credentials (by name)',
    byName: true,
    path: '.git-credentials',
    secret: 'glpat-Xq8Lm2Zr4Wv6Tt1Pn3Kc',
    holding: 'https://me:glpat-Xq8Lm2Zr4Wv6Tt1Pn3Kc@gitlab.com\n',
    control: { path: '.git-credentials.example', text: 'https://gitlab.com\n' }
  }
]

let base: string
let home: string
let engine: RiskEngine
const tools = new ToolRegistry([createFileTools(), createSearchTools()])
const fileRead = createFileTools()
  .tools()
  .find((tool) => tool.name === 'file_read')!

function makeWorkspace(label: string, path: string, text: string): string {
  const workspace = join(base, label)
  mkdirSync(workspace, { recursive: true })
  if (path.startsWith('.git/')) execFileSync('git', ['init', '-q', workspace])
  mkdirSync(dirname(join(workspace, path)), { recursive: true })
  writeFileSync(join(workspace, path), text)
  return realpathSync(workspace)
}

function judgeRead(workspace: string, path: string) {
  return engine.assess({ tool: 'file_read', category: 'fs', access: 'read', subject: riskSubjectOf(fileRead, { path }) }, { workspace, autonomy: 'supervised' })
}

function judgeShell(workspace: string, command: string) {
  return engine.assessShell(command, { workspace, autonomy: 'supervised' })
}

async function run(workspace: string, tool: string, args: Record<string, unknown>) {
  const checked = tools.checkArgs(tool, args)
  if (!checked.ok) throw new Error(checked.error)
  const ctx: ToolContext = { workspace, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => undefined }
  return tools.execute(tool, checked.args, ctx)
}

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-secret-formats-')))
  home = join(base, 'home')
  mkdirSync(home)
  engine = await RiskEngine.create({ home })
})

afterAll(() => rmSync(base, { recursive: true, force: true }))

describe.each(FORMATS.map((format, i) => ({ ...format, i })))('$name', (format) => {
  let holding: string
  let control: string
  beforeAll(() => {
    holding = makeWorkspace(`f${format.i}-holding`, format.path, format.holding)
    control = makeWorkspace(`f${format.i}-control`, format.control.path, format.control.text)
  })

  it('the tracker API finds exactly the secret, and nothing in the control', () => {
    const spans = findSecretValues(format.holding, { path: format.path })
    expect(spans.some((s) => format.holding.slice(s.start, s.end).includes(format.secret))).toBe(true)
    expect(findSecretValues(format.control.text, { path: format.control.path })).toEqual([])
  })

  it('file_read asks; its control runs', () => {
    const judged = judgeRead(holding, format.path)
    expect(judged.verdict).toBe('ask')
    expect(judged.findings.some((f) => f.rule === 'path.secret-content' || f.rule === 'path.sensitive')).toBe(true)
    expect(judgeRead(control, format.control.path).verdict).toBe('allow')
  })

  it('cat asks; its control runs', () => {
    expect(judgeShell(holding, `cat ${format.path}`).verdict).toBe('ask')
    expect(judgeShell(control, `cat ${format.control.path}`).verdict).toBe('allow')
  })

  // A walk judged before the command runs looks into credential files only: a token in ordinary code
  // is the file tools' and grep's to catch (docs/risk.md, "Secrets", what this does not see).
  if (format.byName === true || credentialFormatOf(format.path) !== null) it('a recursive shell grep asks; its control runs', () => {
    expect(judgeShell(holding, 'grep -r a .').verdict).toBe('ask')
    expect(judgeShell(control, 'grep -r a .').verdict).toBe('allow')
  })

  it('grep never prints the secret; it finds the control', async () => {
    const found = await run(holding, 'grep', { pattern: '.', hidden: true })
    expect(found.forLlm).not.toContain(format.secret)
    const controlFound = await run(control, 'grep', { pattern: '.', hidden: true })
    if (!format.control.path.startsWith('.git/')) expect(controlFound.forLlm).toContain(`${format.control.path}:1:`)
    expect(controlFound.forLlm).not.toMatch(/hold secrets|secret redacted/)
  })

  it('glob lists names only', async () => {
    const listed = await run(holding, 'glob', { pattern: '**', hidden: true })
    expect(listed.forLlm).not.toContain(format.secret)
  })

  if (format.path === '.git/config') it('git remote -v and git config --get remote.origin.url ask; the control runs', () => {
    for (const command of ['git remote -v', 'git remote get-url origin', 'git config --get remote.origin.url', 'git config -l', 'cat .git/config']) {
      expect(judgeShell(holding, command).verdict, command).toBe('ask')
      expect(judgeShell(control, command).verdict, command).toBe('allow')
    }
    // What does not print the remote stays silent even with a credential in it.
    expect(judgeShell(holding, 'git status').verdict).toBe('allow')
  })
})
