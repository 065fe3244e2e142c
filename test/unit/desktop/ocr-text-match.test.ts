import { describe, expect, it } from 'vitest'
import { findExactLines, normalizeForMatch, sameText, similarity, stripPatterns } from '../../../src/main/desktop/ocr'

describe('normalizeForMatch', () => {
  it('removes every kind of whitespace, including between CJK characters and full-width spaces', () => {
    expect(normalizeForMatch('张 伟')).toBe('张伟')
    expect(normalizeForMatch(' 产品\t群\n')).toBe('产品群')
    expect(normalizeForMatch('张\u3000伟\u00a0(HR)')).toBe('张伟(hr)')
  })

  it('applies NFKC: full-width Latin, digits and punctuation become ASCII', () => {
    expect(normalizeForMatch('ＤｅｓｋＣｌａｗ １２３')).toBe('deskclaw123')
    expect(normalizeForMatch('好的，收到！真的？是：对；')).toBe('好的,收到!真的?是:对;')
    expect(normalizeForMatch('Ⅱ')).toBe('ii')
  })

  it('folds the brackets OCR confuses into ( and )', () => {
    for (const open of ['（', '(', '〈', '<', '《', '【', '[', '｛', '{', '〔', '〖', '⟨']) expect(normalizeForMatch(`${open}旧`)).toBe('(旧')
    for (const close of ['）', ')', '〉', '>', '》', '】', ']', '｝', '}', '〕', '〗', '⟩']) expect(normalizeForMatch(`旧${close}`)).toBe('旧)')
  })

  it('reads a wide bracket split in two as one', () => {
    expect(normalizeForMatch('王小明【外包]】')).toBe(normalizeForMatch('王小明【外包】'))
    expect(normalizeForMatch('〈(旧)')).toBe('(旧)')
  })

  it('unifies dashes and quotes', () => {
    expect(normalizeForMatch('2024–05—17')).toBe('2024-05-17')
    expect(normalizeForMatch('a——b')).toBe('a-b')
    expect(normalizeForMatch('a－b−c')).toBe('a-b-c')
    expect(normalizeForMatch('“hi” ‘there’ 「你好」')).toBe(normalizeForMatch('"hi" \'there\' "你好"'))
    expect(normalizeForMatch("say ''hi''")).toBe(normalizeForMatch('say "hi"'))
  })

  it('lowercases Latin', () => {
    expect(normalizeForMatch('Design Team')).toBe('designteam')
  })

  it('drops zero-width and other invisible characters', () => {
    for (const invisible of ['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff', '\u00ad', '\u2066', '\u202e']) {
      expect(normalizeForMatch(`产品${invisible}群`), `U+${invisible.codePointAt(0)!.toString(16)}`).toBe('产品群')
    }
  })

  it('drops variation selectors', () => {
    expect(normalizeForMatch('好\ufe0e的\ufe0f')).toBe('好的')
    expect(normalizeForMatch('葛\u{e0100}')).toBe('葛')
  })

  it('drops emoji and pictographs, with their modifiers, joiners, flags and keycaps', () => {
    expect(normalizeForMatch('收到 👍 OK')).toBe('收到ok')
    expect(normalizeForMatch('👍🏽好')).toBe('好')
    expect(normalizeForMatch('家👨‍👩‍👧庭')).toBe('家庭')
    expect(normalizeForMatch('🇨🇳中国')).toBe('中国')
    expect(normalizeForMatch('第1️⃣名')).toBe('第名')
    expect(normalizeForMatch('❤️❤ 爱')).toBe('爱')
  })

  it('keeps what OCR can read: letters, digits, CJK and ordinary punctuation', () => {
    expect(normalizeForMatch('Re: invoice #4471 — 50% off! john.smith@example.com')).toBe('re:invoice#4471-50%off!john.smith@example.com')
    expect(normalizeForMatch('中文。顿号、')).toBe('中文。顿号、')
  })

  it('is idempotent', () => {
    for (const text of ['产品群（旧）', '张 伟 (HR)', '“Hello”，World！👍', 'a——b', '【外包]】']) {
      expect(normalizeForMatch(normalizeForMatch(text))).toBe(normalizeForMatch(text))
    }
  })

  it('makes the empty and the invisible-only text empty', () => {
    expect(normalizeForMatch('')).toBe('')
    expect(normalizeForMatch(' \u200b👍\ufe0f ')).toBe('')
  })
})

