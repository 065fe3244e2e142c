import type { Locator, Page } from 'playwright-core'
import { z } from 'zod'

/**
 * How a tool names an element (docs/tools.md, "Browser"): a reference from the page snapshot, an
 * accessible role and name, a label, a placeholder or visible text — Playwright locators, never
 * pixel coordinates.
 */
export const TargetSchema = z
  .object({
    ref: z.string().regex(/^[a-z0-9]{1,20}$/i).optional().describe('A reference from browser_snapshot, e.g. "e12"'),
    role: z.string().min(1).max(40).optional().describe('An ARIA role: button, link, textbox, checkbox, combobox, radio, tab, menuitem …'),
    name: z.string().min(1).max(300).optional().describe('With role: the accessible name (its label or text)'),
    label: z.string().min(1).max(300).optional().describe('The text of the label of a form field'),
    placeholder: z.string().min(1).max(300).optional().describe('The placeholder of a form field'),
    text: z.string().min(1).max(300).optional().describe('Visible text of the element'),
    exact: z.boolean().optional().describe('Match the name, label or text exactly (default: contains, ignoring case)')
  })
  .refine((target) => [target.ref, target.role, target.label, target.placeholder, target.text].filter((given) => given !== undefined).length === 1, {
    message: 'Name the element by exactly one of ref, role (with name), label, placeholder or text.'
  })
export type Target = z.infer<typeof TargetSchema>

/** The target in a few words, for summaries, previews and errors: `button "Sign in"`, `label "Email"`. */
export function describeTarget(target: Target): string {
  if (target.ref) return `ref ${target.ref}`
  if (target.role) return target.name ? `${target.role} "${target.name}"` : target.role
  if (target.label) return `label "${target.label}"`
  if (target.placeholder) return `placeholder "${target.placeholder}"`
  return `text "${target.text ?? ''}"`
}

/** The one element the target names on the page, or why not (none, or several: be more specific). */
export async function locate(page: Page, target: Target): Promise<{ ok: true; locator: Locator } | { ok: false; reason: string }> {
  const exact = target.exact ?? false
  const locator = target.ref
    ? page.getByRef(target.ref)
    : target.role
      ? page.getByRole(target.role as Parameters<Page['getByRole']>[0], { ...(target.name ? { name: target.name } : {}), exact })
      : target.label
        ? page.getByLabel(target.label, { exact })
        : target.placeholder
          ? page.getByPlaceholder(target.placeholder, { exact })
          : page.getByText(target.text ?? '', { exact })
  let count: number
  try {
    count = await locator.count()
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return { ok: false, reason: `${describeTarget(target)} cannot be looked up: ${message}. Take a new browser_snapshot for fresh refs.` }
  }
  if (count === 0) return { ok: false, reason: `No element on the page matches ${describeTarget(target)}. Take a browser_snapshot to see what is there.` }
  if (count > 1) {
    return { ok: false, reason: `${count} elements match ${describeTarget(target)}; name one: add a role and name, set exact, or use a ref from browser_snapshot.` }
  }
  return { ok: true, locator }
}

/** What acting on an element would do, read from the page before acting (docs/risk.md, "Browser"). */
export interface ElementNature {
  password: boolean
  /** Clicking it (or Enter in it) sends its form. */
  submits: boolean
  /** The form it sends, and how. */
  formAction: string | null
  formMethod: string | null
  /** The address a link leads to. */
  href: string | null
  download: boolean
  fileInput: boolean
}

/** The few DOM members natureOf reads (main is compiled without the DOM library). */
interface PageElement {
  tagName: string
  getAttribute(name: string): string | null
  hasAttribute(name: string): boolean
  closest(selector: string): PageElement | null
  form?: PageElement | null
  action?: string
  href?: string
}

export async function natureOf(locator: Locator): Promise<ElementNature> {
  return locator.evaluate((element) => {
    const el = element as unknown as PageElement
    const tag = el.tagName.toLowerCase()
    const type = (el.getAttribute('type') ?? '').toLowerCase()
    const form = el.form ?? el.closest('form')
    const link = el.closest('a[href]')
    const button = (tag === 'button' && (type === '' || type === 'submit')) || (tag === 'input' && (type === 'submit' || type === 'image'))
    const textField = tag === 'input' && !['button', 'submit', 'reset', 'checkbox', 'radio', 'file', 'image', 'hidden'].includes(type)
    return {
      password: tag === 'input' && (type === 'password' || /password/i.test(el.getAttribute('autocomplete') ?? '')),
      submits: form !== null && (button || textField),
      formAction: form ? (form.action ?? null) : null,
      formMethod: form ? (form.getAttribute('method') ?? 'get').toLowerCase() : null,
      href: link ? (link.href ?? null) : null,
      download: link ? link.hasAttribute('download') : false,
      fileInput: tag === 'input' && type === 'file'
    }
  })
}
