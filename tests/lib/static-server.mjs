// A small static file server for the built site, bound to 127.0.0.1 on a free port.
// It resolves /path to /path/index.html or /path.html as static hosts do, answers unknown paths
// with build/404.html and HTTP 404, and can mount the site under a prefix (to serve it at the
// wrong base URL on purpose).
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { createGzip } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.xsl': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Map a URL path to a file in root, or null. */
export function resolveFile(root, urlPath) {
  const clean = normalize(decodeURIComponent(urlPath.split('?')[0])).replace(/^(\.\.[/\\])+/, '');
  const base = join(root, clean);
  if (!base.startsWith(root)) return null;
  const candidates = [base, join(base, 'index.html'), `${base.replace(/\/$/, '')}.html`];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/**
 * Start serving `dir`. Options: prefix ('/sub/' serves the site under /sub/), requests (an array
 * that receives every requested path), compress (gzip text responses, for the benchmark). Resolves to { url, close }.
 */
export function serveStatic(dir, { prefix = '/', requests, compress = false } = {}) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    requests?.push(req.url);
    let path = req.url ?? '/';
    if (prefix !== '/') {
      if (!path.startsWith(prefix)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('outside the mount');
        return;
      }
      path = `/${path.slice(prefix.length)}`;
    }
    const file = resolveFile(root, path);
    if (file) {
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      // With `compress`, text is sent gzipped to a client that accepts it, as a production host does.
      if (
        compress &&
        /text|javascript|json|xml|svg/.test(type) &&
        /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
      ) {
        res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', vary: 'accept-encoding' });
        createReadStream(file).pipe(createGzip()).pipe(res);
        return;
      }
      res.writeHead(200, { 'content-type': type });
      createReadStream(file).pipe(res);
      return;
    }
    const notFound = join(root, '404.html');
    res.writeHead(404, { 'content-type': TYPES['.html'] });
    if (existsSync(notFound)) createReadStream(notFound).pipe(res);
    else res.end('Not found');
  });
  return new Promise((ok) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      ok({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}
