import type { Language } from '../../../shared/bridge'

/**
 * Risk findings in Simplified Chinese, by rule id. The engine's English message names the exact
 * program or path; a Chinese reader gets the rule's meaning here, with the span highlighted in the
 * command beside it. English shows the engine's message as is.
 */
const zh: Record<string, string> = {
  'path.outside-workspace': '路径在工作区之外。',
  'path.sensitive': '涉及存放密钥、凭据或会影响之后运行内容的敏感路径。',
  'risk.engine-error': '风险引擎出错，因此需要你确认。',
  'rule.load-error': '规则文件无法加载，在修复之前所有操作都需要询问。',
  'rule.user': '你的规则对此命令作了规定。',
  'rule.project': '项目规则对此命令作了规定。',
  'rule.saved': '你之前选择了“始终允许”。',
  'autonomy.readonly': '自主级别为“只读”：只允许读取。',
  'autonomy.full': '自主级别为“完全”：无需询问即可运行。',
  'autonomy.supervised': '自主级别为“监督”。',
  'tool.fs_write': '会修改工作区中的文件。',
  'tool.network_write': '会通过网络发送数据。',
  'tool.desktop': '会操作键盘、鼠标或屏幕。',
  'tool.hardware': '会与设备通信。',
  'tool.messaging': '会以你的名义发送消息。',
  'tool.destructive': '是破坏性操作。',
  'tool.memory': '会修改记忆。',
  'tool.shell': '会运行命令。',
  'shell.ansi-c': 'ANSI-C 字符串（$\'…\'）可以用转义拼出任意内容。',
  'shell.assignment': '设置 shell 变量，可能改变之后运行的内容。',
  'shell.background': '在后台运行命令，检查结束后它仍在运行。',
  'shell.builds': '会安装、构建或运行项目脚本。',
  'shell.control-char': '命令中含有控制字符。',
  'shell.control-flow': '循环和条件语句不会自动允许。',
  'shell.critical.backups': '删除系统的卷影副本（备份）。',
  'shell.critical.boot': '删除启动配置。',
  'shell.critical.disk': '会销毁磁盘上的数据。',
  'shell.critical.fork-bomb': 'Fork 炸弹：函数并行地调用自身。',
  'shell.critical.format': '格式化驱动器，会擦除其中内容。',
  'shell.critical.mkfs': '创建文件系统，会擦除原有数据。',
  'shell.critical.move-root': '移走根目录、系统目录或主目录。',
  'shell.critical.permissions': '递归修改根目录、系统目录或主目录的所有者或权限。',
  'shell.critical.raw-device-write': '直接向块设备写入原始数据，会破坏其内容。',
  'shell.critical.remote-code': '下载代码并直接运行。',
  'shell.critical.rm-root': '递归删除根目录、系统目录或你的主目录。',
  'shell.dangerous-expansion': '这种变量展开可以运行或重定向代码（${x@P}、${!x}）。',
  'shell.dynamic-command': '程序名要到运行时才能确定，因此无法判断。',
  'shell.dynamic-script': '运行的脚本要到运行时才能确定。',
  'shell.dynamic-word': '这个词要到运行时才能确定（花括号或算术展开）。',
  'shell.empty': '文本中没有找到命令。',
  'shell.env-dump': '会打印所有环境变量，包括密钥。',
  'shell.env-prefix': '为命令设置环境变量，可能改变它运行或加载的内容。',
  'shell.eval': 'eval 把文本当作命令运行，从不自动允许。',
  'shell.expansion': '变量的值要到运行时才知道。',
  'shell.explicit-path': '系统目录之外的程序不会仅凭名字被信任。',
  'shell.function': '定义函数，可能冒充已知程序。',
  'shell.git-config': 'git 配置会让 git 运行其他程序。',
  'shell.git-write': '这个 git 子命令会修改仓库、运行钩子或访问网络。',
  'shell.glob-command': '程序名是文件名通配模式。',
  'shell.heredoc': '向命令输入内联文本（heredoc 或 herestring），不会自动允许。',
  'shell.heredoc-to-shell': '把 heredoc 交给 shell 或解释器当作代码运行。',
  'shell.inline-code': '在命令行中直接给出要运行的代码，从不自动允许。',
  'shell.interactive-shell': '启动一个从输入读取命令的 shell。',
  'shell.interpreter': '运行一个内容未经检查的程序或脚本。',
  'shell.line-continuation': '反斜杠换行会把两行连接起来，按 bash 的方式判断。',
  'shell.nesting': 'shell 嵌套过深，无法分析。',
  'shell.network': '会访问网络。',
  'shell.non-ascii-command': '程序名含有非 ASCII 或控制字符。',
  'shell.obfuscated-command': '程序名由引号或转义拼接而成，这是常见的伪装手法。',
  'shell.parse-error': '命令有部分无法解析，因此不能判定为安全。',
  'shell.pipe-to-shell': '把文本通过管道交给 shell 或解释器当作代码运行。',
  'shell.privileged': '以提升的权限运行命令。',
  'shell.redirect-dynamic': '重定向到运行时才确定的路径。',
  'shell.redirect-write': '重定向会写入文件。',
  'shell.script-file': '运行一个内容未经检查的脚本文件。',
  'shell.source': '在当前 shell 中运行一个文件的内容。',
  'shell.substitution': '在另一个命令中运行命令（$(…)、`…` 或 <(…)）。',
  'shell.system': '会修改系统或其他进程。',
  'shell.too-long': '命令太长，不做分析。',
  'shell.unknown-construct': '无法理解的结构，因此不能判定为安全。',
  'shell.unknown-program': '该程序不在只读列表中。',
  'shell.windows': '不在只读列表中的 Windows 命令。',
  'shell.wrapper': '这个包装程序改变了命令的运行方式。',
  'shell.writes': '会修改文件。',
  'shell.xargs': 'xargs 会追加来自输入、未经检查的参数。'
}

