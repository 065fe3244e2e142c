/**
 * Wall time of `true` through each runtime (no timing assertions; numbers are for the report):
 * native, bwrap, docker exec in a warm container, and a cold container (create + start + exec +
 * remove). 50 measured runs each; after the tinybench table a median / p95 table is printed.
 * Run: npx vitest bench --run --project unit bench/runtime.bench.ts
 */
import fs from 'node:fs'
import { afterAll, bench, describe } from 'vitest'
import { BwrapRuntime, DockerRuntime, NativeRuntime, type Runtime } from '../src/main/runtime'
import { dockerTestImageReady, TEST_IMAGE, tempWorkspace } from '../test/integration/runtime/helpers'
import { LatencyRecorder, latencyTable } from './runtime-latency'

const RUNS = 50
const options = { iterations: RUNS, time: 0, warmupIterations: 3, warmupTime: 0 }

const workspace = tempWorkspace('deskclaw-runtime-bench-')
const bwrapOk = (await BwrapRuntime.probe()).ok
const dockerOk = await dockerTestImageReady()
const recorder = new LatencyRecorder()

const native = new NativeRuntime()
const bwrap = new BwrapRuntime()
const docker = new DockerRuntime({ image: TEST_IMAGE })
let coldConversation = 0

const runTrue = (runtime: Runtime, conversationId?: string) =>
  runtime.exec({ command: 'true', cwd: workspace, conversationId, timeoutMs: 30_000 })

afterAll(async () => {
  await docker.close()
  fs.rmSync(workspace, { recursive: true, force: true })
  console.log(`\nRuntime latency of \`true\` (ms, last ${RUNS} runs each):\n${latencyTable(recorder.summaries(RUNS))}\n`)
})

describe('runtime: `true` end to end', () => {
  bench('native', () => recorder.time('native', () => runTrue(native)).then(() => {}), options)

  bench.skipIf(!bwrapOk)('bwrap', () => recorder.time('bwrap', () => runTrue(bwrap)).then(() => {}), options)

  bench.skipIf(!dockerOk)('docker exec, warm container', () => recorder.time('docker exec, warm container', () => runTrue(docker, 'warm')).then(() => {}), {
    ...options,
    // The first exec creates the container: not part of "warm".
    setup: async () => {
      await runTrue(docker, 'warm')
    }
  })

  bench.skipIf(!dockerOk)(
    'docker cold: create + start + exec + remove',
    () =>
      recorder
        .time('docker cold: create + start + exec + remove', async () => {
          const conversationId = `cold-${++coldConversation}`
          await runTrue(docker, conversationId)
          await docker.closeConversation(conversationId)
        })
        .then(() => {}),
    options
  )
})
