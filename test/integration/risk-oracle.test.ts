import fs from 'node:fs'
import os from 'node:os'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine } from '../../src/main/risk'
import { requireCapability } from '../helpers/capability'
import { BASES, generatedCommand, type Generated } from '../fixtures/oracle/mutators'
import { ExecutionOracle, mapLimit, oracleUnavailableReason, type OracleRun } from '../fixtures/oracle/sandbox'
import { shellCases } from '../unit/risk/shell-cases'

/**
 * The differential execution oracle (docs/risk.md):
 * whenever the engine says `allow`, running the command for real under bubblewrap + strace shows
 * only programs the engine considered, and nothing changes outside the workspace (nor inside it:
 * `allow` means read-only). Checked for every corpus command the engine allows and for generated
 * Bashfuscator-style mutations of dangerous commands; a sample of mutations is checked to really
 * run the dangerous program, so the generator cannot pass by producing broken commands.
 */

const unavailable = oracleUnavailableReason()
const ready = requireCapability('bwrap+strace', unavailable === null, `${unavailable ?? ''}; apt-get install bubblewrap strace`)

const SEED = Number(process.env.ORACLE_SEED ?? 20_240_611)
const NUM_RUNS = Number(process.env.ORACLE_RUNS ?? 240)
const CONCURRENCY = Number(process.env.ORACLE_CONCURRENCY ?? 6)
const SLOW = 300_000

/**
 * Programs a considered program runs as its own implementation detail. Debian's egrep and fgrep
 * are `exec grep -E/-F` shell scripts; the kernel runs the script itself, so no shell shows up.
 */
const IMPLEMENTED_BY: ReadonlyMap<string, readonly string[]> = new Map([['grep', ['egrep', 'fgrep']]])

/** Executed programs the engine did not consider. */
function unconsidered(run: OracleRun, programs: readonly string[]): string[] {
  const considered = new Set(programs)
  return run.execs
    .map((e) => e.program)
    .filter((p) => !considered.has(p) && !(IMPLEMENTED_BY.get(p) ?? []).some((parent) => considered.has(parent)))
}

/** Readable form of a command for messages (newlines shown as \n). */
const show = (command: string) => JSON.stringify(command)

/** The first `lines` lines of a long text (a trace can have thousands). */
const head = (text: string, lines: number) => {
  const all = text.split('\n')
  return all.length <= lines ? text : [...all.slice(0, lines), `… ${all.length - lines} more lines`].join('\n')
}

