/**
 * Settings, "MCP servers" (docs/tools.md, "MCP servers"): the servers of mcp.json in the data
 * folder — add one by pasting its entry (or a whole Claude Desktop / Cursor file), edit, remove,
 * turn on and off, restart; each with its state, its tools (which run without asking) and its log.
 * Saved at once through `mcp.save` / `mcp.remove`, not by the form's Save button: the file is its own.
 */
import { useCallback, useEffect, useId, useState } from 'react'
import type { McpOverview, McpServerConfig, McpServerStatus } from '../../../../shared/bridge'
import type { AppErrorShape } from '../../../../shared/errors'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { AlertIcon, Spinner } from '../common'

/** The section's own texts (en, zh-CN); a server's own words (errors, log lines, tool descriptions) are shown as they are. */
const TEXTS = {
  en: {
    title: 'MCP servers',
    intro: 'Tools from MCP servers, named mcp__server__tool. Paste an entry from Claude Desktop or Cursor, or their whole mcp.json. Every MCP tool asks before it runs unless you allow it here.',
    file: 'File: {file}',
    loading: 'Reading the MCP servers…',
    none: 'No MCP servers yet.',
    add: 'Add a server',
    edit: 'Edit',
    remove: 'Remove',
    restart: 'Restart',
    save: 'Save server',
    cancel: 'Cancel',
    name: 'Name',
    nameHint: 'Letters, digits, ".", "_" and "-"; tools are called mcp__name__tool.',
    entry: 'Entry (JSON)',
    entryHint: '{ "command": "npx", "args": [...], "env": {...} } or { "url": "https://…/mcp", "headers": {...} } — or a whole file with "mcpServers".',
    notJson: 'This is not JSON: {message}',
    noName: 'Give the server a name.',
    enabled: 'On',
    disabled: 'Off',
    enable: 'Use the MCP server {server}',
    trustHints: 'Trust this server’s read-only hints (such tools run without asking, also in read-only mode)',
    allowAll: 'Run all of its tools without asking',
    allowTool: 'Run without asking',
    tools: 'Tools ({count})',
    log: 'Log',
    emptyLog: '(nothing yet)',
    starts: 'started {count} times',
    problems: 'Problems in the file:',
    failed: 'Could not change the MCP servers: {message}',
    confirmRemove: 'Remove the MCP server "{server}" from mcp.json?',
    'state.disabled': 'off',
    'state.stopped': 'stopped',
    'state.connecting': 'connecting',
    'state.ready': 'ready',
    'state.failed': 'failed',
    read: 'read',
    asks: 'asks',
    allowed: 'allowed'
  },
  'zh-CN': {
    title: 'MCP 服务器',
    intro: '来自 MCP 服务器的工具，名为 mcp__服务器__工具。可粘贴 Claude Desktop 或 Cursor 中的条目，或整个 mcp.json。除非在此允许，每个 MCP 工具运行前都会询问。',
    file: '文件：{file}',
    loading: '正在读取 MCP 服务器…',
    none: '还没有 MCP 服务器。',
    add: '添加服务器',
    edit: '编辑',
    remove: '删除',
    restart: '重启',
    save: '保存服务器',
    cancel: '取消',
    name: '名称',
    nameHint: '字母、数字、“.”、“_”和“-”；工具名为 mcp__名称__工具。',
    entry: '条目（JSON）',
    entryHint: '{ "command": "npx", "args": [...], "env": {...} } 或 { "url": "https://…/mcp", "headers": {...} }——也可以是含 "mcpServers" 的整个文件。',
    notJson: '这不是 JSON：{message}',
    noName: '请为服务器命名。',
    enabled: '开',
    disabled: '关',
    enable: '使用 MCP 服务器 {server}',
    trustHints: '信任此服务器的只读提示（这类工具无需询问即可运行，只读模式下也可以）',
    allowAll: '此服务器的所有工具无需询问即可运行',
    allowTool: '无需询问',
    tools: '工具（{count}）',
    log: '日志',
    emptyLog: '（暂无）',
    starts: '已启动 {count} 次',
    problems: '文件中的问题：',
    failed: '无法修改 MCP 服务器：{message}',
    confirmRemove: '要从 mcp.json 中删除 MCP 服务器“{server}”吗？',
    'state.disabled': '已关闭',
    'state.stopped': '已停止',
    'state.connecting': '正在连接',
    'state.ready': '就绪',
    'state.failed': '失败',
    read: '只读',
    asks: '询问',
    allowed: '已允许'
  }
} as const

type TextKey = keyof (typeof TEXTS)['en']

function useTexts() {
  const t = useT()
  const table = TEXTS[t.language] ?? TEXTS.en
  const say = (key: TextKey, vars: Record<string, string | number> = {}) =>
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
  return { say, t }
}

