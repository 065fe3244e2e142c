import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A small site on loopback for the browser tools' tests: a sign-in form (labels, a password field,
 * POST), the page it leads to, a link to another site and a download.
 */
export interface TestSite {
  url: string
  /** The form fields each POST carried (the test checks the password arrived). */
  posts: Array<Record<string, string>>
  close(): Promise<void>
}

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

export async function startTestSite(options: { otherSite?: string } = {}): Promise<TestSite> {
  const posts: Array<Record<string, string>> = []
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (request.method === 'POST' && url.pathname === '/login') {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        const fields = Object.fromEntries(new URLSearchParams(body))
        posts.push(fields)
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        // The result never echoes the password.
        response.end(page('Welcome', `<h1>Signed in as ${fields.username ?? '?'}</h1><p>Plan: ${fields.plan ?? 'none'}; newsletter: ${fields.news ? 'yes' : 'no'}</p>`))
      })
      return
    }
    if (request.method === 'POST' && url.pathname === '/upload') {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const name = /filename="([^"]*)"/.exec(body)?.[1] ?? 'nothing'
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        response.end(page('Uploaded', `<h1>Received ${name}</h1><p>${body.includes('hello upload') ? 'content intact' : 'content missing'}</p>`))
      })
      return
    }
    if (url.pathname === '/to') {
      response.writeHead(302, { location: url.searchParams.get('url') ?? '/' })
      response.end()
      return
    }
    if (url.pathname === '/report.csv') {
      response.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' })
      response.end('a,b\n1,2\n')
      return
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(
      page(
        'Sign in',
        `<h1>Sign in</h1>
         <form method="post" action="/login">
           <label for="u">Username</label> <input id="u" name="username">
           <label for="p">Password</label> <input id="p" name="password" type="password">
           <label for="plan">Plan</label> <select id="plan" name="plan"><option>Free</option><option>Pro</option></select>
           <label><input type="checkbox" name="news"> Newsletter</label>
           <button type="submit">Sign in</button>
         </form>
         <form method="post" action="/upload" enctype="multipart/form-data">
           <label for="f">Attachment</label> <input id="f" type="file" name="file">
           <button type="submit">Upload</button>
         </form>
         <p><a href="/report.csv">Download the report</a></p>
         ${options.otherSite ? `<p><a href="${options.otherSite}">Another site</a></p>` : ''}`
      )
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // The browser keeps connections alive; they must not hold the test up.
        server.closeAllConnections()
      })
  }
}