describe('sameText', () => {
  it('never takes a different chat for the one asked for', () => {
    expect(sameText('产品群', '产品群（旧）')).toBe(false)
    expect(sameText('产品群', '产品群(旧)')).toBe(false)
    expect(sameText('产品群', '产品群 〈旧)')).toBe(false)
    expect(sameText('张伟', '张伟 (HR)')).toBe(false)
    expect(sameText('张伟', '张伟伟')).toBe(false)
    expect(sameText('Design Team', 'Design Teams')).toBe(false)
  })

  it("ignores OCR's harmless differences", () => {
    expect(sameText('张 伟', '张伟')).toBe(true)
    expect(sameText('产品群 〈旧)', '产品群（旧）')).toBe(true)
    expect(sameText('产品群〈(旧)', '产品群（旧）')).toBe(true)
    expect(sameText('张伟(HR)', '张伟 (HR)')).toBe(true)
    expect(sameText('Hello , World', 'hello, world')).toBe(true)
    expect(sameText('今天下午三点开会，请准时参加 [DeskClaw]', '今天下午三点开会,请准时参加[DeskClaw]')).toBe(true)
    expect(sameText('李娜 : 明天见', '李娜：明天见')).toBe(true)
  })

  it('ignores emoji and zero-width characters on either side', () => {
    expect(sameText('收到 OK', '收到 👍 OK')).toBe(true)
    expect(sameText('Hello\u200b\u200c\u200d\u2060', 'Hello')).toBe(true)
    expect(sameText('产品群🎉', '产品群')).toBe(true)
  })
})

describe('similarity', () => {
  it('is 1 for the same text (after normalising) and for two empty texts', () => {
    expect(similarity('产品群', '产品 群')).toBe(1)
    expect(similarity('', '')).toBe(1)
    expect(similarity('👍', '\u200b')).toBe(1)
  })

  it('is 0 when nothing is in common or one side is empty', () => {
    expect(similarity('abc', 'xyz')).toBe(0)
    expect(similarity('abc', '')).toBe(0)
  })

  it('is 1 − edit distance / the longer length', () => {
    expect(similarity('产品群', '产品群（旧）')).toBeCloseTo(1 - 3 / 6)
    expect(similarity('项目周报', '项目局报')).toBeCloseTo(0.75)
    expect(similarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7)
  })

  it('counts characters, not UTF-16 units', () => {
    expect(similarity('𠮷野', '𠮷家')).toBeCloseTo(0.5)
  })

  it('is symmetric and within 0..1', () => {
    const texts = ['今天下午三点开会', '今天下午开会', 'Meeting at 3', '', '产品群（旧）']
    for (const a of texts) {
      for (const b of texts) {
        expect(similarity(a, b)).toBe(similarity(b, a))
        expect(similarity(a, b)).toBeGreaterThanOrEqual(0)
        expect(similarity(a, b)).toBeLessThanOrEqual(1)
      }
    }
  })
})

describe('findExactLines', () => {
  const lines = ['产品群', '产品群 〈旧)', '张 伟', '张伟 (HR)', 'Design Team', '产品群']

  it('finds the lines that are exactly the target, in order', () => {
    expect(findExactLines(lines, '产品群')).toEqual([0, 5])
    expect(findExactLines(lines, '产品群（旧）')).toEqual([1])
    expect(findExactLines(lines, '张伟')).toEqual([2])
    expect(findExactLines(lines, '张伟 (HR)')).toEqual([3])
    expect(findExactLines(lines, 'design team')).toEqual([4])
  })

  it('finds nothing for a name that is only part of a line', () => {
    expect(findExactLines(lines, '产品')).toEqual([])
    expect(findExactLines(lines, 'Design')).toEqual([])
    expect(findExactLines([], '产品群')).toEqual([])
  })
})

describe('stripPatterns', () => {
  it('removes every match of every pattern and trims', () => {
    expect(stripPatterns('产品群 (12)', [/\(\d+\)/])).toBe('产品群')
    expect(stripPatterns('张伟 12:30 [3] 12:31', [/\d{1,2}:\d{2}/, /\[\d+\]/])).toBe('张伟')
  })

  it('removes every match even without the g flag, and leaves the pattern as it was', () => {
    const count = /\d+/
    expect(stripPatterns('a1b22c333', [count])).toBe('abc')
    expect(count.global).toBe(false)
    expect(stripPatterns('A1a2', [/a/i])).toBe('12')
  })

  it('returns the text trimmed when nothing matches or there are no patterns', () => {
    expect(stripPatterns('  产品群  ', [])).toBe('产品群')
    expect(stripPatterns('产品群', [/\(\d+\)/])).toBe('产品群')
  })

  it('does not make a different name the same', () => {
    expect(sameText(stripPatterns('产品群（旧）', [/\(\d+\)/]), '产品群')).toBe(false)
  })
})
