/** Settings over the bridge: autonomy, provider, language, runtime, the Settings shape, and settings.* calls. */
import { z } from 'zod'
import { parseAccelerator } from '../accelerator'
import { defineCall } from './define-call'

export const AutonomySchema = z.enum(['readonly', 'supervised', 'full'])
export type Autonomy = z.infer<typeof AutonomySchema>

export const ProviderKindSchema = z.enum(['openai', 'anthropic', 'openai-compatible'])
export type ProviderKind = z.infer<typeof ProviderKindSchema>

export const LanguageSchema = z.enum(['en', 'zh-CN'])

/** Where shell commands run (docs/runtimes.md). `auto`: docker, else bwrap / sandbox-exec, else native. */
export const RuntimeChoiceSchema = z.enum(['auto', 'docker', 'bwrap', 'native'])
export type RuntimeChoice = z.infer<typeof RuntimeChoiceSchema>
export type Language = z.infer<typeof LanguageSchema>

export const ImageInputSchema = z.enum(['auto', 'on', 'off'])
export type ImageInput = z.infer<typeof ImageInputSchema>

export const SettingsSchema = z.object({
  provider: ProviderKindSchema,
  model: z.string(),
  baseUrl: z.string(),
  /** Name of the environment variable holding the key; the key itself never crosses the bridge. */
  apiKeyEnv: z.string(),
  autonomy: AutonomySchema,
  workspace: z.string(),
  language: LanguageSchema,
  maxIterations: z.number().int().min(1).max(100),
  approvalTimeoutMs: z.number().int().min(1000),
  runtime: RuntimeChoiceSchema,
  /** The sandbox image for the docker runtime. */
  dockerImage: z.string().min(1),
  /** Environment variables passed to commands even though their names look like secrets. */
  allowedEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).max(100),
  /**
   * Whether the model is sent images tools return: `auto` guesses from the provider and model
   * name, `off` sends a text note instead (for text-only models, which refuse images).
   */
  imageInput: ImageInputSchema,
  /** Screenshots are scaled down to at most this many pixels wide before the model sees them (docs/desktop.md). */
  screenshotMaxWidth: z.number().int().min(320).max(7680),
  /** Screenshots are reads and run without asking in supervised mode, unless this is on. */
  screenshotsAsk: z.boolean(),
  /** The global shortcut that stops desktop control (an Electron accelerator, e.g. Ctrl+Alt+Escape). */
  desktopStopShortcut: z
    .string()
    .min(1)
    .max(60)
    .refine((text) => parseAccelerator(text, false) !== null, 'not a shortcut (write e.g. Ctrl+Alt+Escape)'),
  /** Throwing the pointer into the top-left screen corner stops desktop control. */
  desktopFailSafe: z.boolean(),
  /**
   * Serial ports the user added by path — virtual ports (socat ptys), /dev/rfcomm0, COM7 — that the
   * OS's lister cannot show; listed while they exist (docs/devices.md).
   */
  serialPorts: z.array(z.string().min(1).max(4096)).max(50),
  /** The global shortcut that opens the quick-command palette (an Electron accelerator). */
  paletteShortcut: z
    .string()
    .min(1)
    .max(60)
    .refine((text) => parseAccelerator(text, false) !== null, 'not a shortcut (write e.g. CommandOrControl+Shift+Space)')
})
export type Settings = z.infer<typeof SettingsSchema>

export const LocalServerSchema = z.object({ name: z.string(), baseUrl: z.string(), models: z.array(z.string()) })
export type LocalServer = z.infer<typeof LocalServerSchema>

export const settingsCalls = {
  /** Model servers running on this machine (Ollama, LM Studio) with their models, for the first-run setup. */
  'providers.detectLocal': defineCall(z.object({}), z.object({ servers: z.array(LocalServerSchema) })),
  'settings.get': defineCall(z.object({}), SettingsSchema),
  'settings.update': defineCall(SettingsSchema.partial(), SettingsSchema)
} as const
