/**
 * "Allow for this conversation": the exact call (its binding hash) runs without asking again in
 * that conversation. Kept in memory on purpose — a restart asks again; "always" is what persists.
 */
export class ConversationGrants {
  private readonly byConversation = new Map<string, Set<string>>()

  grant(conversationId: string, bindingHash: string): void {
    let hashes = this.byConversation.get(conversationId)
    if (!hashes) this.byConversation.set(conversationId, (hashes = new Set()))
    hashes.add(bindingHash)
  }

  has(conversationId: string, bindingHash: string): boolean {
    return this.byConversation.get(conversationId)?.has(bindingHash) ?? false
  }

  forget(conversationId: string): void {
    this.byConversation.delete(conversationId)
  }
}
