import path from "node:path";
import express from "express";

/**
 * JavaScript and CSS assets from their zopfli `.gz` twins (scripts/precompress.ts) for browsers that
 * accept gzip; anything else (no twin, no gzip) falls through to the plain static files, which the
 * compression middleware then compresses on the fly. express.static resolves the path, so nothing
 * outside the folder can be reached.
 */
export function precompressedAssets(dir: string): express.RequestHandler {
  const types: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
  const twins = express.static(dir, {
    immutable: true,
    maxAge: "1y",
    index: false,
    setHeaders(res, file) {
      res.setHeader("Content-Type", types[path.extname(file.slice(0, -3))]);
      res.setHeader("Content-Encoding", "gzip");
      res.setHeader("Vary", "Accept-Encoding");
    },
  });
  return (req, res, next) => {
    if (!/\.(js|css)$/.test(req.path) || !/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) return next();
    const url = req.url;
    req.url = req.path + ".gz";
    twins(req, res, (err?: unknown) => {
      req.url = url;
      next(err);
    });
  };
}