/** The finding's text in `language`, or null to show the engine's own (English) message. */
export function findingText(rule: string, language: Language): string | null {
  if (language !== 'zh-CN') return null
  return zh[rule] ?? null
}

/** The approval preview's titles and labels, which main writes in English (the values stay exact). */
const zhPreview: Record<string, string> = {
  'Run a shell command': '运行 shell 命令',
  'Read a file': '读取文件',
  'Write a file': '写入文件',
  'Edit a file': '编辑文件',
  'List a folder': '列出文件夹',
  Command: '命令',
  Folder: '文件夹',
  Timeout: '超时',
  'Runs in': '运行位置',
  Path: '路径',
  Content: '内容',
  Replace: '替换',
  With: '替换为'
}

/** Runtime descriptions in the "Runs in" field: translated by their leading runtime name. */
const zhRuntime: Record<string, string> = {
  docker: 'docker（沙箱：无网络、系统只读、只有工作区可写）',
  bwrap: 'bwrap（沙箱：无网络、系统只读、只有工作区可写）',
  'sandbox-exec': 'sandbox-exec（沙箱：无网络、只有工作区可写）',
  native: 'native（无沙箱：直接在本机运行）'
}

export function previewText(text: string, language: Language): string {
  if (language !== 'zh-CN') return text
  return zhPreview[text] ?? text
}

/** A field's value shown translated only where it is prose from main (the runtime), never code. */
export function previewValue(label: string, value: string, language: Language): string {
  if (language !== 'zh-CN' || label !== 'Runs in') return value
  const runtime = value.split(' ')[0] ?? ''
  return zhRuntime[runtime] ?? value
}

/** Why "always allow" is not offered, from the engine's English sentence. */
export function alwaysBlockedText(reason: string, language: Language): string {
  if (language !== 'zh-CN') return reason
  const program = /^"([^"]+)" runs other code/.exec(reason)?.[1]
  if (program) return `“${program}”会运行其他代码，因此从不允许“始终允许”。`
  if (reason.startsWith('Only a single plain command')) return '只有单个普通命令（或单个文件）可以“始终允许”；这个只能允许一次或本次对话内允许。'
  return reason
}
