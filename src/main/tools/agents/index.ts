/** The agent tools (docs/tools.md, "Sub-agents"): `delegate`, over the agent room's child runs that the app passes in. */
import { toolPack, type ToolSource } from '../source'
import { createDelegateTool, type AgentToolServices } from './delegate'

export { DELEGATE_TOOL, type AgentToolServices, type ChildRunRequest, type ChildRunResult } from './delegate'

export function createAgentTools(services: AgentToolServices): ToolSource {
  return toolPack('agents', [createDelegateTool(services)])
}
