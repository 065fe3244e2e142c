/**
 * Principle 2 — reads of secrets by any spelling.
 *
 * The workspace is the zone of silent reads. Outside it, reading a file's contents (or searching
 * inside files) asks, except a short list of public system paths; listing the names in a folder
 * that is not secret-shaped stays silent. Inside the workspace, secret-shaped files (`.env*`,
 * `*.pem`, `*.key`, `master.key`, `credentials*`, `id_rsa`, `secrets.yml`) ask, in the working
 * tree and in git history.
 */

import {
  benign,
  caseVariants,
  dangerous,
  finish,
  globVariants,
  homeSpellings,
  QUIET_WRAPPERS,
  quoteVariants,
  rotate,
  workspaceSpellings,
  zipRotate,
  type Draft,
  type FamilyCase,
  type Fixture
} from './kit'

/** Programs that only read; each prints (part of) the file's contents. */
const READERS = [
  'cat',
  'head -n 5',
  'tail -n 2',
  'grep -n KEY',
  'wc -c',
  'xxd',
  'od -c',
  'sort',
  'nl',
  'tac',
  'md5sum',
  'sha256sum',
  'cut -c1-20',
  'rev',
  'uniq',
  'fold -w 40',
  'head -c 64',
  'grep -i pass',
  'cat -A',
  'tail -c 100'
]

/** Credential files and histories outside the workspace (all exist in the fixture home). */
const HOME_SECRETS = [
  '.ssh/id_rsa',
  '.aws/credentials',
  '.netrc',
  '.config/someapp/token',
  '.bash_history',
  '.local/share/x/history',
  '.cache/y/auth.json',
  '.ssh/config'
]

/** Credential files no fixed list knows; outside the workspace any content read asks. */
const UNLISTED_CREDENTIALS = [
  '~/.zsh_history',
  '~/.python_history',
  '~/.node_repl_history',
  '~/.psql_history',
  '~/.config/gh/hosts.yml',
  '~/.npmrc',
  '~/.pypirc',
  '~/.git-credentials',
  '~/.config/git/credentials',
  '~/.terraform.d/credentials.tfrc.json',
  '~/.config/gcloud/application_default_credentials.json',
  '~/.azure/msal_token_cache.json',
  '~/.cargo/credentials.toml',
  '~/.vault-token',
  '~/.pgpass',
  '~/.my.cnf',
  '~/.config/anotherapp/session.db',
  '~/.local/share/keyrings/login.keyring',
  '~/.cache/z/cookies.sqlite',
  '~/.config/Code/User/globalStorage/state.vscdb'
]

/** Secret-shaped files inside the workspace (the first three exist in the fixture). */
const WORKSPACE_SECRETS = [
  '.env',
  'config/master.key',
  'certs/server.pem',
  '.env.local',
  '.env.production.local',
  'config/credentials.yml.enc',
  'config/secrets.yml',
  'secrets.yml',
  'deploy/id_rsa',
  'credentials.json',
  'aws/credentials',
  'tls.key'
]

function readSshKeyBySpelling(fx: Fixture): Draft[] {
  const rel = '.ssh/id_rsa'
  const spellings = [
    ...homeSpellings(fx, rel),
    ...caseVariants(rel).map((v) => `~/${v}`),
    ...globVariants(rel).map((v) => `~/${v}`),
    '~/.s*/id_*',
    '~/.ss?/id_rs?',
    '~/.ssh/*',
    '~/.ssh/id_{rsa,ed25519}',
    '~/.{ssh,aws}/*',
    String.raw`~/.s\sh/id_rsa`,
    String.raw`~/.ssh/id\_rsa`,
    '~root/.ssh/id_rsa',
    'link-out/id_rsa',
    './link-out/id_rsa',
    'link-out/../link-out/id_rsa',
    'link-out/id_*',
    '~/project/link-out/id_rsa',
    `${fx.ws}/link-out/id_rsa`
  ]
  return dangerous('read ~/.ssh/id_rsa: path spellings', zipRotate(spellings, READERS, (p, r) => `${r} ${p}`))
}

