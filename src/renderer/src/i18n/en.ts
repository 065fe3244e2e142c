import type { ApprovalResolver, ToolCallStatus } from '../../../shared/agent-events'
import type { Autonomy, ImageInput, ProviderKind } from '../../../shared/bridge'
import type { ErrorCode } from '../../../shared/errors'
import type { RiskAssessment, Verdict } from '../../../shared/risk'

type AlwaysBlockedCode = NonNullable<RiskAssessment['alwaysBlocked']>['code']

/**
 * Keys that must exist because they are built from contract enums (`error.${code}` …): a new
 * ErrorCode or ToolCallStatus in src/shared is a compile error here until it is translated.
 */
type RequiredKeys =
  | `error.${ErrorCode}`
  | `toolStatus.${ToolCallStatus}`
  | `resolution.allow_once.${ApprovalResolver}`
  | `resolution.deny.${ApprovalResolver}`
  | `approval.verdict.${Verdict}`
  | `autonomy.${Autonomy}`
  | `autonomy.${Autonomy}.hint`
  | `provider.${ProviderKind}`
  | `imageInput.${ImageInput}`
  | AlwaysBlockedCode

/** The English dictionary is the reference: its keys are the type every other language must match. */
export const en = {
  'app.name': 'DeskClaw',

  'sidebar.newConversation': 'New conversation',
  'sidebar.empty': 'No conversations yet. Start one to give DeskClaw a task.',
  'sidebar.delete': 'Delete conversation',
  'sidebar.running': 'Working…',
  'sidebar.awaitingApproval': 'Waiting for your approval',
  'sidebar.settings': 'Settings',
  'sidebar.conversations': 'Conversations',

  'language.switchTo': '中文',
  'language.switchToTitle': 'Switch to Simplified Chinese',
  'language.en': 'English',
  'language.zh-CN': '简体中文',

  'confirm.deleteTitle': 'Delete this conversation?',
  'confirm.deleteBody': '“{title}” and its history will be removed. This cannot be undone.',
  'confirm.delete': 'Delete',
  'confirm.cancel': 'Cancel',

  'link.title': 'Open this link?',
  'link.body': 'DeskClaw will open it in your browser. Check the full address first:',
  'link.site': 'Site: {site}',
  'link.open': 'Open',
  'link.cancel': 'Cancel',
  'link.notOpened': 'Not a web or e-mail link, so it is not opened: {url}',

  'conversation.untitled': 'New conversation',
  'conversation.rename': 'Click to rename',

  'time.justNow': 'just now',

  'chat.emptyTitle': 'What should DeskClaw do?',
  'chat.emptyBody':
    'Ask a question or describe a task. DeskClaw runs tools on this computer and asks before anything risky.',
  'chat.example1': 'List the largest files in my workspace',
  'chat.example2': 'Write a short README for this project',
  'chat.example3': 'Which USB devices are connected?',
  'chat.loading': 'Loading conversation…',
  'chat.loadFailed': 'Could not load this conversation.',
  'chat.retry': 'Retry',
  'chat.thinking': 'Thinking…',
  'chat.you': 'You',
  'chat.assistant': 'DeskClaw',
  'chat.copy': 'Copy',
  'chat.copied': 'Copied',
  'chat.newMessages': 'Jump to latest',
  'chat.runCancelled': 'Stopped.',
  'chat.runMaxIterations': 'Stopped after {n} steps (the limit). Send a message to let it continue.',
  'chat.runInterrupted': 'Interrupted — DeskClaw stopped while this was running.',

  'composer.placeholder': 'Message DeskClaw…',
  'composer.send': 'Send',
  'composer.stop': 'Stop',
  'composer.hint': 'Enter to send · Shift+Enter for a new line · Esc to stop',
  'composer.sendFailed': 'Could not send: {message}',

  'tool.arguments': 'Arguments',
  'tool.output': 'Output',
  'tool.noOutput': 'No output.',
  'tool.waitingOutput': 'Waiting for output…',
  'tool.show': 'Show',
  'tool.hide': 'Hide',
  'tool.deniedReason': 'Reason: {reason}',
  'tool.runtime': 'Ran in the {runtime} runtime',
  'tool.attachments': 'Attachments',

  'attachment.loading': 'Loading image…',
  'attachment.gone': 'This image is no longer available (its conversation may have been deleted).',
  'attachment.loadFailed': 'Could not load this image: {message}',
  'attachment.image': 'Image from {tool}',
  'attachment.unnamed': 'Unnamed file',
  'attachment.fileTitle': 'A file the tool returned (not shown here)',
  'image.enlarge': 'Enlarge image',
  'image.close': 'Close',
  'image.actualSize': 'Actual size',
  'image.fitToWindow': 'Fit to window',

  'size.B': '{n} B',
  'size.KB': '{n} KB',
  'size.MB': '{n} MB',

  'toolVerdict.safe': 'Safe',
  'toolVerdict.granted': 'Allowed for this conversation',
  'toolVerdict.asked': 'Asked',
  'toolVerdict.approved': 'Approved',
  'toolVerdict.blocked': 'Blocked by policy',

  'toolStatus.pending': 'Pending',
  'toolStatus.awaiting_approval': 'Awaiting approval',
  'toolStatus.running': 'Running',
  'toolStatus.completed': 'Completed',
  'toolStatus.error': 'Error',
  'toolStatus.denied': 'Denied',
  'toolStatus.interrupted': 'Interrupted',

  'resolution.allow_once.user': 'Allowed once by you',
  'resolution.allow_once.timeout': 'Allowed (timeout)',
  'resolution.allow_once.no_front_door': 'Allowed (no window)',
  'resolution.allow_once.cancelled': 'Allowed, then cancelled',
  'resolution.allow_once.policy': 'Allowed by a rule',
  'resolution.allow_conversation.user': 'Allowed by you for this conversation',
  'resolution.allow_always.user': 'Always allowed by you — rule saved',
  'resolution.deny.user': 'Denied by you',
  'resolution.deny.timeout': 'Denied: no answer in time',
  'resolution.deny.no_front_door': 'Denied: nobody could be asked',
  'resolution.deny.cancelled': 'Cancelled',
  'resolution.deny.policy': 'Denied by a rule',

  'duration.ms': '{n} ms',
  'duration.s': '{n} s',
  'duration.m': '{m} min {s} s',

  'approval.heading': 'DeskClaw wants to run a tool',
  'approval.tool': 'Tool',
  'approval.reason': 'Why it asks',
  'approval.conversation': 'Conversation',
  'approval.denyReason': 'Reason for denying (optional, the agent sees it)',
  'approval.denyReasonPlaceholder': 'e.g. use the docs folder instead',
  'approval.allow': 'Allow once',
  'approval.allowConversation': 'Allow for this conversation',
  'approval.allowConversationTitle': 'This exact call runs without asking for the rest of this conversation.',
  'approval.allowAlways': 'Always allow',
  'approval.allowAlwaysTitle': 'Saves a rule: “{rule}” runs without asking from now on.',
  'approval.alwaysBlocked': 'Always allow is not available: {reason}',
  'approval.alwaysUnavailable': 'Always allow is not available for this call.',
  'approval.imageAlt': 'Preview image',
  'always.single-only':
    'Only a single plain command (or one file) can be allowed always; this one can only be allowed once or for this conversation.',
  'always.runs-other-code': '"{program}" runs other code, so it is never allowed always.',
  'approval.deny': 'Deny',
  'approval.verdict.allow': 'Safe',
  'approval.verdict.ask': 'Needs approval',
  'approval.verdict.deny': 'Blocked',
  'approval.countdown': 'Auto-deny in {time}',
  'approval.expired': 'Timed out — denying…',
  'approval.queue': '{n} more waiting',
  'approval.keys': 'Ctrl+Enter also allows once · Esc also denies',
  'approval.alreadySettled': 'That request was already settled.',
  'approval.respondFailed': 'Could not send your answer: {message}',

  'settings.title': 'Settings',
  'settings.section.model': 'Model',
  'settings.section.safety': 'Safety',
  'settings.section.general': 'General',
  'settings.section.desktop': 'Desktop control',
  'settings.provider': 'Provider',
  'settings.model': 'Model',
  'settings.modelHint': 'For example gpt-4.1, claude-sonnet-4-5 or qwen2.5-coder.',
  'settings.baseUrl': 'Base URL',
  'settings.baseUrlHint': 'Leave empty for the provider’s default endpoint. Required for OpenAI-compatible servers.',
  'settings.apiKeyEnv': 'API key environment variable',
  'settings.apiKeyEnvHint':
    'The name of the variable that holds the key, e.g. OPENAI_API_KEY. The key itself never reaches this window.',
  'settings.autonomy': 'Autonomy',
  'settings.workspace': 'Workspace folder',
  'settings.workspaceHint': 'The folder DeskClaw may write in. Writes elsewhere always ask or are refused.',
  'settings.allowedEnv': 'Pass these secret variables to commands',
  'settings.allowedEnvHint': 'Variables whose names look like secrets (API keys, tokens) are removed before a command runs; list the ones a command really needs, separated by commas.',
  'settings.invalidEnvName': '“{name}” is not an environment variable name.',
  'settings.runtime': 'Run shell commands in',
  'settings.dockerImage': 'Sandbox image (Docker)',
  'settings.dockerImageHint': 'Pulled on first use, or build it: docker build -t deskclaw/sandbox:1 resources/sandbox',
  'runtime.auto': 'Best available sandbox',
  'runtime.auto.hint': 'Docker if it answers, else bubblewrap (Linux) or sandbox-exec (macOS); without any, commands run directly and more of them ask.',
  'runtime.docker': 'Docker container',
  'runtime.docker.hint': 'One container per conversation: no network, read-only system, memory and process limits.',
  'runtime.bwrap': 'Bubblewrap jail (Linux)',
  'runtime.bwrap.hint': 'No network, read-only system, private /tmp; only the workspace is writable.',
  'runtime.native': 'Directly on this computer',
  'runtime.native.hint': 'No sandbox: a command can do anything you can. Only the risk checks protect you.',
  'settings.imageInput': 'Images for the model',
  'settings.imageInputHint':
    'Send images from tools (screenshots) to the model. Auto: on for OpenAI and Anthropic, and for model names that say vision on other servers.',
  'imageInput.auto': 'Auto',
  'imageInput.on': 'Always send',
  'imageInput.off': 'Never send (a text note instead)',
  'settings.screenshotMaxWidth': 'Screenshot width for the model (pixels)',
  'settings.screenshotMaxWidthHint':
    'Screenshots are scaled down to at most this width before the model sees them (320–7680). Smaller is faster and cheaper; larger shows more detail.',
  'settings.screenshotsAsk': 'Ask before screenshots',
  'settings.screenshotsAskHint':
    'In supervised mode screenshots only read the screen and run without asking. Turn this on to approve each one.',
  'firstRun.title': "Welcome to DeskClaw",
  'firstRun.body': "Choose the model DeskClaw thinks with. These model servers are running on this computer:",
  'firstRun.searching': "Looking for Ollama and LM Studio on this computer…",
  'firstRun.none': "No Ollama or LM Studio found on this computer. Choose a provider (OpenAI, Anthropic, DeepSeek, …) in Settings.",
  'firstRun.noModels': "Running, but it has no models yet.",
  'firstRun.model': "Model",
  'firstRun.use': "Use this",
  'firstRun.later': "Later",
  'firstRun.settings': "Open Settings",
  'settings.paletteShortcut': 'Palette shortcut',
  'settings.paletteShortcutHint': 'Opens the quick-command palette from anywhere (desktop app).',
  'settings.desktopStopShortcut': 'Stop shortcut',
  'settings.desktopStopShortcutHint':
    'Stops desktop control at once, even from another app, while DeskClaw controls the keyboard and mouse. Modifiers (Ctrl, Alt, Shift, Cmd, CmdOrCtrl) and one key, joined by +.',
  'settings.desktopFailSafe': 'Stop when the pointer is thrown into the top-left corner',
  'settings.desktopFailSafeHint':
    'Pushing the mouse hard into the top-left corner of the screen stops desktop control — a way out if the shortcut does not work.',
  'settings.invalidShortcut': '“{value}” is not a shortcut. Write modifiers and one key joined by +, e.g. Ctrl+Alt+Escape.',
  'settings.language': 'Language',
  'settings.maxIterations': 'Max steps per message',
  'settings.maxIterationsHint': 'Model steps before DeskClaw stops and hands back (1–100).',
  'settings.approvalTimeout': 'Approval timeout (seconds)',
  'settings.approvalTimeoutHint': 'How long an approval waits for you before it is denied.',
  'settings.save': 'Save',
  'settings.saving': 'Saving…',
  'settings.saved': 'Saved',
  'settings.close': 'Close',
  'settings.loading': 'Loading settings…',
  'settings.loadFailed': 'Could not load settings.',
  'settings.invalidInteger': '“{field}” must be a whole number from {min} to {max}.',

  'provider.openai': 'OpenAI',
  'provider.anthropic': 'Anthropic',
  'provider.openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, vLLM…)',

  'autonomy.readonly': 'Read-only',
  'autonomy.readonly.hint': 'Only reads files and the web; anything that changes something is refused.',
  'autonomy.supervised': 'Supervised',
  'autonomy.supervised.hint': 'Known-safe reads run; everything else asks you first. Recommended.',
  'autonomy.full': 'Full',
  'autonomy.full.hint': 'Runs everything except deny rules and known-dangerous commands. Use with care.',

  'connection.connecting': 'Connecting to DeskClaw…',
  'connection.lostRetryIn': 'Connection to DeskClaw lost. Reconnecting in {s} s…',
  'connection.lostRetrying': 'Connection to DeskClaw lost. Reconnecting…',
  'connection.retry': 'Retry now',

  'notice.dismiss': 'Dismiss',

  'desktop.banner': 'DeskClaw is controlling your desktop — press {shortcut} to stop',
  'desktop.shortcutWindowOnly': 'The shortcut works only while this window has focus.',
  'desktop.stop': 'Stop',
  'desktop.stopTitle': 'Stop desktop control now and release every key and button',
  'desktop.stopping': 'Stopping…',
  'desktop.stopFailed': 'Could not stop desktop control: {message}',

  'palette.title': 'Quick task',
  'palette.placeholder': 'What should DeskClaw do?',
  'palette.workspace': 'Workspace',
  'palette.workspaceHint': 'Tab, then ↑ ↓ to choose',
  'palette.noWorkspaces': 'The workspace in Settings',
  'palette.run': 'Run',
  'palette.hintIdle': 'Enter to run · Shift+Enter for a new line · Esc to close',
  'palette.hintIdleWeb': 'Enter to run · Shift+Enter for a new line · Esc to clear',
  'palette.hintTask': 'Esc to close · {mod}+N for a new task',
  'palette.hintTaskWeb': 'Esc to clear · {mod}+N for a new task',
  'palette.starting': 'Starting…',
  'palette.running': 'Working…',
  'palette.steps': '{n} steps',
  'palette.step': '1 step',
  'palette.done': 'Done',
  'palette.failed': 'Failed',
  'palette.cancelled': 'Stopped',
  'palette.interrupted': 'Interrupted',
  'palette.awaitingApproval': 'Waiting for your approval',
  'palette.stop': 'Stop',
  'palette.newTask': 'New task',
  'palette.open': 'Open in DeskClaw',
  'palette.openFailed': 'Could not open DeskClaw: {message}',
  'palette.startFailed': 'Could not start the task: {message}',
  'palette.answer': 'Answer',
  'palette.showDetails': 'Show details',
  'palette.hideDetails': 'Hide details',

  'error.VALIDATION_FAILED': 'Invalid input',
  'error.NOT_FOUND': 'Not found',
  'error.UNKNOWN_CALL': 'Unsupported request',
  'error.FORBIDDEN': 'Not allowed',
  'error.BUSY': 'DeskClaw is busy with this conversation',
  'error.MODEL_UNREACHABLE': 'The model service cannot be reached',
  'error.MODEL_AUTH': 'The model service rejected the API key',
  'error.MODEL_NOT_FOUND': 'The model was not found',
  'error.MODEL_RATE_LIMITED': 'The model service is rate limiting requests',
  'error.MODEL_ERROR': 'The model returned an error',
  'error.NOT_CONFIGURED': 'No model is configured — open Settings',
  'error.CANCELLED': 'Cancelled',
  'error.INTERNAL': 'Something went wrong',
  'error.unknown': 'Error'
} as const satisfies Record<RequiredKeys, string> & Record<string, string>

export type MessageKey = keyof typeof en
/** Every language is a complete, string-valued copy of the English keys (missing or extra key = compile error). */
export type Dictionary = { readonly [K in MessageKey]: string }
