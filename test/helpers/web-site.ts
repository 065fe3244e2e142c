import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A small web site on loopback for the web tools' tests: routes by path, every request recorded. */
export interface TestSite {
  url: string
  port: number
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }>
  close(): Promise<void>
}

export type Route = (request: { method: string; path: string; headers: IncomingMessage['headers']; body: string }) => {
  status?: number
  headers?: Record<string, string>
  body?: string | Buffer
}

export async function startTestSite(routes: Record<string, Route>): Promise<TestSite> {
  const requests: TestSite['requests'] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const seen = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      requests.push(seen)
      const route = routes[new URL(seen.path, 'http://x').pathname]
      const answer = route ? route(seen) : { status: 404, body: 'not found' }
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...answer.headers })
      res.end(answer.body ?? '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

export const ARTICLE = `<!doctype html><html><head><title>Field notes</title></head><body>
<nav><a href="/">Home</a> · <a href="/about">About</a></nav>
<article><h1>Field notes</h1>
<p>The kettle boiled at <strong>98 °C</strong> on the hill, which is lower than at sea level because the air pressure is lower up there. ${'We measured it three times with two thermometers to be sure of the reading. '.repeat(6)}</p>
<h2>Readings</h2><ul><li>first: 98.1</li><li>second: 97.9</li></ul>
<p>See the <a href="/data/readings.csv">raw readings</a> and 中文说明。</p>
<pre><code>boil --altitude 350</code></pre>
</article><script>document.write('tracking')</script></body></html>`