describe.runIf(ready)('risk engine execution oracle (bwrap + strace)', () => {
  let oracle: ExecutionOracle
  let engine: RiskEngine
  const runs = new Map<string, Promise<OracleRun>>()

  beforeAll(async () => {
    oracle = ExecutionOracle.create({ timeoutMs: 5_000, keep: process.env.ORACLE_KEEP === '1' })
    engine = await RiskEngine.create({ home: oracle.home })
    console.info(`[oracle] seed=${SEED} runs=${NUM_RUNS} concurrency=${CONCURRENCY} root=${oracle.root}`)
  })

  afterAll(() => oracle?.dispose())

  const assess = (command: string) => engine.assessShell(command, { workspace: oracle.workspace, autonomy: 'supervised' })

  /** Each distinct command runs once; fast-check replays and shrinking reuse the result. */
  const execute = (command: string): Promise<OracleRun> => {
    let run = runs.get(command)
    if (!run) {
      run = oracle.run(command)
      runs.set(command, run)
    }
    return run
  }

  /** What is wrong with an allowed command's run, or null when it kept its promise. */
  function violation(command: string): Promise<string | null> {
    const assessment = assess(command)
    return execute(command).then((run) => {
      const extra = unconsidered(run, assessment.programs)
      const problems = [
        extra.length > 0 ? `ran ${[...new Set(extra)].join(', ')}, not in the engine's programs [${assessment.programs.join(', ')}]` : '',
        run.systemCalls.length > 0 ? `tried to change the system: ${run.systemCalls.join('; ')}` : '',
        run.changedOutside.length > 0 ? `changed outside the workspace: ${run.changedOutside.join('; ')}` : '',
        run.changedInside.length > 0 ? `changed the workspace: ${run.changedInside.join('; ')}` : ''
      ].filter(Boolean)
      if (problems.length === 0) return null
      const execs = [...new Set(run.execs.map((e) => e.path))].join(' ')
      return `${show(command)} → allow, but it ${problems.join(' and ')}\n  execs: ${execs}\n  trace:\n${head(run.trace, 40)}`
    })
  }

  describe('the oracle itself', () => {
    it('reports the programs a command runs, and not its own shell', async () => {
      const run = await execute('ls | wc -l; echo $(id -u); /usr/bin/[ 1 ]')
      expect(run.execs.map((e) => e.program).sort()).toEqual(['[', 'id', 'ls', 'wc'])
      expect(run.timedOut).toBe(false)
    })

    it('sees writes in the workspace, the home and /tmp, and keeps the host untouched', async () => {
      const run = await execute('touch pwned ~/pwned /tmp/pwned; touch /etc/pwned 2>/dev/null; hostname oracle 2>/dev/null; true')
      expect(run.changedInside).toEqual(['+ pwned'])
      expect(run.changedOutside.sort()).toEqual(['+ /tmp/pwned', '+ ~/pwned'])
      expect(fs.existsSync('/etc/pwned')).toBe(false)
      expect(fs.existsSync(`${oracle.home}/pwned`)).toBe(false)
      expect(run.systemCalls.join('\n')).toMatch(/sethostname\("oracle"/)
      expect(os.hostname()).not.toBe('oracle')
    })

    it('kills a command that outlives its time limit', async () => {
      const started = Date.now()
      const run = await execute('sleep 60')
      expect(run.timedOut).toBe(true)
      expect(Date.now() - started).toBeLessThan(15_000)
    })
  })

  it(
    'every corpus command the engine allows runs only the programs it considered',
    async () => {
      const commands = [...new Set(shellCases.map((c) => c.command))]
      const allowed = commands.filter((c) => assess(c).verdict === 'allow')
      const started = Date.now()
      const problems = await mapLimit(allowed, CONCURRENCY, violation)
      const timedOut = (await Promise.all(allowed.map(execute))).filter((r) => r.timedOut).map((r) => show(r.command))
      console.info(
        `[oracle] corpus: ${commands.length} distinct commands, ${allowed.length} allowed and run in ${((Date.now() - started) / 1000).toFixed(1)} s` +
          (timedOut.length > 0 ? `; timed out (fine, programs still checked): ${timedOut.join(', ')}` : '')
      )
      expect(allowed.length).toBeGreaterThan(100)
      expect(problems.filter(Boolean)).toEqual([])
    },
    SLOW
  )

  /**
   * Engine holes this oracle found (see the report in the PR). Each is allowed today and really
   * runs a program the engine did not consider, or writes, or tries to set the clock:
   * xargs appends stdin words to a known-safe program the engine judged without them; GNU getopt
   * accepts run-together short flags and abbreviated long options the argument checks miss;
   * `sort --compress-program` runs any program on sort's temporary data.
   */
  const KNOWN_BYPASSES = [
    `echo "-exec rm -rf build ;" | xargs find .`,
    `printf '%s\\0' -delete | xargs -0 find build`,
    `echo "-c alias.l=!id l" | xargs git`,
    `echo -o pwned | xargs sort README.md`,
    `seq -f 'touch pwned%g' 300 | sort --compress-prog=sh -S 1K`,
    `seq 300 | sort --compress=id -S 1K`,
    `sort -uo pwned README.md`,
    `sort --out=pwned README.md`,
    `date -us 2020-01-01`,
    `date --se=2020-01-01`
  ]

  it.each(KNOWN_BYPASSES)('known bypass stays closed: %s', async (command) => {
    if (assess(command).verdict !== 'allow') return
    expect(await violation(command)).toBeNull()
  })

  describe('generated mutations of dangerous commands', () => {
    const bases = BASES.filter((b) => fs.existsSync(`/usr/bin/${b.argv[0]}`) && fs.existsSync(`/usr/bin/${b.marker}`))
    const arbitrary = generatedCommand(bases)
    let samples: Generated[] = []

    beforeAll(async () => {
      samples = fc.sample(arbitrary, { seed: SEED, numRuns: NUM_RUNS })
      const started = Date.now()
      await mapLimit(samples, CONCURRENCY, (g) => execute(g.command))
      console.info(`[oracle] generated: ${samples.length} commands run in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    }, SLOW)

    it(
      'allow ⇒ only considered programs ran and nothing was written',
      async () => {
        const tally = { allow: 0, ask: 0, deny: 0 }
        const allowedDangerous: string[] = []
        for (const g of samples) {
          const verdict = assess(g.command).verdict
          tally[verdict]++
          if (verdict === 'allow' && g.base.dangerous) allowedDangerous.push(`${show(g.command)} [${g.steps.join(' / ')}]`)
        }
        console.info(
          `[oracle] generated ${samples.length}: allow ${tally.allow} (dangerous base: ${allowedDangerous.length}), ask ${tally.ask}, deny ${tally.deny}` +
            (allowedDangerous.length > 0 ? `\n  allowed with a dangerous base: ${allowedDangerous.join('\n  ')}` : '')
        )
        await fc.assert(
          fc.asyncProperty(arbitrary, async (g) => {
            if (assess(g.command).verdict !== 'allow') return
            const problem = await violation(g.command)
            expect(problem, `[${g.steps.join(' / ')}]`).toBeNull()
          }),
          { seed: SEED, numRuns: NUM_RUNS }
        )
      },
      SLOW
    )

    it(
      'the mutations are sound: they really run the program they disguise',
      async () => {
        const broken: string[] = []
        for (const g of samples) {
          const run = await execute(g.command)
          const ran = run.execs.some((e) => e.program === g.base.marker)
          if (!ran) broken.push(`${show(g.command)} [${g.steps.join(' / ')}] ran [${run.execs.map((e) => e.program).join(', ')}]: ${run.stderr.trim()}`)
        }
        // `touch pwned` in particular: the file must exist afterwards, whatever the disguise.
        const touches = samples.filter((g) => g.base.argv.join(' ') === 'touch pwned')
        expect(touches.length).toBeGreaterThan(5)
        for (const g of touches) {
          const run = await execute(g.command)
          expect(run.changedInside, show(g.command)).toContain('+ pwned')
        }
        expect(broken).toEqual([])
      },
      SLOW
    )
  })
})