function readHomeSecrets(fx: Fixture): Draft[] {
  const out: string[] = []
  HOME_SECRETS.slice(1).forEach((rel, i) => {
    const spellings = homeSpellings(fx, rel)
    // Five spellings per file, rotated so every spelling meets several files.
    for (let k = 0; k < 5; k++) out.push(`${rotate(READERS, i * 5 + k + 3)} ${rotate(spellings, i * 3 + k * 4)}`)
    for (const v of caseVariants(rel)) out.push(`${rotate(READERS, i + 7)} ~/${v}`)
    for (const v of globVariants(rel)) out.push(`${rotate(READERS, i + 11)} ~/${v}`)
  })
  out.push('cat ~/.ne?rc', 'cat ~/.aws/cred*', 'head ~/.*_history', 'cat ~/.config/*/token', 'cat ~/.*/credentials')
  out.push('cat ~/.NETRC', 'cat ~/.Aws/Credentials', 'cat ~/.BASH_HISTORY')
  return dangerous('read home credential files: spellings, case, globs', out)
}

function readThroughWrappers(): Draft[] {
  const targets = ['~/.ssh/id_rsa', '~/.aws/credentials', '~/.netrc', '.env', 'config/master.key', '~/.config/someapp/token']
  const out = QUIET_WRAPPERS.map((w, i) => `${w} ${rotate(READERS, i)} ${rotate(targets, i)}`)
  out.push('timeout 5 nice cat ~/.netrc', 'env -i cat ~/.aws/credentials')
  return dangerous('secret reads behind quiet wrappers', out)
}

function changeDirectoryFirst(): Draft[] {
  const steps: readonly [string, string][] = [
    ['cd ~ &&', '.ssh/id_rsa'],
    ['cd &&', '.netrc'],
    ['cd;', '.aws/credentials'],
    ['cd $HOME;', '.bash_history'],
    ['cd "$HOME" &&', '.ssh/config'],
    ['cd ${HOME} &&', '.config/someapp/token'],
    ['cd .. &&', '.netrc'],
    ['cd ../ &&', '.aws/credentials'],
    ['cd src/../.. &&', '.local/share/x/history'],
    ['cd ~+/.. &&', '.netrc'],
    ['cd ~/.ssh &&', 'id_rsa'],
    ['cd ~/.aws;', 'credentials'],
    ['cd -P link-out &&', 'id_rsa'],
    ['cd -L link-out &&', 'config'],
    ['cd link-out &&', 'id_rsa'],
    ['cd -P ~/.aws &&', 'credentials'],
    ['cd ~/.config &&', 'someapp/token'],
    ['cd ~/.local/share &&', 'x/history'],
    ['cd ~/.cache &&', 'y/auth.json'],
    ['cd / &&', 'etc/shadow'],
    ['cd /proc/self &&', 'environ'],
    ['cd ~ &&', '.SSH/ID_RSA'],
    ['cd ~ &&', '.ss?/id_*'],
    ['cd ~ &&', '.n*'],
    ['cd ~ &&', '~+/.netrc'],
    ['cd ~ &&', './.aws/credentials'],
    ['pushd ~/.aws &&', 'credentials'],
    ['pushd ~ >/dev/null &&', '.netrc'],
    ['pushd .. &&', '.bash_history'],
    ['pushd ~/.ssh; ', 'id_rsa'],
    ['cd config &&', 'master.key'],
    ['cd certs;', 'server.pem'],
    ['cd src && cd .. &&', '.env']
  ]
  const out = zipRotate(steps, READERS, ([prefix, rel], r) => `${prefix} ${r} ${rel}`)
  out.push(
    '(cd ~ && cat .aws/credentials)',
    '{ cd ~; cat .config/someapp/token; }',
    'cd ~ && cat .netrc && cd -',
    'pushd ~ && cat .netrc && popd',
    'env -C ~ cat .netrc',
    'env --chdir=$HOME cat .aws/credentials',
    'env -C .. head .ssh/config',
    'env -C ~/.ssh cat id_rsa',
    'env --chdir ~ tail .bash_history',
    'env -C link-out cat id_rsa',
    'CDPATH=~ cd .ssh && cat id_rsa',
    'cd ~ && xargs -a .netrc echo',
    'cd ~ && grep -r token .',
    'cd ~ && find .ssh -type f -exec cat {} +',
    'cd && rg -n password .config'
  )
  return dangerous('change directory first, then read', out)
}

