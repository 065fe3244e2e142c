/**
 * The wizard sessions the bridge keeps (Settings → Chat apps → Add an app): a few at most, the
 * oldest dropped, each closed when its dialog closes (docs/desktop.md, "Teach DeskClaw a new app").
 */
import { randomUUID } from 'node:crypto'
import type { LearnAction, LearnView } from '../../../shared/bridge/desktop-learn'
import { LearnSession, type LearnSessionOptions } from './learn-session'
import { problem } from './learn-flow'

const MAX_SESSIONS = 4

export class LearnSessions {
  private readonly sessions = new Map<string, LearnSession>()

  constructor(private readonly options: () => LearnSessionOptions) {}

  async start(): Promise<LearnView> {
    const session = new LearnSession(randomUUID(), this.options())
    this.sessions.set(session.id, session)
    while (this.sessions.size > MAX_SESSIONS) this.close(this.sessions.keys().next().value!)
    const failed = await session.refreshWindows()
    return failed ? { ...session.view(), problem: failed } : session.view()
  }

  async act(sessionId: string, action: LearnAction): Promise<LearnView> {
    const session = this.sessions.get(sessionId)
    if (!session) return { sessionId, stage: 'window', windows: [], keyNames: [], problem: problem('no_session') }
    await session.act(action)
    return session.view()
  }

  close(sessionId: string): boolean {
    this.sessions.get(sessionId)?.close()
    return this.sessions.delete(sessionId)
  }
}
