#!/usr/bin/env node
/**
 * What grew between two V8 heap snapshots (bench/web-memory.bench.ts writes them with
 * DESKCLAW_BENCH_HEAPSNAPSHOTS=1): live objects grouped by constructor (or by V8's type for
 * strings, code, arrays…), with the count and self size in each snapshot and the difference,
 * largest growth first. Run: node bench/heap-snapshot-diff.mjs BEFORE.heapsnapshot AFTER.heapsnapshot [rows]
 */
import { readFileSync } from 'node:fs'

function groups(file) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, 'utf8'))
  const fields = snapshot.meta.node_fields
  const types = snapshot.meta.node_types[0]
  const width = fields.length
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field))
  const byKey = new Map()
  let total = 0
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]]
    // Objects by constructor name; everything else by its kind (a string's text is not its kind).
    const key = type === 'object' || type === 'closure' ? `${type} ${strings[nodes[i + nameAt]]}` : `(${type})`
    const size = nodes[i + sizeAt]
    total += size
    const entry = byKey.get(key) ?? { count: 0, size: 0 }
    entry.count++
    entry.size += size
    byKey.set(key, entry)
  }
  return { byKey, total }
}

const [before, after, rows = '25'] = process.argv.slice(2)
if (!before || !after) {
  process.stderr.write('usage: node bench/heap-snapshot-diff.mjs BEFORE.heapsnapshot AFTER.heapsnapshot [rows]\n')
  process.exit(2)
}
const a = groups(before)
const b = groups(after)
const kib = (bytes) => (bytes / 1024).toFixed(0)
const keys = new Set([...a.byKey.keys(), ...b.byKey.keys()])
const diff = [...keys].map((key) => {
  const x = a.byKey.get(key) ?? { count: 0, size: 0 }
  const y = b.byKey.get(key) ?? { count: 0, size: 0 }
  return { key, x, y, grew: y.size - x.size }
})
diff.sort((p, q) => q.grew - p.grew)
console.log(`heap: ${kib(a.total)} KiB → ${kib(b.total)} KiB (${kib(b.total - a.total)} KiB)`)
console.log('| constructor / kind | count before | count after | KiB before | KiB after | grew KiB |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
for (const { key, x, y, grew } of diff.slice(0, Number(rows))) {
  console.log(`| ${key.replaceAll('|', '\\|')} | ${x.count} | ${y.count} | ${kib(x.size)} | ${kib(y.size)} | ${kib(grew)} |`)
}
