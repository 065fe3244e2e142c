import { create } from 'zustand'
import type { ToolInfo } from '../../../shared/tool-text'
import { getDeskclawApi } from '../bridge'
import { setToolCatalogue } from '../i18n'
import { catalogueByName } from './reducers'

interface ToolsState {
  /** Every tool the agent has now, by name (its category, access and message tables). */
  byName: Record<string, ToolInfo>
  /** True once `tools.list` answered at least once. */
  loaded: boolean
  /** Asks `tools.list` again (on connect and on every `tools_changed`); a failed answer keeps what we had. */
  load(): Promise<void>
}

/** Only the newest answer counts when two loads overlap (a tools_changed during the first load). */
let loadToken = 0

/**
 * The tool catalogue: what previews, approvals and the timeline need to show a tool's own texts
 * in the UI language (`t.toolText`). Tools come and go (MCP servers), so it is reloaded on
 * `tools_changed`; a tool missing from it still shows its keys.
 */
export const useToolsStore = create<ToolsState>((set) => ({
  byName: {},
  loaded: false,

  async load() {
    const token = ++loadToken
    const result = await getDeskclawApi().invoke('tools.list', {})
    if (token !== loadToken || !result.ok) return
    const byName = catalogueByName(result.data)
    setToolCatalogue(byName)
    set({ byName, loaded: true })
  }
}))
