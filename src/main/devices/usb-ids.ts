/**
 * Vendor and product names from the bundled usb.ids (resources/usb-ids/, BSD-3-Clause option).
 * The file is read and parsed once, on the first lookup, and cached; only the vendor and product
 * lines are kept (the class, HID, language… sections after the device list are not read). A
 * missing or unreadable file gives no names, never an error: naming falls back to the OS strings.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { findResource } from '../resources'
import { normalizeUsbId } from './views'

export interface UsbIds {
  /** The vendor's name ("Arduino SA"), or undefined. Ids in any form normalizeUsbId takes. */
  vendor(vendorId: unknown): string | undefined
  /** The product's name ("Uno R3 (CDC ACM)"), or undefined. */
  product(vendorId: unknown, productId: unknown): string | undefined
  /** What was loaded (parses the file if it was not yet). */
  info(): UsbIdsInfo
}

export interface UsbIdsInfo {
  /** The file read, or undefined when none was found. */
  file?: string
  /** The "# Version:" line's value ("2025.07.26"). */
  version?: string
  vendors: number
  products: number
  /** How long reading and parsing took. */
  parseMs: number
  /** Why there are no names (the file is missing or unreadable). */
  error?: string
}

/** Where usb.ids is looked for: the override, then resources/usb-ids/ beside the app. */
export const USB_IDS_ENV = 'DESKCLAW_USB_IDS'

/** What parseUsbIds gives. */
export interface ParsedUsbIds {
  vendors: Map<string, string>
  /** "vvvvpppp" → product name. */
  products: Map<string, string>
  info: UsbIdsInfo
}

const cache = new Map<string, ParsedUsbIds>()
const instances = new Map<string, UsbIds>()
/** Where the default file was found (looked up once). */
let defaultFile: { path: string | undefined } | null = null

/**
 * The names database. `file` overrides where it is read from; otherwise $DESKCLAW_USB_IDS, then
 * resources/usb-ids/usb.ids found beside the app (see resolveUsbIdsFile). Instances are shared per file.
 */
export function usbIds(file?: string): UsbIds {
  if (file === undefined && defaultFile === null) defaultFile = { path: resolveUsbIdsFile() }
  const path = file ?? defaultFile?.path
  const key = path ?? ''
  let instance = instances.get(key)
  if (!instance) {
    const load = (): ParsedUsbIds => {
      let parsed = cache.get(key)
      if (!parsed) {
        parsed = parseUsbIdsFile(path)
        cache.set(key, parsed)
      }
      return parsed
    }
    instance = {
      vendor: (vendorId) => {
        const vid = normalizeUsbId(vendorId)
        return vid ? load().vendors.get(vid) : undefined
      },
      product: (vendorId, productId) => {
        const vid = normalizeUsbId(vendorId)
        const pid = normalizeUsbId(productId)
        return vid && pid ? load().products.get(vid + pid) : undefined
      },
      info: () => ({ ...load().info })
    }
    instances.set(key, instance)
  }
  return instance
}

/** Forgets what was parsed (tests, or after the file was replaced). */
export function resetUsbIdsCache(): void {
  defaultFile = null
  cache.clear()
  instances.clear()
}

/**
 * The bundled usb.ids: $DESKCLAW_USB_IDS, then resources/usb-ids/usb.ids in the packaged app's
 * resources folder (electron-builder extraResources → <resources>/usb-ids/), then walking up from
 * this module: src/main/devices/ (tests), out/main/ or out/main/chunks/ (builds), app.asar/out/main/.
 */
export function resolveUsbIdsFile(env: NodeJS.ProcessEnv = process.env, from: string = __dirname): string | undefined {
  if (env[USB_IDS_ENV]) return env[USB_IDS_ENV]
  return findResource(join('usb-ids', 'usb.ids'), join('usb-ids', 'usb.ids'), from)
}

function parseUsbIdsFile(file: string | undefined): ParsedUsbIds {
  const started = performance.now()
  const empty = (error: string): ParsedUsbIds => ({
    vendors: new Map(),
    products: new Map(),
    info: { file, vendors: 0, products: 0, parseMs: performance.now() - started, error }
  })
  if (!file) return empty('usb.ids was not found (resources/usb-ids/usb.ids)')
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    return empty(`usb.ids could not be read: ${error instanceof Error ? error.message : String(error)}`)
  }
  const parsed = parseUsbIds(text)
  parsed.info.file = file
  parsed.info.parseMs = performance.now() - started
  return parsed
}

const HEX = /^[0-9a-f]{4}$/

/**
 * Parses usb.ids text: `vvvv  Vendor` lines, `\tpppp  Product` lines under them; interface lines
 * (two tabs) and comments are skipped, and parsing stops at the first other section ("C 00  …").
 */
export function parseUsbIds(text: string): ParsedUsbIds {
  const started = performance.now()
  const vendors = new Map<string, string>()
  const products = new Map<string, string>()
  let version: string | undefined
  let vendor: string | undefined
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    let line = text.slice(start, end)
    start = end + 1
    if (line.endsWith('\r')) line = line.slice(0, -1)
    const first = line.charCodeAt(0)
    if (first === 0x23 /* # */) {
      if (!version && line.startsWith('# Version:')) version = line.slice('# Version:'.length).trim()
      continue
    }
    if (line.length < 7) continue
    if (first === 0x09 /* tab */) {
      if (!vendor || line.charCodeAt(1) === 0x09) continue // no vendor yet, or an interface line
      const id = line.slice(1, 5)
      if (HEX.test(id) && line.charCodeAt(5) === 0x20) products.set(vendor + id, line.slice(5).trim())
      continue
    }
    const id = line.slice(0, 4)
    if (HEX.test(id) && line.charCodeAt(4) === 0x20) {
      vendor = id
      vendors.set(id, line.slice(4).trim())
      continue
    }
    // "C 00  Class", "AT 0001  …", "HID 00  …", "L 0001  …": the device list is over.
    if (/^[A-Z]+ /.test(line)) break
  }
  return { vendors, products, info: { version, vendors: vendors.size, products: products.size, parseMs: performance.now() - started } }
}
