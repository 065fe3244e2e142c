/**
 * Version and help queries (`node --version`, `go version`, `java -version`) as specs like every
 * other allow path (docs/risk.md, "Program specs"). Each program answers only the forms listed
 * for it, alone: a bare word given to an interpreter is a file it runs (`python version`), and the
 * same letter means different things to different programs — `node -v` prints a version, while
 * `python -v` and `bash -v` are verbose modes that go on to run code from stdin.
 */
import type { ProgramSpec } from './spec'

const HELP = ['--version', '--help']

/** Extra forms beyond `--version` / `--help`, per program; `[]` means only those two. */
const FORMS: Record<string, readonly string[]> = {
  node: ['-v', '-h'], nodejs: ['-v', '-h'], npm: ['-v', '-h'], npx: ['-v'], pnpm: ['-v', '-h'], yarn: ['-v', '-h'], bun: ['-v', '-h'],
  deno: ['-V', '-h'], python: ['-V', '-h'], pip: ['-V', '-h'], pipx: [], uv: ['-V'], poetry: ['-V'], ruby: ['-v', '-h'], gem: ['-v'],
  bundle: ['-v'], perl: ['-v'], php: ['-v', '-h'], composer: ['-V'], lua: ['-v'], go: ['version'], rustc: ['-V'], cargo: ['-V'],
  rustup: ['-V'], java: ['-version', '-help'], javac: ['-version'], mvn: ['-v'], gradle: ['-v'], kotlin: ['-version'],
  scala: ['-version'], dotnet: ['--info'], gcc: [], 'g++': [], cc: [], clang: [], 'clang++': [], make: ['-v'], cmake: [], ninja: [],
  docker: ['-v', 'version'], podman: ['-v', 'version'], kubectl: [], helm: ['version'], terraform: ['-v', 'version'], git: ['version'],
  gh: ['version'], curl: ['-V'], wget: ['-V'], ssh: ['-V'], openssl: ['version'], bash: [], zsh: [], fish: [], sh: [],
  tmux: ['-V'], vim: [], nvim: ['-v'], emacs: [], code: ['-v'], swift: [], xcodebuild: ['-version'], brew: ['-v'], apt: ['-v'], dpkg: [],
  rpm: [], julia: ['-v'], elixir: ['-v'], erl: [], ghc: [], stack: [], zig: ['version'], nasm: ['-v'], ffmpeg: ['-version'],
  convert: ['-version'], magick: ['-version'], sqlite3: ['-version'], psql: ['-V'], mysql: ['-V'], 'redis-cli': ['-v'], mongo: [],
  mongod: [], nginx: ['-v', '-V'], tsc: ['-v'], eslint: ['-v'], prettier: [], jest: [], vitest: ['-v'], pytest: ['-V'], tar: [],
  zip: ['-v'], unzip: ['-v'], rsync: ['-V']
}

/** `python3.11`, `pip3`, `ruby3.2` answer as their family. */
function familyOf(program: string): string | null {
  if (Object.prototype.hasOwnProperty.call(FORMS, program)) return program
  const match = /^(python|pip|ruby|perl|php|lua)[0-9.]+$/.exec(program)
  return match ? match[1]! : null
}

const specs = new Map<string, ProgramSpec>()

/** The version spec of a program, or undefined when it answers no version query we know. */
export function versionSpecFor(program: string): ProgramSpec | undefined {
  const family = familyOf(program)
  if (family === null) return undefined
  let spec = specs.get(family)
  if (!spec) {
    const forms = [...HELP, ...FORMS[family]!]
    const words = forms.filter((f) => /^-[^-]/.test(f))
    const long = forms.filter((f) => f.startsWith('--')).map((f) => f.slice(2))
    const bare = forms.filter((f) => !f.startsWith('-'))
    spec =
      family === 'kubectl'
        ? // kubectl prints its own version without asking the cluster only with --client.
          { reads: 'none', long: ['client'], subcommands: [['version']], check: (args) => (args.includes('--client') ? null : 'kubectl version asks the cluster'), safeForms: [['version', '--client']] }
        : {
            reads: 'none',
            words,
            long,
            subcommands: [[], ...bare.map((b) => [b])],
            // Exactly one form: `node --version script.js` is not a query any more.
            check: (args) => (args.length === 1 ? null : 'only a version or help query on its own'),
            safeForms: forms.map((f) => [f])
          }
    specs.set(family, spec)
  }
  return spec
}

/** Every program with a version spec, for the generator test. */
export function versionPrograms(): string[] {
  return Object.keys(FORMS)
}