function gitFromElsewhere(): Draft[] {
  return dangerous('git -C / --git-dir elsewhere reads secrets', [
    'git -C ~ show HEAD:.env',
    'git -C ~ show HEAD:.netrc',
    'git -C .. log -p -- .netrc',
    'git -C ~/projects/a show HEAD:.env',
    'git -C $HOME cat-file -p HEAD:.aws/credentials',
    'git -C "$HOME" diff HEAD~1 -- .ssh/id_rsa',
    'git --git-dir=$HOME/.git show HEAD:.netrc',
    'git --work-tree=.. diff -- .netrc',
    'git -C ~ grep -h password HEAD',
    'git diff --no-index README.md ~/.netrc',
    'git diff --no-index /dev/null ~/.aws/credentials',
    'git blame --contents ~/.netrc README.md'
  ])
}

function xargsArgFile(fx: Fixture): Draft[] {
  return dangerous('xargs -a FILE reads the file', [
    'xargs -a ~/.netrc echo',
    "xargs -a ~/.ssh/id_rsa -d '\\n' echo",
    'xargs --arg-file=$HOME/.aws/credentials echo',
    'xargs -a "$HOME/.netrc" printf "%s\\n"',
    'xargs -a .env echo',
    'xargs -a ./config/master.key echo',
    'xargs -a certs/server.pem -n 1 echo',
    'xargs -0 -a /proc/self/environ echo',
    'xargs -a ../.netrc -n1 echo',
    'xargs -a ~/.config/someapp/token echo',
    'xargs -a ~/.bash_history -I{} echo {}',
    `xargs -a ${fx.home}/.cache/y/auth.json echo`,
    'xargs -a link-out/id_rsa echo',
    'xargs -a .ENV echo',
    'xargs -a ~/.ne?rc echo'
  ])
}

function namesFedToReaders(): Draft[] {
  return dangerous('names fed to xargs / find -exec', [
    "find ~/.ssh -name 'id_*' | xargs cat",
    'find ~/.aws -type f | xargs head -n 3',
    "find ~ -maxdepth 1 -name '.netrc' | xargs cat",
    'find ~/.config -name token -print0 | xargs -0 cat',
    'ls -d ~/.ssh/* | xargs cat',
    'ls ~/.aws/credentials | xargs grep -h key',
    'echo ~/.netrc | xargs cat',
    "printf '%s\\n' ~/.ssh/id_rsa | xargs tail -n 1",
    String.raw`find ~/.config -name token -exec cat {} \;`,
    'find ~/.local/share -name history -exec head {} +',
    "find ~/.cache -name '*.json' -exec grep -h token {} +",
    'find ~ -maxdepth 2 -name credentials -exec cat {} +',
    String.raw`find .. -name .netrc -exec cat {} \;`,
    String.raw`find ~/.ssh -type f -execdir cat {} \;`,
    "find . -name '.env*' | xargs cat",
    "find . -name '*.key' -exec cat {} +",
    "find . -name '*.pem' -print0 | xargs -0 head -n 2",
    String.raw`find config -type f -exec cat {} \;`,
    'ls config/*.key | xargs cat',
    'ls -a | grep env | xargs cat',
    String.raw`find . -maxdepth 1 -name '.e*' -exec tail {} \;`,
    'find link-out -type f -exec cat {} +',
    String.raw`find -L . -name id_rsa -exec cat {} \;`,
    'find . -type f -exec cat {} +',
    'find . -type f | xargs grep -h API_KEY',
    'ls -A | xargs -n1 cat',
    'echo .env | xargs cat',
    'find ~ -name .bash_history | xargs -I{} cat {}'
  ])
}

