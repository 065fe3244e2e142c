/**
 * The send-text task through the accessibility tree of real chat clients from Debian (HexChat,
 * Pidgin; test/helpers/real-chat-client.ts), each on its own Xvfb + openbox talking to ngIRCd on
 * loopback, at the client's default window size: time per send (activate → chat list → open →
 * header → set the draft and read it back → send → the entry empties and the message shows).
 * Run: npx vitest bench --run --project unit bench/send-text-real-clients.bench.ts
 * Needs what .ci/run installs (ngircd, hexchat, pidgin, AT-SPI, the deskclaw-chat user as root);
 * without them it says so and measures nothing.
 */
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { builtinProfilesDir, ChatSender, MemorySendLog } from '../src/main/chat-apps'
import { DesktopService, TesseractOcr } from '../src/main/desktop'
import { accessibilityBackend, type AccessibilityBackend } from '../src/main/desktop/accessibility'
import { chatUser, hasChatClient, startChatClient, type ChatClient, type ChatClientKind } from '../test/helpers/real-chat-client'
import { hasChatServer, startChatServer, type ChatServer } from '../test/helpers/real-chat-server'
import { hasXServerTools } from '../test/helpers/xvfb'
import { LatencyRecorder, latencyTable } from './runtime-latency'

const SENDS = 20
const KINDS: ChatClientKind[] = ['hexchat', 'pidgin']
const CHANNELS = ['#张伟', '#张伟伟', '#ops', '#opt']
const available = hasXServerTools() && hasChatServer() && KINDS.every(hasChatClient) && (process.getuid?.() !== 0 || chatUser() !== undefined)
if (!available) console.warn('[bench] send-text real clients: ngircd, hexchat, pidgin, AT-SPI or the deskclaw-chat user is missing; nothing measured')

const recorder = new LatencyRecorder()
let server: ChatServer
let ocr: TesseractOcr
const rigs = new Map<ChatClientKind, { client: ChatClient; backend: AccessibilityBackend; desktop: DesktopService; sender: ChatSender; sends: number }>()

beforeAll(async () => {
  if (!available) return
  server = await startChatServer({ channels: CHANNELS, user: chatUser() })
  ocr = new TesseractOcr()
  for (const kind of KINDS) {
    const client = await startChatClient(kind, { server, nick: `bench${kind}`, channels: CHANNELS })
    const backend = accessibilityBackend('linux', { env: client.env })
    const desktop = new DesktopService({ env: client.display.env, settings: () => ({ screenshotMaxWidth: 1280, desktopFailSafe: false }) })
    const sender = new ChatSender({
      desktop,
      ocr: () => ocr,
      log: new MemorySendLog(),
      builtinDir: builtinProfilesDir(),
      platform: 'linux',
      accessibility: backend,
      settings: () => ({
        chatApps: { [kind]: { enabled: true, allowlist: [] } },
        chatSendMinIntervalSec: 0,
        chatSendPerHour: 10_000,
        chatWatermark: 'none',
        chatWatermarkSuffix: '',
        chatSendTimeoutSec: 60
      })
    })
    rigs.set(kind, { client, backend, desktop, sender, sends: 0 })
    // The windows reach the tree a moment after the client joined; warm up with one send (OCR starts on HexChat's).
    for (let tries = 0; ; tries++) {
      try {
        await send(kind)
        break
      } catch (error) {
        if (tries >= 20) throw error
        await new Promise((r) => setTimeout(r, 500))
      }
    }
  }
}, 180_000)

async function send(kind: ChatClientKind): Promise<void> {
  const rig = rigs.get(kind)!
  const to = CHANNELS[rig.sends % CHANNELS.length]!
  rig.sends++
  const outcome = await rig.sender.send({ app: kind, to, text: `第${rig.sends}条：build is green 👋`, runId: 'bench', conversationId: 'bench', confirm: async () => ({ allowed: true }) })
  if (outcome.status !== 'sent') throw new Error(`${kind} send ${rig.sends} to ${to}: ${outcome.status}: ${outcome.reason}`)
}

afterAll(async () => {
  if (!available) return
  console.log(`\nsend-text on real clients (ms, last ${SENDS} sends each; ${server.messages.length} messages received):\n${latencyTable(recorder.summaries(SENDS))}\n`)
  for (const rig of rigs.values()) {
    await rig.desktop.shutdown()
    await rig.backend.close()
    await rig.client.stop()
  }
  await ocr.close()
  await server.stop()
})

describe.skipIf(!available)('send-text on real clients', () => {
  for (const kind of KINDS) {
    bench(`${kind}: one send through the accessibility tree, verified`, () => recorder.time(`${kind}: time per send`, () => send(kind)), {
      iterations: SENDS,
      warmupIterations: 0,
      time: 0
    })
  }
})
