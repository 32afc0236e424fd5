/** The standalone server's connections: the cap on them, and each one's requests answered in order. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How many requests a connection may have read and waiting behind the one being answered
 * (pipelined); one more closes it. A client that sends many requests without reading its answers
 * holds at most this many, never an answer each.
 */
export const MAX_PIPELINED = 32;

/** A connection's requests: the answer being served, and the requests read behind it (pipelined), in order. */
interface Lane {
  /** The answer the platform is making or that is being sent; the next waits until it has finished. */
  current: ServerResponse | undefined;
  /** The answers of the requests read behind it, first to serve first; none until a request is. */
  waiting: ServerResponse[] | undefined;
  /** Serves the next waiting request once `current` has finished (made on the first request that waits). */
  next: (() => void) | undefined;
}

/**
 * The open connections of a server, oldest first, with the request each is being answered. Each
 * connection's requests, with a body or without, are answered one at a time, in order: the next
 * starts once the answer before it has finished (its last byte taken by the connection), so a
 * client that sends requests and never reads the answers has one answer made at a time, not one
 * per request it sent; beyond {@link MAX_PIPELINED} requests waiting, its connection is closed. At
 * the cap, a new connection takes the place of the oldest one that holds no whole request the
 * platform is still answering (one idle between requests, one that has sent nothing or part of its
 * headers, one still sending its body, one whose answer is only waiting to be read), so sockets
 * that say nothing cannot keep a client out; only when every connection holds a request being
 * answered (its head and its body read whole) is the new one closed.
 */
export class Connections {
  /** Each connection and its requests, oldest connection first. */
  readonly #open = new Map<Socket, Lane>();

  constructor(
    readonly cap: number,
    readonly serve: (req: IncomingMessage, res: ServerResponse) => void,
  ) {}

  /** A new connection: admitted, in the place of the oldest waiting one when at the cap, or closed. */
  admit(socket: Socket): void {
    if (this.#open.size >= this.cap) {
      const waiting = this.#oldestWaiting();
      if (waiting === undefined) {
        socket.destroy();
        return;
      }
      this.#open.delete(waiting);
      waiting.destroy();
    }
    this.#open.set(socket, { current: undefined, waiting: undefined, next: undefined });
    socket.once('close', () => this.#open.delete(socket));
  }

  /**
   * A request read on a connection, with a body or without: served at once when the answer before
   * it has finished (or it is the first), else queued behind it. Nothing is allocated or listened to
   * for a request that is not pipelined: `writableFinished` tells that the answer before it is all
   * sent. A queued request's body is read when it is served: until then it waits in the
   * connection's buffers, and once they are full the connection reads nothing more (so a client
   * cannot make it hold more than those buffers and {@link MAX_PIPELINED} requests' heads).
   */
  received(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket as Socket;
    const lane = this.#open.get(socket);
    if (lane === undefined) {
      // Its connection is gone, or closed as one pipelining too much: the rest of what it sent is not served.
      if (!socket.destroyed) this.serve(req, res);
      return;
    }
    const { current } = lane;
    if (lane.waiting === undefined || lane.waiting.length === 0) {
      if (current === undefined || current.writableFinished) {
        lane.current = res;
        this.serve(req, res);
        return;
      }
      lane.waiting ??= [];
      lane.next ??= () => this.#next(socket, lane);
      current.once('finish', lane.next);
    } else if (lane.waiting.length >= MAX_PIPELINED) {
      this.#open.delete(socket);
      socket.destroy();
      return;
    }
    lane.waiting.push(res);
  }

  /** The answer before has finished: the next request waiting is served, unless the connection is closing. */
  #next(socket: Socket, lane: Lane): void {
    const waiting = lane.waiting;
    const res = waiting?.shift();
    if (waiting === undefined || res === undefined) return;
    // An answer that closes its connection (`Connection: close`) is its last: what was sent behind it is not served.
    if (socket.destroyed || !socket.writable) {
      waiting.length = 0;
      return;
    }
    lane.current = res;
    this.serve(res.req, res);
    // Not finished yet (that takes a turn of the event loop at least): the next waits for it.
    if (waiting.length > 0 && lane.next) res.once('finish', lane.next);
  }

  #oldestWaiting(): Socket | undefined {
    for (const [socket, { current }] of this.#open) {
      // Busy: a request received whole, whose answer the platform has not ended yet.
      if (current === undefined || !current.req.complete || current.writableEnded) return socket;
    }
    return undefined;
  }
}
