/**
 * node:http's own refusals, before a request reaches the server's listener (a malformed request,
 * headers over 16 KiB, a timeout, `CONNECT`): answered with the platform's JSON error too, then the
 * connection is closed.
 */
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { UNSPECIFIED_FIELD } from '../core/answers.js';

/** Why a body sent without framing is refused: Node's `http.request` sends a GET's body so unless told. */
const UNFRAMED_BODY =
  'A body followed a request that declared none: send it with Content-Length or Transfer-Encoding: chunked';

/** Whether a parse error is a JSON body after a request head with no framing (HTTP/1.1 reads it as the next request). */
function unframedBody(error: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer }): boolean {
  if (error.code !== 'HPE_INVALID_METHOD' && error.code !== 'HPE_CLOSED_CONNECTION') return false;
  // The parser stops at the JSON's first byte, or just past it after `Connection: close`.
  const at = error.bytesParsed ?? -1;
  return [at, at - 1].some((i) => error.rawPacket?.[i] === 0x7b || error.rawPacket?.[i] === 0x5b);
}

/**
 * node:http's own refusals (a malformed request, headers over 16 KiB, a timeout): the platform's
 * JSON error too, then the connection is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers exceed 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request was not received in time']
        : unframedBody(error)
          ? [400, 'malformed_request', UNFRAMED_BODY]
          : [400, 'malformed_request', 'The request is not valid HTTP/1.1'];
  endWithError(socket, status, code, message, status === 431 ? 'headers' : undefined);
}

/** Writes the platform's JSON error on a connection node:http no longer serves, and closes it. */
function endWithError(socket: Duplex, status: number, code: string, message: string, field = UNSPECIFIED_FIELD): void {
  const body = JSON.stringify({ code, field, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * `CONNECT host:port`: this server is not a proxy. node:http hands such a request over with its
 * socket, and would close it without a word: `405 method_not_allowed` as JSON, then close.
 */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  endWithError(socket, 405, 'method_not_allowed', 'CONNECT is not served: this server is not a proxy', 'method');
}
