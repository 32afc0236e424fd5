/** The standalone adapter: the platform over node:http, for clients in any language. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Core, type CoreRequest, type CoreResponse, coreOf } from '../core/exchange.js';
import { createPlatform } from '../core/platform.js';
import type { Platform, PlatformOptions } from '../core/types.js';

/** Options of `startServer`. */
export interface StartServerOptions {
  /** The platform to serve; a new one from `seed` when absent. */
  platform?: Platform;
  /** The port; 0 picks a free one. Default 4010. */
  port?: number;
  /** The interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The seed of the new platform (ignored when `platform` is given). Default `demo`. */
  seed?: PlatformOptions['seed'];
}

/** A running platform server. */
export interface RunningServer {
  /** Its origin, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** The platform it serves. */
  platform: Platform;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** The body, read whole; none without Content-Length or Transfer-Encoding (HTTP/1.1 framing). */
function readBody(req: IncomingMessage): Promise<string | null> | null {
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A platform that is not from `createPlatform`: through its Fetch `handle`. */
function viaFetch(platform: Platform): Core {
  return async (r: CoreRequest): Promise<CoreResponse> => {
    const response = await platform.handle(new Request(r.url, { method: r.method, headers: r.headers }), {
      ip: r.ip,
      body: r.body ?? undefined,
    });
    if (response.type === 'error') return { status: 0, headers: {}, body: null, drop: true };
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return {
      status: response.status,
      headers,
      body: response.body === null ? null : await response.text(),
      drop: false,
    };
  };
}

async function serve(core: Core, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The body is read whole and given to the core beside the request line: so a GET may carry one too.
  const pending = readBody(req);
  const body = pending === null ? null : await pending;
  const headers: Record<string, string> = {};
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin);
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end('{"code":"invalid_parameter","message":"The request target is not a valid URL"}');
    return;
  }
  const ip = req.socket.remoteAddress?.replace(/^::ffff:/, '');
  const answer = await core({ method: (req.method ?? 'GET').toUpperCase(), url, headers, body, ip });
  if (answer.drop) {
    req.socket.destroy();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}

/** Serves a platform over node:http. Resolves once it listens. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const platform = options.platform ?? createPlatform({ seed: options.seed ?? 'demo' });
  const core = coreOf(platform) ?? viaFetch(platform);
  const host = options.host ?? '127.0.0.1';
  let origin = '';
  const server = createServer((req, res) => {
    serve(core, origin, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url: origin,
    platform,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
