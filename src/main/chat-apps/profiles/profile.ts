/**
 * A chat app profile (docs/desktop.md, "Chat app profiles"): how the send-text task finds the
 * app's window, which keys search, open and send, and which parts of the window it reads to verify
 * each step. Profiles are data — JSON files validated here — so a new app or a new app version is
 * a file, not a release.
 */
import { z } from 'zod'
import { CHAT_APP_ID_PATTERN } from '../../../shared'

/** A distance in the window: pixels (a number) or a share of the window's width or height ("30%"). */
export const LengthSchema = z.union([
  z.number().min(0).max(20_000),
  z.string().regex(/^\d{1,3}(\.\d+)?%$/, 'a length is pixels (a number) or a percentage such as "30%"')
])
export type Length = z.infer<typeof LengthSchema>

/**
 * A part of the window, placed as in CSS absolute positioning: two of left / right / width and two
 * of top / bottom / height, measured from the window's client area.
 */
export const RegionSchema = z
  .object({
    left: LengthSchema.optional(),
    right: LengthSchema.optional(),
    width: LengthSchema.optional(),
    top: LengthSchema.optional(),
    bottom: LengthSchema.optional(),
    height: LengthSchema.optional()
  })
  .strict()
  .refine((r) => [r.left, r.right, r.width].filter((v) => v !== undefined).length === 2, 'give exactly two of left, right and width')
  .refine((r) => [r.top, r.bottom, r.height].filter((v) => v !== undefined).length === 2, 'give exactly two of top, bottom and height')
export type Region = z.infer<typeof RegionSchema>

/** Key combinations as key_press takes them (`mod+f`, `ctrl+enter`; docs/desktop.md, "Keys"). */
const ComboSchema = z.string().min(1).max(60)

export const AppPlatformSchema = z
  .object({
    window: z
      .object({
        /** Exact window titles (any of them). */
        titles: z.array(z.string().min(1).max(200)).max(20).default([]),
        /** A regular expression a title may match instead. */
        titlePattern: z.string().max(200).optional(),
        /** The window's class (X11 WM_CLASS) or process name, when it helps tell windows apart. */
        app: z.string().max(200).optional()
      })
      .strict()
      .refine((w) => w.titles.length > 0 || w.titlePattern !== undefined, 'give titles or a titlePattern'),
    keys: z
      .object({
        /** Pressed to bring the app forward when its window cannot be focused (the app's own global hotkey). */
        activate: ComboSchema.optional(),
        /** Opens the search box with its text selected. */
        search: ComboSchema,
        /** Opens the highlighted search result. */
        openResult: ComboSchema.default('enter'),
        /** Moves the highlight one result down (to reach an exact match below the top). */
        nextResult: ComboSchema.default('down'),
        /** Sends the draft: Enter, or Ctrl+Enter when the app is set so. */
        send: ComboSchema,
        /** Selects the draft's text, so a paste replaces an old draft instead of adding to it. */
        selectAll: ComboSchema.default('mod+a')
      })
      .strict(),
    /**
     * Hints only, never required (docs/desktop.md, "Finding the layout"): the task finds the results,
     * the header and the draft by what changes on screen. Older profiles' regions still parse.
     */
    regions: z
      .object({
        results: RegionSchema.optional(),
        header: RegionSchema.optional(),
        draft: RegionSchema.optional(),
        messages: RegionSchema.optional()
      })
      .strict()
      .optional(),
    /** Not used any more (results are found on screen); kept so older profiles parse. */
    resultRowHeight: z.number().int().min(8).max(400).optional(),
    /** Text the header shows besides the name (a group's member count "(12)"), removed before comparing; regular expressions. */
    headerExtras: z.array(z.string().max(200)).max(10).default([]),
    /** How long the window must stay still after each action to count as settled, in milliseconds (not fixed waits). */
    waits: z
      .object({
        afterActivate: z.number().int().min(0).max(10_000).default(150),
        afterSearch: z.number().int().min(0).max(10_000).default(300),
        afterOpen: z.number().int().min(0).max(10_000).default(200),
        afterPaste: z.number().int().min(0).max(10_000).default(150),
        afterSend: z.number().int().min(0).max(10_000).default(250)
      })
      .strict()
      .default({ afterActivate: 150, afterSearch: 300, afterOpen: 200, afterPaste: 150, afterSend: 250 })
  })
  .strict()
export type AppPlatform = z.infer<typeof AppPlatformSchema>

export const ChatAppProfileSchema = z
  .object({
    id: z.string().regex(CHAT_APP_ID_PATTERN, 'an id is lower-case letters, digits and dashes (at most 40)'),
    name: z.object({ en: z.string().min(1).max(80), 'zh-CN': z.string().min(1).max(80) }).strict(),
    /**
     * What the profile was written against, shown to the user in Settings → Chat apps: in both
     * languages (`{ "en": …, "zh-CN": … }`, as shipped profiles do), or one text a user's own profile
     * may use (shown as written).
     */
    testedWith: z
      .union([z.string().max(200), z.object({ en: z.string().min(1).max(300), 'zh-CN': z.string().min(1).max(300) }).strict()])
      .optional(),
    /** Per operating system (Node's process.platform names); a missing one means "not supported there". */
    platforms: z
      .object({ win32: AppPlatformSchema.optional(), darwin: AppPlatformSchema.optional(), linux: AppPlatformSchema.optional() })
      .strict()
      .refine((p) => p.win32 || p.darwin || p.linux, 'give at least one of win32, darwin, linux')
  })
  .strict()
export type ChatAppProfile = z.infer<typeof ChatAppProfileSchema>

/** The part of a profile for this OS, or null when the app is not supported here. */
export function profileFor(profile: ChatAppProfile, platform: NodeJS.Platform = process.platform): AppPlatform | null {
  if (platform === 'win32' || platform === 'darwin' || platform === 'linux') return profile.platforms[platform] ?? null
  return null
}

/** Whether a window title is this app's. */
export function titleMatches(platform: AppPlatform, title: string): boolean {
  if (platform.window.titles.includes(title.trim())) return true
  if (!platform.window.titlePattern) return false
  try {
    return new RegExp(platform.window.titlePattern, 'u').test(title)
  } catch {
    return false
  }
}

/** Problems a schema cannot see: patterns that are not regular expressions. */
export function profileProblems(profile: ChatAppProfile): string[] {
  const problems: string[] = []
  for (const [os, platform] of Object.entries(profile.platforms)) {
    if (!platform) continue
    const patterns = [...(platform.window.titlePattern ? [platform.window.titlePattern] : []), ...platform.headerExtras]
    for (const pattern of patterns) {
      try {
        new RegExp(pattern, 'u')
      } catch (error) {
        problems.push(`${os}: "${pattern}" is not a regular expression (${(error as Error).message})`)
      }
    }
  }
  return problems
}
