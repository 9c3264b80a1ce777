/**
 * Entity and character references of XML 1.0 (§4.1, §4.6): the five predefined entities and
 * decimal or hexadecimal character references to characters XML allows. Anything else (another
 * entity, a reference without ';', a forbidden character) is refused with a Spanish message. One rule
 * for both parsers of the engine (xml-tree.ts and xsd/parse.ts), which pass their own error class.
 */
const ENTITY_RE = /&([^;&<]*)(;?)/g;

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

const allowed = (cp: number) =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

export function decodeReferences(s: string, line: number, fail: (message: string, line: number) => Error): string {
  if (s.indexOf("&") < 0) return s;
  return s.replace(ENTITY_RE, (m, body: string, semi: string) => {
    if (!semi) throw fail(`referencia de entidad sin cerrar «${m}»`, line);
    const predefined = PREDEFINED[body];
    if (predefined !== undefined) return predefined;
    let cp: number;
    if (/^#x[0-9a-fA-F]{1,6}$/.test(body)) cp = parseInt(body.slice(2), 16);
    else if (/^#[0-9]{1,7}$/.test(body)) cp = parseInt(body.slice(1), 10);
    else throw fail(`entidad desconocida «&${body};»`, line);
    if (!allowed(cp)) throw fail(`referencia a un carácter no permitido «&${body};»`, line);
    return String.fromCodePoint(cp);
  });
}
