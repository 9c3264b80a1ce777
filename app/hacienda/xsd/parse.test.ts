/**
 * The validator's own parser (parse.ts): namespace resolution and duplicate attributes, and the
 * document shapes that made it quadratic. Received documents reach it after the tree parser
 * (xml-tree.ts) has accepted them, so every shape below that the tree parser accepts is reachable
 * from an upload. Nothing here measures time: a quadratic parse shows up as the test running past
 * vitest's timeout (about a minute and a half each on the old code, under a second now).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildXml } from "../build.ts";
import { exampleDocument } from "../examples.ts";
import { parseXmlTreeSafely } from "../safe-xml.ts";
import { samplesDir } from "../testing/samples.ts";
import type { XmlTreeElement } from "../xml-tree.ts";
import { parseXml, XmlSyntaxError, type XNode } from "./parse.ts";

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const all = (n: XNode): XNode[] => [n, ...n.children.flatMap(all)];
const byQname = (root: XNode) => new Map(all(root).map((n) => [n.qname, n]));

describe("namespaces in scope", () => {
  const root = parseXml(
    [
      '<a xmlns="urn:d" xmlns:p="urn:p">',
      '<b xmlns:q="urn:q">',
      '<c xmlns:p="urn:p2" xmlns="" p:x="1" q:y="2" z="3"><c1/><p:c2/></c>',
      '<p:d p:x="1"/>',
      '<e xmlns:p="urn:p3"/>',
      "<p:f/>",
      "</b>",
      '<g xml:lang="es"><q:h xmlns:q="urn:q2"/></g>',
      "<p:i/>",
      "</a>",
    ].join(""),
  );
  const el = byQname(root);

  it("resolves through every ancestor, the nearest declaration winning", () => {
    expect(root).toMatchObject({ name: "a", ns: "urn:d", parent: null });
    expect(el.get("b")!.ns).toBe("urn:d");
    expect(el.get("c")!.ns).toBe("");
    expect([...el.get("c")!.attrs]).toEqual([
      ["{urn:p2}x", "1"],
      ["{urn:q}y", "2"],
      ["z", "3"],
    ]);
    expect(el.get("p:c2")).toMatchObject({ name: "c2", ns: "urn:p2" });
    expect(el.get("q:h")).toMatchObject({ name: "h", ns: "urn:q2" });
    expect([...el.get("g")!.attrs]).toEqual([[`{${XML_NS}}lang`, "es"]]);
  });

  it("gives a prefix back its outer binding once the redeclaring element closes, self-closing or not", () => {
    expect(el.get("p:d")).toMatchObject({ name: "d", ns: "urn:p" });
    expect([...el.get("p:d")!.attrs]).toEqual([["{urn:p}x", "1"]]);
    expect(el.get("e")!.ns).toBe("urn:d");
    expect(el.get("p:f")!.ns).toBe("urn:p");
    expect(el.get("p:i")!.ns).toBe("urn:p");
  });

  it('undeclares the default namespace with xmlns="" for the element and its descendants only', () => {
    expect(el.get("c")!.ns).toBe("");
    expect(el.get("c1")!.ns).toBe("");
    expect(el.get("e")!.ns).toBe("urn:d");
    expect(el.get("g")!.ns).toBe("urn:d");
    expect(parseXml('<a xmlns=""/>').ns).toBe("");
  });

  it("refuses a prefix declared only on a sibling or a closed ancestor", () => {
    const undeclared = "prefijo de espacio de nombres no declarado en <p:c>";
    expect(() => parseXml('<a><b xmlns:p="urn:p"/><p:c/></a>')).toThrow(undeclared);
    expect(() => parseXml('<a><b xmlns:p="urn:p"></b><p:c/></a>')).toThrow(undeclared);
    expect(() => parseXml('<a><b xmlns:p="urn:p"><x/></b><c p:y="1"/></a>')).toThrow("prefijo de espacio de nombres no declarado en el atributo p:y");
    expect(() => parseXml("<p:a/>")).toThrow(XmlSyntaxError);
  });

  it("agrees with the tree parser on the real samples and every example document", () => {
    const files = readdirSync(samplesDir).filter((f) => f.endsWith(".xml"));
    expect(files.length).toBeGreaterThan(0);
    const docs = [
      ...files.map((f) => readFileSync(join(samplesDir, f), "utf8")),
      ...(["fe", "te", "nc", "nd", "fec", "fee", "rep", "mr"] as const).map((k) => buildXml(exampleDocument(k))),
    ];
    const fromTree = (e: XmlTreeElement): unknown => ({
      name: e.local,
      ns: e.ns,
      attrs: e.attrs.map((a) => [a.ns ? `{${a.ns}}${a.local}` : a.local, a.value]),
      children: e.children.filter((c): c is XmlTreeElement => c.type === 1).map(fromTree),
    });
    const fromXsd = (n: XNode): unknown => ({ name: n.name, ns: n.ns, attrs: [...n.attrs], children: n.children.map(fromXsd) });
    for (const xml of docs) expect(fromXsd(parseXml(xml))).toEqual(fromTree(parseXmlTreeSafely(xml).root));
  });
});

describe("attributes", () => {
  it("refuses a repeated attribute wherever the repetition is, declarations included", () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, k) => `a${k}="${k}"`).join(" ");
    expect(() => parseXml(`<r ${attrs(200)} a0="x"/>`)).toThrow(new XmlSyntaxError("atributo a0 repetido en <r>", 1));
    expect(() => parseXml(`<r a="1" a="2"/>`)).toThrow("atributo a repetido en <r>");
    expect(() => parseXml(`<r>\n<e ${attrs(3)} a2="x"/></r>`)).toThrow(new XmlSyntaxError("atributo a2 repetido en <e>", 2));
    expect(() => parseXml(`<r xmlns:p="urn:p" ${attrs(100)} xmlns:p="urn:q"/>`)).toThrow("atributo xmlns:p repetido en <r>");
    expect(() => parseXml(`<r xmlns="urn:p" xmlns="urn:p"/>`)).toThrow("atributo xmlns repetido en <r>");
  });

  it("reads 150,000 attributes of one element in one pass (each was compared with all the earlier ones)", () => {
    // Not reachable from the intake (the tree parser stops at 256 attributes), but the validator
    // also parses what the issuing pipeline builds; the check must not depend on a caller's cap.
    const n = 150_000;
    const root = parseXml(`<r ${Array.from({ length: n }, (_, k) => `a${k}="${k}"`).join(" ")}/>`);
    expect(root.attrs.size).toBe(n);
    expect(root.attrs.get(`a${n - 1}`)).toBe(String(n - 1));
  });
});

describe("document shapes that were quadratic", () => {
  /** Nested elements each declaring `per` prefixes, then `leaves` empty children each declaring one more. */
  function nestedDeclarations(levels: number, per: number, leaves: number): string {
    let open = "";
    let close = "";
    for (let l = 0; l < levels; l++) {
      open += `<n${l} ${Array.from({ length: per }, (_, k) => `xmlns:p${l}_${k}="urn:${l}:${k}"`).join(" ")}>`;
      close = `</n${l}>${close}`;
    }
    return `${open}${'<p0_0:c xmlns:q="urn:q" q:a="1"/>'.repeat(leaves)}${close}`;
  }

  it("parses 40,000 declaring children under 60 levels of 255 declarations, a shape the intake accepts", () => {
    // Every declaring child copied all 15,300 namespaces in scope: about 1.5 s per thousand children.
    const xml = nestedDeclarations(60, 255, 40_000);
    expect(() => parseXmlTreeSafely(xml)).not.toThrow();
    const root = parseXml(xml);
    let deepest = root;
    while (deepest.children.length === 1) deepest = deepest.children[0]!;
    expect(deepest.qname).toBe("n59");
    expect(deepest.children).toHaveLength(40_000);
    expect(deepest.children[39_999]).toMatchObject({ name: "c", ns: "urn:0:0" });
    expect([...deepest.children[39_999]!.attrs]).toEqual([["{urn:q}a", "1"]]);
  });

  it("parses 20,000 declaring siblings under a root declaring 200 namespaces", () => {
    const decls = Array.from({ length: 200 }, (_, k) => `xmlns:p${k}="urn:p${k}"`).join(" ");
    const kids = Array.from({ length: 20_000 }, (_, k) => `<p199:c xmlns:q="urn:q${k}" q:a="${k}"/>`).join("");
    const root = parseXml(`<r ${decls}>${kids}</r>`);
    expect(root.children).toHaveLength(20_000);
    expect(root.children[19_999]).toMatchObject({ name: "c", ns: "urn:p199" });
    expect([...root.children[19_999]!.attrs]).toEqual([["{urn:q19999}a", "19999"]]);
  });
});