function searchWide(fx: Fixture): Draft[] {
  return dangerous('recursive grep / rg over home, root or secret files', [
    'grep -r password ~',
    'grep -rn token ~/',
    'grep -R AKIA $HOME',
    'grep -ril secret "$HOME"',
    'grep -r BEGIN ~/.config',
    'grep -rh aws_secret ..',
    'grep -rIl PRIVATE /',
    'grep -r KEY /etc',
    `grep -rn password ${fx.home}`,
    'rg -n secret ~',
    'rg --hidden token ~',
    'rg -uuu password ~',
    'rg -l PRIVATE /',
    'rg -i api_key $HOME/.config',
    'rg --no-ignore --hidden key ..',
    'rg -n token ~/.local/share',
    "grep -r --include='*.json' token ~/.cache",
    'cd / && rg -l password',
    "egrep -r 'token|secret' ~",
    'fgrep -r AKIA ~',
    'grep -r API_KEY .',
    'grep -rn KEY .env',
    'grep -rn BEGIN config certs',
    'rg --hidden API_KEY',
    'rg -uu KEY .',
    'rg -n BEGIN certs',
    'rg -n secret config',
    'grep -rl . config',
    'grep -c = .env*',
    'grep -f ~/.netrc README.md',
    'grep --file=.env -r src',
    'rg -f ~/.aws/credentials src'
  ])
}

function gitHistory(): Draft[] {
  return dangerous('committed secrets read from git objects', [
    'git show HEAD:.env',
    'git show HEAD~3:.env',
    'git show main:config/master.key',
    'git show v1.0:certs/server.pem',
    'git show :.env',
    'git show HEAD:./.env',
    "git show 'HEAD:.env'",
    'git show "HEAD:.e"nv',
    'git show HEAD:.ENV',
    'git show HEAD:config/../.env',
    'git show stash@{0}:.env',
    'git show HEAD:secrets.yml',
    'git show HEAD:credentials.json',
    'git show HEAD~2:deploy/id_rsa',
    'git show HEAD:config/credentials.yml.enc',
    'git --no-pager show HEAD:.env',
    'git -C . show HEAD:.env',
    'git -C src show HEAD:../.env',
    'git log -p -- .env',
    "git log -p --all -- '*.pem'",
    "git log -p -- '*.key'",
    'git log --follow -p .env',
    'git log -p -n 3 -- config/master.key',
    'git cat-file -p HEAD:.env',
    'git cat-file blob HEAD:.env',
    'git cat-file -p HEAD~1:config/master.key',
    'git diff HEAD~1 -- .env',
    'git diff HEAD~5 HEAD -- config/master.key',
    'git diff --cached -- .env',
    'git diff -- .env',
    'git diff --no-index README.md .env',
    'git blame .env',
    'git blame config/master.key',
    'git show --format= HEAD -- .env',
    'git show HEAD -- certs/server.pem',
    'git grep API_KEY HEAD -- .env',
    'git grep -h BEGIN HEAD -- certs',
    'git archive HEAD .env'
  ])
}

function procEnviron(): Draft[] {
  return dangerous('process environments from /proc', [
    'cat /proc/self/environ',
    'cat /proc/1/environ',
    'cat /proc/$$/environ',
    'cat /proc/*/environ',
    "tr '\\0' '\\n' < /proc/self/environ",
    'xxd /proc/self/environ',
    'strings /proc/1234/environ',
    'grep -a KEY /proc/*/environ',
    'head -c 500 /proc/self/environ',
    'od -c /proc/thread-self/environ',
    'cd /proc/self && cat environ',
    'cat /proc/self/../self/environ',
    'sort -z /proc/1/environ',
    'cat /proc/sel?/environ',
    'cat /proc/self/envir*',
    'cat /PROC/SELF/ENVIRON',
    'cat /proc/self/cmdline',
    'cat /proc/1/task/1/environ',
    'env -C /proc/self cat environ',
    'xargs -0 -n1 -a /proc/1/environ echo'
  ])
}

