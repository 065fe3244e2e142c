import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtinProfilesDir, loadChatApps, profileFor, readProfileFile, regionRect, titleMatches } from '../../../src/main/chat-apps'

const SHIPPED = ['dingtalk', 'feishu', 'hexchat', 'pidgin', 'slack', 'telegram', 'wecom', 'weixin']
/** Sent through the accessibility tree, which only Linux has yet (docs/desktop.md, "The HexChat and Pidgin profiles"). */
const LINUX_ONLY = new Set(['hexchat', 'pidgin'])

describe('chat app profiles (data, validated)', () => {
  it('ships the eight profiles, each valid for Windows, macOS and Linux (HexChat and Pidgin: Linux)', () => {
    const dir = builtinProfilesDir()
    expect(dir).toBeDefined()
    expect(readdirSync(dir!).filter((f) => f.endsWith('.json')).sort()).toEqual(SHIPPED.map((id) => `${id}.json`))
    const catalog = loadChatApps({ builtinDir: dir })
    expect(catalog.problems).toEqual([])
    expect(catalog.profiles.map((p) => p.profile.id)).toEqual(SHIPPED)
    for (const { profile } of catalog.profiles) {
      for (const os of ['win32', 'darwin', 'linux'] as const) {
        const here = profileFor(profile, os)
        if (LINUX_ONLY.has(profile.id) && os !== 'linux') expect(here, `${profile.id} ${os}`).toBeNull()
        else expect(here, `${profile.id} ${os}`).not.toBeNull()
      }
    }
  })

  it('the weixin profile matches the titles 微信 and WeChat, and not a chat named like them', () => {
    const weixin = loadChatApps().profiles.find((p) => p.profile.id === 'weixin')!.profile
    const linux = profileFor(weixin, 'linux')!
    expect(titleMatches(linux, '微信')).toBe(true)
    expect(titleMatches(linux, 'WeChat')).toBe(true)
    expect(titleMatches(linux, '微信群聊记录.txt - Notepad')).toBe(false)
    expect(titleMatches(linux, 'WeChat Work')).toBe(false)
    expect(linux.keys.send).toBe('enter')
  })

  it("a user's file replaces the shipped profile with its id; a broken file is reported, not fatal", () => {
    const data = mkdtempSync(join(tmpdir(), 'deskclaw-apps-'))
    mkdirSync(join(data, 'desktop-apps'))
    const weixin = JSON.parse(JSON.stringify(readProfileFile(join(builtinProfilesDir()!, 'weixin.json'))))
    weixin.platforms.linux.keys.send = 'ctrl+enter'
    writeFileSync(join(data, 'desktop-apps', 'my-weixin.json'), JSON.stringify(weixin))
    writeFileSync(join(data, 'desktop-apps', 'broken.json'), '{ "id": "x", ')
    writeFileSync(join(data, 'desktop-apps', 'bad-region.json'), JSON.stringify({ ...weixin, id: 'bad', platforms: { linux: { ...weixin.platforms.linux, regions: { ...weixin.platforms.linux.regions, header: { left: 1, right: 2, width: 3, top: 0, height: 9 } } } } }))
    writeFileSync(join(data, 'desktop-apps', 'bad-pattern.json'), JSON.stringify({ ...weixin, id: 'pattern', platforms: { linux: { ...weixin.platforms.linux, headerExtras: ['(unclosed'] } } }))
    const catalog = loadChatApps({ dataDir: data })
    const mine = catalog.profiles.find((p) => p.profile.id === 'weixin')!
    expect(mine.source).toBe('user')
    expect(profileFor(mine.profile, 'linux')!.keys.send).toBe('ctrl+enter')
    expect(catalog.profiles.map((p) => p.profile.id)).toEqual(SHIPPED)
    const problems = Object.fromEntries(catalog.problems.map((p) => [p.file.split('/').pop(), p.error]))
    expect(problems['broken.json']).toMatch(/not JSON/)
    expect(problems['bad-region.json']).toMatch(/exactly two of left, right and width/)
    expect(problems['bad-pattern.json']).toMatch(/not a regular expression/)
  })

  it('a profile given for one task must load, and says why when it does not', () => {
    expect(() => loadChatApps({ extraFile: '/nonexistent/profile.json' })).toThrow(/no such file/)
  })
})

describe('regions (CSS-like placement in the window)', () => {
  const window = { x: 100, y: 50, width: 1000, height: 700 }
  it('pixels from each edge, sizes and percentages', () => {
    expect(regionRect({ left: 306, right: 0, top: 0, height: 60 }, window)).toEqual({ x: 406, y: 50, width: 694, height: 60 })
    expect(regionRect({ left: 56, width: 250, top: 60, bottom: 0 }, window)).toEqual({ x: 156, y: 110, width: 250, height: 640 })
    expect(regionRect({ right: 0, width: '50%', bottom: 40, height: 120 }, window)).toEqual({ x: 600, y: 590, width: 500, height: 120 })
  })
  it('is clipped to the window, scales for HiDPI, and refuses a region outside it', () => {
    expect(regionRect({ left: 900, width: 300, top: 0, height: 10 }, window)).toEqual({ x: 1000, y: 50, width: 100, height: 10 })
    expect(regionRect({ left: 10, width: 100, top: 10, height: 20 }, { x: 0, y: 0, width: 2000, height: 1400 }, 2)).toEqual({ x: 20, y: 20, width: 200, height: 40 })
    expect(() => regionRect({ left: 2000, width: 10, top: 0, height: 10 }, window)).toThrow(/outside/)
  })
})
