export const EXIT = {
  done: 0,
  failed: 1,
  /** audit verify: the hash chain is broken. */
  tampered: 1,
  /** audit verify: the database file fails PRAGMA quick_check. */
  corrupt: 4,
  usage: 2,
  maxIterations: 3,
  cancelled: 130
} as const

export const MAIN_HELP = `deskclaw — a desktop AI agent that asks before anything risky

Usage:
  deskclaw run [options] PROMPT     run one task headless and print the answer
  deskclaw web [options]            serve the DeskClaw UI in your browser (loopback only)
  deskclaw audit verify [options]   check the database file (quick_check) and the audit log's hash chain
  deskclaw audit list [options]     print the newest audit log entries
  deskclaw risk [options] COMMAND   how the risk engine judges a shell command (--stdin: one per line, NDJSON)
                                    (--explain: the principle behind each finding, the working folders,
                                    glob matches and the paths judged)
                                    (--shell cmd: read the line as cmd.exe does; the default on Windows)
  deskclaw desktop screenshot [-o FILE] [--window TITLE] [--max-width N]
                                    save a screenshot of the screen or one window (-o -: PNG to stdout)
  deskclaw desktop windows [--json] list the open windows (title, app, bounds, focus)
  deskclaw desktop tree --window TITLE [--json] [--depth N]
                                    a window's widgets as the accessibility tree shows them (roles,
                                    names, text, states, screen extents; AT-SPI on Linux)
  deskclaw desktop apps [--json]    the chat apps send-text knows, and which are enabled
  deskclaw desktop enable|disable APP
                                    let send-text use a chat app (off until enabled), or stop it
  deskclaw desktop send-text --app ID --to NAME --text TEXT [--watermark suffix|zero-width|none]
                           [--profile FILE] [--approve ask|allow|deny] [--json]
                                    send one message to one chat, verified on screen at every step
  deskclaw desktop learn [--window TITLE] [--search-key KEY] [--send-key KEY] [--chat NAME]
                       [--try-chat NAME] [--try-text TEXT] [--id ID] [--name NAME] [--name-zh NAME]
                                    teach DeskClaw a new chat app: finds the chat, dry-sends without
                                    pressing send, saves the profile (what is not given is asked)
  deskclaw devices [--json] [--watch] [--port PATH]…
                                    USB, HID and serial devices, named (boards, adapters), and which
                                    backends are missing and why (--watch: plug and unplug as they happen)
  deskclaw serial PORT [--baud N] [--line-ending crlf|lf|cr|none]
                                    a serial console; with --send TEXT --expect TEXT [--timeout MS]
                                    for scripts: exit 0 when TEXT arrived in time, 1 otherwise
  deskclaw mcp list [--json]        the MCP servers of mcp.json in the data folder: transport, state, tools
  deskclaw mcp tools SERVER [--json]
                                    a server's tools as the model sees them (mcp__SERVER__TOOL), and
                                    which run without asking
  deskclaw mcp call SERVER TOOL [JSON] [--json]
                                    call one tool yourself with JSON arguments; prints its result
                                    (mcp takes --data-dir and --allow-env too)
  deskclaw undo RUN_ID|CALL_ID [--since] [--dry-run] [--take-checkpoint] [--json]
                                    take back what a run or one tool call changed in the workspace,
                                    after printing exactly what will change (--redo UNDO_ID: take an
                                    undo back; files changed since are kept unless --take-checkpoint)
  deskclaw schedule list|add|remove|run-now
                                    tasks run on a schedule while DeskClaw runs: add --name NAME
                                    --prompt TEXT (--cron EXPR | --at TIME) [--workspace DIR]
                                    [--autonomy LEVEL]; run-now ID runs one here (schedule --help)
  deskclaw doctor [--json]          what works here: runtimes (docker, bwrap, native) and the desktop
                                    (display server, capture, input; macOS permissions), and why not
  deskclaw --version | --help

Model options (run, web):
  --provider openai|anthropic|openai-compatible
  --base-url URL          e.g. http://localhost:11434/v1 (Ollama), https://api.deepseek.com/v1
  --model NAME            e.g. gpt-4.1-mini, claude-sonnet-4-5, qwen2.5:7b
  --api-key-env VAR       the environment variable that holds the API key
Agent options (run, web):
  --workspace DIR         the folder file tools may touch (run: default the current folder)
  --autonomy readonly|supervised|full   (default supervised: asks before anything that is not a read)
  --max-iterations N      model steps before stopping (default 10)
  --runtime auto|docker|bwrap|native   where shell commands run (default auto: docker, else bwrap on
                          Linux / sandbox-exec on macOS, else native — and then the policy is stricter)
  --docker-image NAME     the sandbox image for --runtime docker (default deskclaw/sandbox:1)
  --allow-env NAME[,NAME] also pass these variables to commands (they get only PATH, HOME, LANG, LC_*,
                          TERM, TZ, USER, LOGNAME, TMPDIR otherwise); never the model key's variable
  --image-input auto|on|off  send images tools return to the model (default auto: on for openai and
                          anthropic, and for model names that say vision)
  --tool-descriptions auto|full|compact  how tools are described to the model (default auto: compact,
                          a short sentence and a bare schema each, for context windows of 16k tokens or less)
  --data-dir DIR          where deskclaw.db lives (default: DESKCLAW_HOME or the user config folder;
                          audit takes it too)
Run options:
  --approve ask|allow|deny  answer approvals: ask on the terminal (default; deny when there is no terminal),
                            or allow / deny all of them
  --json                  print events as NDJSON, one object per line
  --conversation ID       continue a conversation
Web options:
  --host 127.0.0.1        loopback address to listen on
  --port N                port (default: a free one)
Risk options:
  --autonomy L, --workspace DIR   the context to judge in (default supervised, the current folder)
  --stdin                 read one command per line; write one JSON object per line, in order
  --json                  one JSON object: {"command","verdict","findings":[{"rule","message","span"}]}
Audit options (the database is opened read-only):
  --json                  verify: print the result as one JSON object; list: one JSON object per entry
  --limit N               list: how many of the newest entries (default 20)

Exit codes (serial --expect): 0 the text arrived, 1 it did not, or the port is missing, busy or was
disconnected (one line says which), 2 usage error.
Exit codes (desktop): 0 done, 1 the desktop is unavailable or the action failed (one line says why),
2 usage error. send-text: 0 only for "sent"; 1 for "not sent" (nothing was sent) and "unknown"
(the send key was pressed but the message could not be verified: check before sending again);
130 stopped with Ctrl+C (the line says "not sent" or "unknown").
Exit codes (run): 0 done, 1 failed (model or run error, or the disk is full), 2 usage or configuration error,
3 stopped at --max-iterations, 130 cancelled (Ctrl+C).
Exit codes (audit verify): 0 file sound and chain intact, 1 tampered (or the file cannot be read),
2 usage error or no database to check, 4 the file is damaged (PRAGMA quick_check failed).
`
