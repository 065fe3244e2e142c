/**
 * Issue 22, item 5: what Settings → Chat apps says about a shipped profile (its `testedWith`) is in
 * both languages, over every profile shipped, so the Chinese UI shows no English note; a user's
 * own profile may still say it in one text.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtinProfilesDir, loadChatApps, readProfileFile } from '../../../src/main/chat-apps'

const HAN = /\p{Script=Han}/u

describe('chat app profile notes', () => {
  it('every shipped profile says what it was written for in English and Chinese', () => {
    const catalog = loadChatApps({ builtinDir: builtinProfilesDir() })
    expect(catalog.problems).toEqual([])
    expect(catalog.profiles.length).toBeGreaterThan(0)
    for (const { profile } of catalog.profiles) {
      const tested = profile.testedWith
      expect(typeof tested, profile.id).toBe('object')
      if (typeof tested !== 'object') continue
      expect(tested.en.trim(), profile.id).not.toBe('')
      expect(HAN.test(tested.en), `${profile.id}: English without Chinese`).toBe(false)
      expect(HAN.test(tested['zh-CN']), `${profile.id}: the Chinese note is Chinese`).toBe(true)
    }
  })

  it("a user's profile may give one text; a half-translated object is refused", () => {
    const data = mkdtempSync(join(tmpdir(), 'deskclaw-apps-notes-'))
    mkdirSync(join(data, 'desktop-apps'))
    const weixin = JSON.parse(JSON.stringify(readProfileFile(join(builtinProfilesDir()!, 'weixin.json'))))
    writeFileSync(join(data, 'desktop-apps', 'mine.json'), JSON.stringify({ ...weixin, id: 'mine', testedWith: 'my WeChat at work' }))
    writeFileSync(join(data, 'desktop-apps', 'half.json'), JSON.stringify({ ...weixin, id: 'half', testedWith: { en: 'only English' } }))
    const catalog = loadChatApps({ dataDir: data, builtinDir: builtinProfilesDir() })
    expect(catalog.profiles.find((p) => p.profile.id === 'mine')?.profile.testedWith).toBe('my WeChat at work')
    expect(catalog.profiles.some((p) => p.profile.id === 'half')).toBe(false)
    expect(catalog.problems.map((p) => p.file)).toEqual([expect.stringContaining('half.json')])
  })
})
