// React's server renderer for Node (react-dom/server's renderToPipeableStream, production build)
// writes a page as thousands of small pieces — '<', a tag name, ' class="', a value, '"' — and turns
// each one into UTF-8 on its own (TextEncoder.encodeInto into a 4 kB view, one native call and one
// subarray per piece). On the dashboard (40 kB of HTML) that was 0.4–0.5 ms of a 5 ms page; on a
// list 0.15 ms (docs/decisions/178).
//
// installed by server/start.ts in production, this hands the module, as Node compiles it, text in
// which the pieces stay JavaScript strings: the fixed pieces are kept as strings instead of being
// encoded once at load, the pieces of a flush are joined into one string, and that string goes to
// the stream in one write (Node encodes it in one call) when the flush completes or passes 8 kB.
// Bytes the renderer writes (none in React DOM today) still go its own way, in order. The HTML is
// the same, byte for byte; the stream simply receives fewer, larger writes. If a React version no
// longer has the text this looks for, nothing is changed and server/start.ts refuses to start.
import Module from "node:module";

export const REACT_DOM_TEXT_WRITES = Symbol.for("colibri.react-dom-text-writes");

const FILE = "/node_modules/react-dom/cjs/react-dom-server.node.production.js";

/** The fixed pieces, encoded to bytes at load by React; kept as strings here. */
const PRECOMPUTED = "function stringToPrecomputedChunk(content) {\n  return textEncoder.encode(content);\n}";
const PRECOMPUTED_AS_TEXT = "function stringToPrecomputedChunk(content) {\n  return content;\n}";

/** The names the appended text reassigns or reads; each must be declared in the module. */
const DECLARED = ["function writeChunk(", "function completeWriting(", "function writeToDestination(", "currentView = null", "writtenBytes = 0"];

/** Flush the joined text past this many characters even before the flush completes. */
const TEXT_LIMIT = 65536;

/** Appended to the module (function declarations are assignable bindings of its scope). */
export const TEXT_WRITES_SOURCE = `
;{
  const writeBytes = writeChunk;
  const completeBytes = completeWriting;
  let text = "";
  let textDestination = null;
  const flushText = () => {
    if (text === "") return;
    const out = text;
    text = "";
    writeToDestination(textDestination, out);
  };
  writeChunk = function (destination, chunk) {
    if (typeof chunk !== "string") {
      flushText();
      return writeBytes(destination, chunk);
    }
    if (destination !== textDestination) {
      flushText();
      textDestination = destination;
    }
    if (writtenBytes > 0) {
      writeToDestination(destination, currentView.subarray(0, writtenBytes));
      currentView = new Uint8Array(currentView.length);
      writtenBytes = 0;
    }
    text += chunk;
    if (text.length > ${TEXT_LIMIT}) flushText();
  };
  completeWriting = function (destination) {
    completeBytes(destination);
    flushText();
    textDestination = null;
  };
  globalThis[Symbol.for(${JSON.stringify(REACT_DOM_TEXT_WRITES.description)})] = true;
}
`;

/** The module's text with the fixed pieces as strings and TEXT_WRITES_SOURCE appended; unchanged if any expected text is missing. */
export function withTextWrites(source) {
  if (!source.includes(PRECOMPUTED) || !DECLARED.every((d) => source.includes(d))) return source;
  return source.replace(PRECOMPUTED, PRECOMPUTED_AS_TEXT) + TEXT_WRITES_SOURCE;
}

/** Rewrites React's Node server renderer as Node compiles it (it is CommonJS, loaded by require). */
export function installTextWrites() {
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    const own = filename.replaceAll("\\", "/").endsWith(FILE);
    return compile.call(this, own ? withTextWrites(content) : content, filename);
  };
}
