/**
 * Risk (docs/risk.md): the engine that judges every tool call (shell analysis, path guardian,
 * rules, autonomy) and the binding hash an approval is tied to. Asking the user is approvals/.
 */
export {
  RiskEngine,
  type CommandSubject,
  type RiskContext,
  type RiskEngineOptions,
  type RiskSubject,
  type ShellAssessment,
  type ToolCallToAssess
} from './engine'
export { bindingHash, stableJson } from './binding'
export {
  RiskSubjectKinds,
  SHELL_SUBJECT,
  ToolAccessLevels,
  ToolCategories,
  type RiskSubjectKind,
  type ToolAccess,
  type ToolCategory
} from './vocabulary'
export { isSecretPath, namesSecretPath } from './secret-path'
export { principleOf } from './explain'
export type { ShellExplanation } from './shell/analyzer'
export {
  emptyRuleSet,
  fromRules,
  matchesTokens,
  mergeRuleSets,
  readRuleFile,
  type LoadedRule,
  type RuleSet,
  type RuleSource
} from './rules'
export {
  classifyAddress,
  embeddedIPv4,
  ADDRESS_RANGES,
  type AddressClass,
  type AddressRange
} from './ip-ranges'
export {
  domainDecision,
  domainMatch,
  parseHttpUrl,
  ruleNamesHost,
  UrlGuardian,
  type DomainRule,
  type HopCheck,
  type LookupAll,
  type ResolvedAddress,
  type UrlGuardianOptions,
  type UrlJudgement
} from './url-guardian'
export {
  describeTargetChanges,
  identifyTargets,
  identitiesHash,
  targetPathsHash,
  type TargetIdentity
} from './target-identity'