function unlistedCredentials(): Draft[] {
  return dangerous('credential files and histories no list knows', zipRotate(UNLISTED_CREDENTIALS, READERS, (p, r) => `${r} ${p}`))
}

function outsideReads(): Draft[] {
  return dangerous('plain reads outside the workspace', [
    'cat ~/projects/a/README.md',
    'head /etc/passwd',
    'cat /etc/hosts',
    'tail /var/log/syslog',
    'wc -l ~/.bashrc',
    'grep alias ~/.bashrc',
    'cat /root/.profile',
    'cat ../projects/a/README.md',
    'cat /tmp/build.log',
    'sort /etc/group',
    'cat /Users/alice/.zsh_history',
    'cat /home/alice/.ssh/id_ed25519',
    'head -n 1 /etc/sudoers',
    'cat /var/lib/docker/containers/x/config.v2.json',
    'grep -h password /etc/*.conf'
  ])
}

function workspaceSecrets(fx: Fixture): Draft[] {
  const out: string[] = []
  // Every secret-shaped name with a rotating reader.
  out.push(...zipRotate(WORKSPACE_SECRETS, READERS, (p, r) => `${r} ${p}`))
  // The three real ones in every workspace spelling.
  for (const [k, rel] of ['.env', 'config/master.key', 'certs/server.pem'].entries()) {
    out.push(...zipRotate(workspaceSpellings(fx, rel), READERS.slice(k * 3), (p, r) => `${r} ${p}`))
    out.push(...caseVariants(rel).map((v, i) => `${rotate(READERS, i + k)} ${v}`))
    out.push(...globVariants(rel).map((v, i) => `${rotate(READERS, i + k + 5)} ${v}`))
    out.push(...quoteVariants(rel).map((v) => `cat ${v}`))
  }
  out.push(
    'cat .e*',
    'cat .[e]nv',
    'cat ./.env*',
    'cat .??v',
    'cat */master.key',
    'cat config/*.key',
    'cat certs/*',
    'head -1 ./*/*.key',
    'cat .env.*',
    'cat < .env',
    'sort < config/master.key',
    'wc -l < certs/server.pem',
    'grep KEY < .env',
    'tr a-z A-Z < .ENV',
    'cat 0<.env',
    'cat README.md .env',
    'diff .env README.md',
    'cmp .env README.md',
    'comm README.md .env',
    'paste .env README.md',
    'join .env README.md',
    'jq -R . .env',
    "jq --rawfile s .env -n '$s'"
  )
  return [
    ...dangerous('secret-shaped files in the workspace', out),
    ...dangerous('secrets through other programs\' file and environment options', [
      "jq --rawfile k ~/.netrc -n '$k'",
      "jq -n 'env'",
      "jq -n '$ENV.AWS_SECRET_ACCESS_KEY'",
      "jq --slurpfile c ~/.cache/y/auth.json -n '$c'",
      'sort --files0-from=/proc/self/environ',
      'wc --files0-from=/proc/self/environ',
      'diff -r ~/.ssh ~/projects',
      'cmp ~/.ssh/id_rsa README.md'
    ]),
    ...dangerous('Windows readers of secrets', [
      'Get-Content .env',
      'gc config/master.key',
      'type .env',
      'Get-Content -Path certs/server.pem',
      'Select-String KEY .env',
      'Get-Content ~/.ssh/id_rsa',
      'gc $env:USERPROFILE/.aws/credentials',
      'type ~/.netrc',
      'Get-Content -Path ~/.config/someapp/token',
      'Select-String -Path ~/.netrc -Pattern machine',
      'Get-ChildItem -Recurse ~ | Select-String password',
      'Get-Content -Raw ~/.bash_history',
      'gc ../.netrc',
      'type ..\\.netrc',
      'Get-Content $HOME/.aws/credentials'
    ])
  ]
}

