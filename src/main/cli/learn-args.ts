/** `deskclaw desktop learn`'s own flags (docs/cli.md); light, so parsing loads nothing of the app. */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

export interface LearnArgs {
  window?: string
  searchKey?: string
  sendKey?: string
  chat?: string
  tryChat?: string
  tryText?: string
  id?: string
  name?: string
  nameZh?: string
  dataDir?: string
  help: boolean
}

/** Throws an Error that says what is wrong with the flags (the caller makes it a usage error). */
export function parseLearnArgs(argv: string[]): LearnArgs {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      window: { type: 'string' },
      'search-key': { type: 'string' },
      'send-key': { type: 'string' },
      chat: { type: 'string' },
      'try-chat': { type: 'string' },
      'try-text': { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      'name-zh': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' }
    }
  })
  return {
    window: v.window,
    searchKey: v['search-key'],
    sendKey: v['send-key'],
    chat: v.chat,
    tryChat: v['try-chat'],
    tryText: v['try-text'],
    id: v.id,
    name: v.name,
    nameZh: v['name-zh'],
    dataDir: v['data-dir'] ? resolve(v['data-dir']) : undefined,
    help: Boolean(v.help)
  }
}
