// The bridge between Express and React Router (what @react-router/express does), plus two things
// every answer needs (docs/decisions/111 and 113):
// - the request body limit of its route (app/domain/request-limits.ts), counted on the bytes
//   actually read — a chunked body has no Content-Length to trust — so a body past the limit costs
//   at most the limit in memory and gets 413 with a Spanish message;
// - the Content-Security-Policy of answers that did not set their own (pages set theirs with a nonce).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler as createRouterHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { writeReadableStreamToWritable } from "@react-router/node";
import { bodyLimitFor, bodyTooLargeText } from "../app/domain/request-limits.ts";
import { contentSecurityPolicy } from "../app/server/security-headers.server.ts";
import { allowAhead } from "../app/server/session-ahead.ts";
import { currentQueryStats, serverTiming, withQueryStats, type QueryStats } from "../db/query-stats.ts";
import { COMPRESS_FROM_BYTES, encodePage, pageEncoding } from "./page-compression.ts";

export class BodyTooLargeError extends Error {}

/** Chunks the reader has not taken yet, at most (the socket is paused beyond this). */
const READ_AHEAD_BYTES = 64 * 1024;

/**
 * The body of `req` as a web stream, read only as fast as it is consumed, that errors with
 * BodyTooLargeError as soon as more than `limit` bytes have arrived (and calls `onExceeded`).
 * From then on nothing is kept: the 413 is sent and the connection closed (lingerAndClose).
 */
export function limitedBody(req: IncomingMessage, limit: number, onExceeded: () => void): ReadableStream<Uint8Array> {
  let seen = 0;
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (finished) return;
          seen += chunk.length;
          if (seen > limit) {
            finished = true;
            req.pause();
            onExceeded();
            controller.error(new BodyTooLargeError(bodyTooLargeText(limit)));
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        req.once("error", (error) => {
          if (finished) return;
          finished = true;
          controller.error(error);
        });
        req.once("close", () => {
          if (finished) return;
          finished = true;
          controller.error(new Error("La conexión se cerró antes de terminar el envío."));
        });
      },
      pull() {
        if (!finished) req.resume();
      },
      cancel() {
        finished = true;
        req.pause();
      },
    },
    { highWaterMark: READ_AHEAD_BYTES, size: (chunk) => chunk.byteLength },
  );
}

function toRequest(req: ExpressRequest, res: ExpressResponse, body: ReadableStream<Uint8Array> | undefined): Request {
  const host = req.get("host") ?? "localhost";
  const url = new URL(`${req.protocol}://${host}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (body) {
    init.body = body;
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** After an answer given before the body was read to the end: how long, and how much, is still read and dropped. */
const LINGER_MS = 2000;
const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * Ends a connection whose request body was not read to the end, without losing the answer: closing
 * a socket with unread data makes the kernel reset it, and a client still sending may then never
 * see the answer. So the server half-closes (no further request on this connection), reads and
 * drops what is still arriving for a moment (nothing is kept), then closes.
 */
function lingerAndClose(req: IncomingMessage) {
  const socket = req.socket;
  if (socket.destroyed) return;
  socket.end();
  let dropped = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) close();
  });
  req.once("end", close);
  req.resume();
}

function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: number) {
  const text = bodyTooLargeText(limit);
  res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(text, () => lingerAndClose(req));
}

async function send(req: ExpressRequest, res: ExpressResponse, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // The answer's own headers replace the server's defaults (Referrer-Policy…); cookies add up.
  for (const [name, value] of response.headers.entries()) {
    if (name === "set-cookie") res.append(name, value);
    else res.setHeader(name, value);
  }
  if (!response.headers.has("Content-Security-Policy")) res.setHeader("Content-Security-Policy", contentSecurityPolicy({ pathname: req.path }));
  // Development: the request's queries so far (its loaders are done; the render streams after).
  const stats = currentQueryStats();
  if (stats) res.setHeader("Server-Timing", serverTiming(stats));
  if (!response.body) {
    res.end();
    return;
  }
  // A page is written in one piece: React hands its HTML over in many small chunks, and each one
  // written on its own costs a trip through the streams and a zlib call of its own in `compression`
  // (docs/decisions/199). The app's pages have no Suspense boundaries to stream, so the page is
  // complete within the same render; it is compressed here at once and leaves in one write, with
  // its length (server/page-compression.ts, docs/decisions/202). Other answers (files, exports,
  // .data) stay streamed through `compression`.
  if (response.headers.get("Content-Type")?.startsWith("text/html")) {
    let page: Buffer;
    try {
      page = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      if (res.destroyed || res.writableEnded) return;
      throw error;
    }
    if (res.destroyed) return;
    res.vary("Accept-Encoding");
    const encoding = req.method === "HEAD" || page.length < COMPRESS_FROM_BYTES ? "identity" : pageEncoding(req.headers["accept-encoding"]);
    if (encoding !== "identity") {
      page = encodePage(page, encoding);
      res.setHeader("Content-Encoding", encoding);
    }
    res.setHeader("Content-Length", page.length);
    res.end(page);
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}

export function createRequestHandler(opts: {
  build: ServerBuild;
  getLoadContext: () => RouterContextProvider;
  mode?: string;
  /** Count each request's queries (db/query-stats.ts must be installed): a `Server-Timing` header. */
  queryStats?: boolean;
}) {
  const handle = createRouterHandler(opts.build, opts.mode ?? process.env.NODE_ENV);
  const serve = async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const limit = bodyLimitFor(req.path);
    if (hasBody && Number(req.headers["content-length"] ?? 0) > limit) return refuseTooLarge(req, res, limit);
    let exceeded = false;
    try {
      const request = toRequest(req, res, hasBody ? limitedBody(req, limit, () => (exceeded = true)) : undefined);
      // A GET or HEAD may be answered ahead of its session's reading (app/server/session-ahead.ts).
      const context = opts.getLoadContext();
      const ahead = hasBody ? undefined : allowAhead(context);
      let response = await handle(request, context);
      if (ahead?.again) {
        // The session had changed: the answer made from its last reading is thrown away.
        await response.body?.cancel().catch(() => {});
        const retry = opts.getLoadContext();
        allowAhead(retry, ahead.again);
        response = await handle(toRequest(req, res, undefined), retry);
      }
      if (exceeded) {
        await response.body?.cancel().catch(() => {});
        return refuseTooLarge(req, res, limit);
      }
      await send(req, res, response);
      // A body the route did not read to the end (a redirect to sign in, say) is not read further.
      if (hasBody && !req.complete) lingerAndClose(req);
    } catch (error) {
      if (exceeded && !res.headersSent) return refuseTooLarge(req, res, limit);
      next(error);
    }
  };
  if (!opts.queryStats) return serve;
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => withQueryStats<Promise<void>>({ queries: 0, ms: 0 } satisfies QueryStats, () => serve(req, res, next));
}
