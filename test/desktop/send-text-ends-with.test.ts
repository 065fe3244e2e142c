import { describe, expect, it } from 'vitest'
import { endsWithText } from '../../src/main/chat-apps'

// The tree way's OCR check of a message in a widget that exposes no text (docs/desktop.md, "Through the accessibility tree").
describe('endsWithText', () => {
  it('reads a message line that starts with the sender and has stray characters for its pictures', () => {
    expect(endsWithText('[06:19:52] dchexchat |你好， opt 国旧站 第24条 |', '你好，opt 😀🎉 第24条')).toBe(true)
    expect(endsWithText('第10条 : buiLd is green 现了一忆 让二下 二二蕊', '第10条：build is green 👋')).toBe(true)
    expect(endsWithText('[06:11:45] dchexchat |status 2: buiLd is green，ship It', 'status 2: build is green, ship it')).toBe(true)
  })
  it('never reads another message as the text', () => {
    expect(endsWithText('[06:11:45] dchexchat |status 2: build is green, ship it', 'status 3: build is red, stop it now')).toBe(false)
    expect(endsWithText('[06:23:32] * Now talking on #张伟', '你好，张伟 😀🎉 第1条')).toBe(false)
    expect(endsWithText('', 'x')).toBe(false)
    expect(endsWithText('你好，张伟 第1条 and then more words after it', '你好，张伟 第1条')).toBe(false)
  })
})