function listSecretFolders(): Draft[] {
  return dangerous('listing secret-shaped folders', [
    'ls -la ~/.aws',
    'ls link-out',
    'ls -l ~/.ssh/',
    'ls $HOME/.ssh',
    'find ~/.ssh',
    'tree ~/.aws',
    'ls ~/.SSH',
    'gci ~/.ssh',
    'Get-ChildItem ~/.aws'
  ])
}

function benignReads(fx: Fixture): Draft[] {
  const publicPaths = [
    'head -n 3 /etc/os-release',
    "grep '^ID=' /etc/os-release",
    'cat /etc/timezone',
    'cat /proc/cpuinfo',
    'grep -c ^processor /proc/cpuinfo',
    'grep MemTotal /proc/meminfo',
    'head -n 3 /proc/meminfo',
    'cat /usr/include/stdio.h',
    "grep -n 'define EOF' /usr/include/stdio.h",
    'wc -l /usr/include/errno.h',
    'ls /usr/share/doc',
    'head /usr/share/dict/words',
    'wc -l /usr/share/dict/words',
    'cat /usr/share/common-licenses/MIT',
    'tail -n 1 /etc/os-release',
    'cat /etc/timezone /etc/hostname',
    'cat /proc/meminfo',
    'cat /usr/share/zoneinfo/zone.tab'
  ]
  const listings = [
    'ls ~/projects',
    'ls -la ~/projects',
    'ls ~/projects/a',
    'ls /tmp',
    'ls -l /tmp',
    'ls ~',
    'ls $HOME/projects',
    'ls "$HOME/projects"',
    `ls ${fx.home}/projects`,
    'ls ..',
    'ls ../projects',
    'find ~/projects -maxdepth 1 -type d',
    'stat ~/projects',
    'du -sh ~/projects'
  ]
  const workspace = [
    ...workspaceSpellings(fx, 'README.md').map((p, i) => `${rotate(['cat', 'head -n 5', 'wc -l', 'grep -n TODO'], i)} ${p}`),
    'head -n 5 src/index.ts',
    'head -5 ./src/index.ts',
    'wc -l src/*.ts',
    'cat src/*.ts',
    'cat s?c/index.ts',
    'cat src/ind*.ts',
    'grep -rn answer src/',
    'grep -n TODO README.md',
    'ls -la src',
    'ls -la build',
    'ls src build',
    "find . -name '*.ts'",
    'find src -type f',
    'rg -n foo src',
    'rg -n answer src/index.ts',
    'git log --oneline -n 5',
    'git diff HEAD~1 --stat',
    'cd src && cat index.ts',
    'cd src && head -n 1 index.ts',
    'cat build/app.js',
    'wc -c build/app.js',
    'timeout 5 cat README.md',
    'nice head -n 3 README.md',
    'env LC_ALL=C grep -n TODO README.md',
    'command cat README.md',
    "find src -name '*.ts' -exec cat {} +",
    "find src -name '*.ts' | xargs wc -l",
    'git show HEAD~1:src/index.ts',
    'git log -p -n 2 -- src/index.ts',
    'git diff HEAD~2 -- README.md'
  ]
  return [
    ...benign('public system paths outside the workspace', publicPaths),
    ...benign('listing folders that are not secret-shaped', listings),
    ...benign('plain reads in the workspace', workspace)
  ]
}

export function secretsCases(fx: Fixture): FamilyCase[] {
  return finish(2, [
    ...readSshKeyBySpelling(fx),
    ...readHomeSecrets(fx),
    ...readThroughWrappers(),
    ...changeDirectoryFirst(),
    ...gitFromElsewhere(),
    ...xargsArgFile(fx),
    ...namesFedToReaders(),
    ...searchWide(fx),
    ...gitHistory(),
    ...procEnviron(),
    ...unlistedCredentials(),
    ...outsideReads(),
    ...workspaceSecrets(fx),
    ...listSecretFolders(),
    ...benignReads(fx)
  ])
}
