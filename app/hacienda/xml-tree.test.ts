/**
 * Limits of the light XML tree (xml-tree.ts) against hostile received documents: the attributes
 * of one element are bounded and checked for duplicates in one pass, and the namespaces in scope
 * are chained from the parent instead of copied. Well-formedness in general is judged against
 * xmllint in c14n.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HaciendaError } from "./errors.ts";
import { parseXmlTreeSafely } from "./safe-xml.ts";
import { samplesDir } from "./testing/samples.ts";
import { findElements, MAX_ATTRIBUTES, NS_XML, parseXmlTree, XmlTreeError, type XmlTreeElement } from "./xml-tree.ts";

const attrs = (n: number, name = (k: number) => `a${k}`) => Array.from({ length: n }, (_, k) => `${name(k)}="${k}"`).join(" ");

describe("attributes of one element", () => {
  it("allows 256 attributes, namespace declarations included", () => {
    expect(MAX_ATTRIBUTES).toBe(256);
    const { root } = parseXmlTree(`<r xmlns="urn:r" xmlns:p="urn:p" ${attrs(MAX_ATTRIBUTES - 3)} p:x="1"/>`);
    expect(root.attrs).toHaveLength(MAX_ATTRIBUTES - 2);
    expect(root.nsDecls).toHaveLength(2);
    expect(root.attrs.at(-1)).toMatchObject({ qname: "p:x", ns: "urn:p", value: "1" });
  });

  it("refuses one more, saying why and where", () => {
    expect(() => parseXmlTree(`<r>\n<e ${attrs(MAX_ATTRIBUTES + 1)}/></r>`)).toThrow(
      new XmlTreeError("<e> tiene más de 256 atributos, algo que ningún comprobante tiene", 2),
    );
    // Declarations count: they are attributes of the start tag too.
    expect(() => parseXmlTree(`<r ${attrs(MAX_ATTRIBUTES, (k) => `xmlns:p${k}`)} b="1"/>`)).toThrow(/<r> tiene más de 256 atributos/);
  });

  it("refuses 160,000 attributes (1.6 MB) as soon as the 257th is read, through the intake's Spanish message", () => {
    // The shape of the review's probe: before the cap and the set, every attribute was compared with
    // all the earlier ones (160,000 attributes: about five minutes of one engine thread).
    const xml = `<r ${attrs(160_000)}/>`;
    let error: unknown;
    try {
      parseXmlTreeSafely(xml);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HaciendaError);
    expect((error as HaciendaError).code).toBe("XML_MALFORMED");
    expect((error as HaciendaError).message).toBe(
      "El XML está dañado y no se puede leer (línea 1: <r> tiene más de 256 atributos, algo que ningún comprobante tiene). Pida al emisor que le reenvíe el archivo original.",
    );
  });

  it("still refuses a repeated attribute, wherever the repetition is", () => {
    expect(() => parseXmlTree(`<r ${attrs(200)} a0="x"/>`)).toThrow(new XmlTreeError("el atributo a0 está repetido en <r>", 1));
    expect(() => parseXmlTree(`<r ${attrs(3)} a2="x"/>`)).toThrow("el atributo a2 está repetido en <r>");
    expect(() => parseXmlTree(`<r xmlns:p="urn:p" ${attrs(100)} xmlns:p="urn:q"/>`)).toThrow("el atributo xmlns:p está repetido en <r>");
    // The same expanded name under two prefixes.
    expect(() => parseXmlTree(`<r xmlns:p="urn:p" xmlns:q="urn:p" ${attrs(100)} p:x="1" q:x="2"/>`)).toThrow("el atributo q:x está repetido en <r>");
  });

  it("parses every real sample and keeps far below the limit", () => {
    const files = readdirSync(samplesDir).filter((f) => f.endsWith(".xml"));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const { root } = parseXmlTreeSafely(readFileSync(join(samplesDir, f)));
      for (const el of [root, ...findElements(root, () => true)]) expect(el.attrs.length + el.nsDecls.length).toBeLessThan(16);
    }
  });
});

describe("namespaces in scope", () => {
  const xml = [
    '<a xmlns="urn:d" xmlns:p="urn:p">',
    '<b xmlns:q="urn:q"><c xmlns:p="urn:p2" xmlns="" p:x="1" q:y="2"/><d/></b>',
    "<e/>",
    "</a>",
  ].join("");
  const { root } = parseXmlTree(xml);
  const [b, e] = root.children as XmlTreeElement[];
  const [c, d] = b!.children as XmlTreeElement[];

  it("resolves through every ancestor, the nearest declaration winning", () => {
    expect(c!.attrs.map((x) => [x.qname, x.ns])).toEqual([
      ["p:x", "urn:p2"],
      ["q:y", "urn:q"],
    ]);
    expect(c!.ns).toBe("");
    expect(d!.ns).toBe("urn:d");
    expect(c!.scope.get("p")).toBe("urn:p2");
    expect(c!.scope.get("xml")).toBe(NS_XML);
    expect(c!.scope.has("q")).toBe(true);
    expect(e!.scope.has("q")).toBe(false);
    expect(e!.scope.get("q")).toBeUndefined();
  });

  it("lists each prefix once with its nearest binding, in the order of first declaration", () => {
    expect([...c!.scope]).toEqual([
      ["xml", NS_XML],
      ["", ""],
      ["p", "urn:p2"],
      ["q", "urn:q"],
    ]);
    expect(c!.scope.size).toBe(4);
    expect([...c!.scope.keys()]).toEqual(["xml", "", "p", "q"]);
    expect([...c!.scope.values()]).toEqual([NS_XML, "", "urn:p2", "urn:q"]);
    const seen: string[] = [];
    c!.scope.forEach((uri, prefix, map) => {
      expect(map).toBe(c!.scope);
      seen.push(`${prefix}=${uri}`);
    });
    expect(seen).toEqual([`xml=${NS_XML}`, "=", "p=urn:p2", "q=urn:q"]);
    expect(Object.fromEntries(root.scope.entries())).toEqual({ xml: NS_XML, "": "urn:d", p: "urn:p" });
  });

  it("shares the parent's scope when an element declares nothing", () => {
    expect(d!.scope).toBe(b!.scope);
    expect(e!.scope).toBe(root.scope);
  });

  it("refuses a prefix declared only on a sibling", () => {
    expect(() => parseXmlTree('<a><b xmlns:p="urn:p"/><p:c/></a>')).toThrow("el prefijo «p» de <p:c> no está declarado");
  });
});
