import { join } from 'node:path'
import type { RiskRule, Settings } from '../../shared'
import { changes, type AppService } from '../lifecycle'
import { fromRules, mergeRuleSets, readRuleFile, type RiskEngine, type RuleSet } from '../risk'
import type { ConversationStore } from '../store'

/** Where rules live: the user's file beside the database, and the project's in its workspace. */
export const USER_RULES_FILE = 'rules.json'
export const PROJECT_RULES_FILE = '.deskclaw/rules.json'

/**
 * The rules the risk engine applies (docs/risk.md): the user's file, the project's (which may only
 * tighten) and the rules saved by "always allow". Read again when the workspace changes, since it
 * decides which project file applies.
 */
export class RulesService implements AppService {
  readonly name = 'rules'

  constructor(
    private readonly options: {
      dataDir: string
      store: ConversationStore
      workspace(): string
      /** The engine if it was loaded; one loaded later reads the rules as they are then. */
      engine(): Promise<RiskEngine> | undefined
      /** Allow rules another service derives from its own settings (the MCP servers' autoApprove). */
      extraRules?(): RiskRule[]
    }
  ) {}

  load(): RuleSet {
    return mergeRuleSets(
      readRuleFile(join(this.options.dataDir, USER_RULES_FILE), 'user'),
      readRuleFile(join(this.options.workspace(), PROJECT_RULES_FILE), 'project'),
      fromRules(this.options.store.listApprovalRules(), 'saved', 'saved approvals'),
      fromRules(this.options.extraRules?.() ?? [], 'user', 'MCP settings')
    )
  }

  async reload(): Promise<RuleSet> {
    const rules = this.load()
    const engine = this.options.engine()
    if (engine) (await engine).setRules(rules)
    return rules
  }

  /** Keeps the narrow rule of an "always allow" answer and applies it from the next call on. */
  saveAlways(rule: RiskRule, approvalId: string): void {
    this.options.store.saveApprovalRule(rule, approvalId)
    void this.reload().catch(() => {})
  }

  async settingsChanged(_next: Settings, patch: Partial<Settings>): Promise<void> {
    if (changes(patch, 'workspace')) await this.reload()
  }
}
