/**
 * Teaching DeskClaw a new chat app (docs/desktop.md, "Teach DeskClaw a new app"): the wizard's state
 * machine, its effects (windows, accessibility tree, a dry send that never presses send) and the
 * profile it saves; the CLI (`deskclaw desktop learn`) and Settings → Chat apps → Add an app use it.
 * It sits beside send/ rather than in profiles because it runs the send-text task, and the profiles are below send/.
 */
export { checkKey, initialLearnState, orderProblem, profileFrom, reduceLearn, suggestId, windowMatch, type DryRunReport, type LearnEvent, type LearnFindings, type LearnState } from './learn-flow'
export { DRY_RUN_REASON } from '../../../shared/bridge/desktop-learn'
export { DRY_RUN_TEXT, LearnSession, writeProfile, type LearnSessionOptions } from './learn-session'
export { LearnSessions } from './learn-sessions'
