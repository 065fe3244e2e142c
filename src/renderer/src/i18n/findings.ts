import type { Language } from '../../../shared/bridge'

/**
 * Risk findings in Simplified Chinese, by rule id. The engine's English message names the exact
 * program or path; a Chinese reader gets the rule's meaning here, with the span highlighted in the
 * command beside it. English shows the engine's message as is.
 */
const zh: Record<string, string> = {
  'path.outside-workspace': '路径在工作区之外。',
  'path.outside-read': '读取工作区之外的文件内容。',
  'path.hard-link': '该文件还有其他硬链接：同一个文件的另一个名字可能在工作区之外。',
  'path.special-file': '这是管道（FIFO）、套接字或设备文件：读取它可能会一直等待或产生副作用。',
  'path.network': '该路径位于另一台机器上（UNC 路径或网络自动挂载）：访问它就是网络访问。',
  'shell.redirect-unknown': '无法识别的重定向运算符，无法判断它读写什么。',
  'shell.arithmetic-subscript': '在算术上下文中，bash 会运行数组下标里的 $(…)，即使它在单引号中。',
  'shell.foreign-shell': '其他 shell 有自己的语法，无法按 bash 的规则判断它会运行什么。',
  'provenance.after-untrusted': '读取了 {sources} 之后，模型想把数据{action}到 {destination}。它读到的内容里的指令不是你的。',
  'provenance.carries-workspace': '模型想把来自工作区（{from}）的 {count} 段内容{action}到 {destination}，这个目标不是你提到的，也不能不经询问放行。此前读取过：{sources}。',
  'provenance.carries-secret': '模型想把来自密钥文件 {from} 的 {count} 段内容{action}到 {destination}。此前读取过：{sources}。',
  'provenance.persist-readonly': '只读级别：这一调用会保存之后会被执行或当作指令读取的内容（{destination}）。',
  'provenance.error': '无法判断这一调用的数据来源，因此需要询问。',
  'path.sensitive': '涉及存放密钥、凭据或会影响之后运行内容的敏感路径。',
  'path.secret-content': '该文件的内容含有令牌、密钥或密码（例如 git 远程地址中的令牌、.npmrc 中的 _authToken）。',
  'url.invalid': '这不是一个网址。',
  'url.scheme': '只获取 http 和 https 网址。',
  'url.private-address': '该网址指向本机、局域网或其他非公网地址（可能被用来访问路由器、云元数据服务或本机上的服务）。',
  'url.new-domain': '该网站尚未在设置或规则中被允许。',
  'url.domain-denied': '域名规则禁止访问该网站。',
  'url.domain-ask': '域名规则要求访问该网站前先询问。',
  'risk.engine-error': '风险引擎出错，因此需要你确认。',
  'run.changed-since-asked': '在你确认之后、运行之前，此调用涉及的文件已被替换（例如文件夹变成了指向别处的符号链接），因此需要重新确认。',
  'rule.load-error': '规则文件无法加载，在修复之前所有操作都需要询问。',
  'rule.user': '你的规则对此命令作了规定。',
  'rule.project': '项目规则对此命令作了规定。',
  'rule.saved': '你之前选择了“始终允许”。',
  'autonomy.readonly': '自主级别为“只读”：只允许读取。',
  'autonomy.full': '自主级别为“完全”：无需询问即可运行。',
  'autonomy.supervised': '自主级别为“监督”。',
  // tool.<category>_<access>: a call that is not a read (reads never produce this finding).
  'tool.fs_write': '会修改工作区中的文件。',
  'tool.fs_execute': '会运行一个文件。',
  'tool.shell_write': '会运行命令。',
  'tool.shell_execute': '会运行命令。',
  'tool.network_write': '会通过网络发送数据。',
  'tool.network_execute': '会通过网络发送数据。',
  'tool.desktop_write': '会操作键盘、鼠标或屏幕。',
  'tool.desktop_execute': '会操作键盘、鼠标或屏幕。',
  'tool.hardware_write': '会与设备通信。',
  'tool.hardware_execute': '会与设备通信。',
  'tool.memory_write': '会修改智能体的记忆。',
  'tool.asks-always': '此操作每次都需要你确认：它会设置一件之后自动执行的事。',
  'tool.unsandboxed': '这里没有可用的沙箱，此调用将直接在本机运行。',
  'tool.memory_execute': '会修改智能体的记忆。',
  'tool.messaging_write': '会以你的名义发送消息。',
  'tool.messaging_execute': '会以你的名义发送消息。',
  'tool.browser_write': '会在网页浏览器中操作。',
  'tool.browser_execute': '会在网页浏览器中操作。',
  'tool.mcp_write': 'MCP 服务器的工具，可能会修改内容。',
  'tool.mcp_execute': 'MCP 服务器的工具，可能会修改内容。',
  'shell.ansi-c': 'ANSI-C 字符串（$\'…\'）可以用转义拼出任意内容。',
  'shell.assignment': '设置 shell 变量，可能改变之后运行的内容。',
  'shell.background': '在后台运行命令，检查结束后它仍在运行。',
  'shell.builds': '会安装、构建或运行项目脚本。',
  'shell.comment-boundary': '“#”是否开始注释存在歧义，被当作注释的文本可能会运行。',
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
  'shell.parser-disagreement': '两个解析器对命令的边界或词语理解不一致，无法判定为安全。',
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
  'shell.unknown-option': '该程序的这个选项或参数不在已知安全的列表中。',
  'shell.unknown-program': '该程序不在只读列表中。',
  'shell.windows': '不在只读列表中的 Windows 命令。',
  'shell.wrapper': '这个包装程序改变了命令的运行方式。',
  'shell.writes': '会修改文件。',
  'shell.xargs': 'xargs 会追加来自输入、未经检查的参数。'
}

/** How a provenance finding's `{action}` reads in Chinese. */
const ZH_ACTIONS: Record<string, string> = { send: '发送', persist: '保存' }

/**
 * The finding's text in `language`, or null to show the engine's own (English) message. `params`
 * fill the rule's placeholders (provenance findings name sources and destinations).
 */
export function findingText(rule: string, language: Language, params?: Record<string, string | number>): string | null {
  if (language !== 'zh-CN') return null
  const template = zh[rule]
  if (template === undefined) return null
  // A template whose values were not sent (a denial names only the rule) gives way to the English message.
  if ([...template.matchAll(/\{(\w+)\}/g)].some((match) => params?.[match[1]!] === undefined)) return null
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = String(params![name])
    return name === 'action' ? (ZH_ACTIONS[value] ?? value) : value
  })
}