/** `mcp.list`, again on every `mcp_changed`. */
function useMcpOverview() {
  const [overview, setOverview] = useState<McpOverview | null>(null)
  const [error, setError] = useState<AppErrorShape | null>(null)
  const load = useCallback(() => {
    void getDeskclawApi()
      .invoke('mcp.list', {})
      .then((result) => {
        if (result.ok) {
          setOverview(result.data)
          setError(null)
        } else setError(result.error)
      })
  }, [])
  useEffect(() => {
    load()
    return getDeskclawApi().onEvent((event) => {
      if (event.kind === 'mcp_changed') load()
    })
  }, [load])
  return { overview, error, setOverview, setError }
}

export function McpServersSection() {
  const { say, t } = useTexts()
  const id = useId()
  const { overview, error, setOverview, setError } = useMcpOverview()
  const [editing, setEditing] = useState<{ previousName?: string; name: string; json: string } | null>(null)
  const [editError, setEditError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const act = async (run: () => Promise<{ ok: true; data: McpOverview } | { ok: false; error: AppErrorShape }>): Promise<boolean> => {
    setBusy(true)
    try {
      const result = await run()
      if (!result.ok) {
        setError(result.error)
        return false
      }
      setOverview(result.data)
      setError(null)
      return true
    } finally {
      setBusy(false)
    }
  }
  const api = getDeskclawApi()
  const save = (name: string, config: McpServerConfig, previousName?: string) =>
    act(() => api.invoke('mcp.save', { name, config, ...(previousName && previousName !== name ? { previousName } : {}) }))

  const submitEditor = async () => {
    if (!editing) return
    let parsed: unknown
    try {
      parsed = JSON.parse(editing.json)
    } catch (problem) {
      setEditError(say('notJson', { message: (problem as Error).message }))
      return
    }
    const record = parsed as Record<string, unknown>
    // A whole Claude Desktop / Cursor file: every server in it.
    if (record && typeof record === 'object' && record.mcpServers && typeof record.mcpServers === 'object') {
      for (const [name, config] of Object.entries(record.mcpServers as Record<string, McpServerConfig>)) {
        if (!(await save(name, config))) return
      }
    } else {
      if (!editing.name.trim()) {
        setEditError(say('noName'))
        return
      }
      if (!(await save(editing.name.trim(), record as McpServerConfig, editing.previousName))) return
    }
    setEditing(null)
    setEditError(null)
  }

  return (
    <section className="chat-apps mcp-servers" data-testid="mcp-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{say('title')}</h3>
      <p className="field-hint chat-apps-intro">{say('intro')}</p>
      {overview && <p className="field-hint" data-testid="mcp-file">{say('file', { file: overview.file })}</p>}
      {!overview && !error && (
        <div className="chat-apps-status">
          <Spinner size={12} /> {say('loading')}
        </div>
      )}
      {error && (
        <div className="chat-apps-status failed" role="alert" data-testid="mcp-error">
          <AlertIcon size={12} /> {say('failed', { message: t.error(error) })}
        </div>
      )}
      {overview && overview.problems.length > 0 && (
        <div className="chat-apps-status failed" data-testid="mcp-problems">
          {say('problems')}
          <ul>
            {overview.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {overview && overview.servers.length === 0 && <p className="field-hint">{say('none')}</p>}
      {overview && overview.servers.length > 0 && (
        <ul className="chat-app-list" data-testid="mcp-servers">
          {overview.servers.map((server) => (
            <McpServerRow
              key={server.name}
              server={server}
              busy={busy}
              onSave={(config) => save(server.name, config)}
              onEdit={() => {
                setEditing({ previousName: server.name, name: server.name, json: JSON.stringify(server.config, null, 2) })
                setEditError(null)
              }}
              onRemove={() => {
                if (window.confirm(say('confirmRemove', { server: server.name }))) void act(() => api.invoke('mcp.remove', { name: server.name }))
              }}
              onRestart={() => void act(() => api.invoke('mcp.restart', { name: server.name }))}
            />
          ))}
        </ul>
      )}
      {editing ? (
        <div className="mcp-editor" data-testid="mcp-editor">
          <label className="field" htmlFor={`${id}-name`}>
            <span className="field-label">{say('name')}</span>
            <input
              id={`${id}-name`}
              className="text-input"
              data-testid="mcp-name"
              value={editing.name}
              spellCheck={false}
              onChange={(event) => setEditing({ ...editing, name: event.target.value })}
            />
            <span className="field-hint">{say('nameHint')}</span>
          </label>
          <label className="field" htmlFor={`${id}-json`}>
            <span className="field-label">{say('entry')}</span>
            <textarea
              id={`${id}-json`}
              className="text-input"
              data-testid="mcp-json"
              rows={8}
              spellCheck={false}
              value={editing.json}
              onChange={(event) => setEditing({ ...editing, json: event.target.value })}
            />
            <span className="field-hint">{say('entryHint')}</span>
          </label>
          {editError && (
            <div className="form-error" role="alert" data-testid="mcp-editor-error">
              {editError}
            </div>
          )}
          <div className="chat-app-head">
            <button type="button" className="btn btn-small" data-testid="mcp-save" disabled={busy} onClick={() => void submitEditor()}>
              {say('save')}
            </button>
            <button type="button" className="btn btn-small" onClick={() => setEditing(null)}>
              {say('cancel')}
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          className="btn btn-small"
          data-testid="mcp-add"
          onClick={() => {
            setEditing({ name: '', json: '{\n  "command": "",\n  "args": []\n}' })
            setEditError(null)
          }}
        >
          {say('add')}
        </button>
      )}
    </section>
  )
}

function McpServerRow({
  server,
  busy,
  onSave,
  onEdit,
  onRemove,
  onRestart
}: {
  server: McpServerStatus
  busy: boolean
  onSave(config: McpServerConfig): Promise<boolean>
  onEdit(): void
  onRemove(): void
  onRestart(): void
}) {
  const { say } = useTexts()
  const id = useId()
  const enabled = server.config.disabled !== true
  const allowed = new Set(server.config.autoApprove ?? [])
  const where = server.config.command ? [server.config.command, ...(server.config.args ?? [])].join(' ') : (server.config.url ?? '')
  const setAllowed = (next: Set<string>) => onSave({ ...server.config, autoApprove: [...next] })
  return (
    <li className={`chat-app${enabled ? ' enabled' : ''}`} data-testid="mcp-server" data-server={server.name} data-state={server.state}>
      <div className="chat-app-head">
        <div className="chat-app-title">
          <span className="chat-app-name" data-testid="mcp-server-name">
            {server.name}
          </span>
          {server.transport && <span className="chat-app-badge">{server.transport}</span>}
          <span className="chat-app-badge" data-testid="mcp-server-state">
            {say(`state.${server.state}`)}
          </span>
        </div>
        <label className="switch" htmlFor={`${id}-enabled`}>
          <input
            id={`${id}-enabled`}
            type="checkbox"
            role="switch"
            data-testid="mcp-server-enabled"
            checked={enabled}
            disabled={busy}
            aria-label={say('enable', { server: server.name })}
            onChange={(event) => void onSave({ ...server.config, disabled: !event.target.checked })}
          />
          <span className="switch-track" aria-hidden="true" />
          <span className="switch-text">{enabled ? say('enabled') : say('disabled')}</span>
        </label>
      </div>
      <div className="chat-app-tested">
        <code>{where}</code> · {say('starts', { count: server.starts })}
      </div>
      {server.error && (
        <div className="chat-app-unsupported" data-testid="mcp-server-error">
          <AlertIcon size={12} /> {server.error}
        </div>
      )}
      <div className="chat-app-head">
        <button type="button" className="btn btn-small" data-testid="mcp-server-edit" onClick={onEdit}>
          {say('edit')}
        </button>
        <button type="button" className="btn btn-small" data-testid="mcp-server-restart" disabled={busy || !enabled} onClick={onRestart}>
          {say('restart')}
        </button>
        <button type="button" className="btn btn-small" data-testid="mcp-server-remove" disabled={busy} onClick={onRemove}>
          {say('remove')}
        </button>
      </div>
      <label className="checkbox-field">
        <input
          type="checkbox"
          data-testid="mcp-server-trust-hints"
          checked={server.config.trustReadOnlyHints === true}
          disabled={busy}
          onChange={(event) => void onSave({ ...server.config, trustReadOnlyHints: event.target.checked })}
        />{' '}
        {say('trustHints')}
      </label>
      <label className="checkbox-field">
        <input
          type="checkbox"
          data-testid="mcp-server-allow-all"
          checked={allowed.has('*')}
          disabled={busy}
          onChange={(event) => {
            const next = new Set(allowed)
            if (event.target.checked) next.add('*')
            else next.delete('*')
            void setAllowed(next)
          }}
        />{' '}
        {say('allowAll')}
      </label>
      <details data-testid="mcp-server-tools">
        <summary>{say('tools', { count: server.tools.length })}</summary>
        <ul>
          {server.tools.map((tool) => (
            <li key={tool.name} data-testid="mcp-tool" data-tool={tool.qualifiedName}>
              <code>{tool.qualifiedName}</code> [{tool.autoApproved ? say('allowed') : tool.read ? say('read') : say('asks')}]{' '}
              <label>
                <input
                  type="checkbox"
                  data-testid="mcp-tool-allow"
                  checked={allowed.has(tool.name)}
                  disabled={busy || allowed.has('*')}
                  onChange={(event) => {
                    const next = new Set(allowed)
                    if (event.target.checked) next.add(tool.name)
                    else next.delete(tool.name)
                    void setAllowed(next)
                  }}
                />{' '}
                {say('allowTool')}
              </label>
              <div className="field-hint">{tool.description.split('\n')[0]}</div>
            </li>
          ))}
        </ul>
      </details>
      <details data-testid="mcp-server-log">
        <summary>{say('log')}</summary>
        <pre className="mcp-log">{server.log.length > 0 ? server.log.join('\n') : say('emptyLog')}</pre>
      </details>
    </li>
  )
}
