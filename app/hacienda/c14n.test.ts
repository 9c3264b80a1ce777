/**
 * The light XML tree (xml-tree.ts) and the canonicalizer (c14n.ts) that verification uses
 * (decision 141): well-formedness judged like xmllint (libxml2), canonical forms equal to
 * xml-crypto's inclusive and exclusive canonicalizers over an xmldom parse.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DOMParser } from "@xmldom/xmldom";
import { C14nCanonicalization, ExclusiveCanonicalization } from "xml-crypto";
import { describe, expect, it } from "vitest";
import { canonicalHash, canonicalize, c14nMethod, C14N_10, C14N_10_COMMENTS, EXC_C14N, EXC_C14N_COMMENTS } from "./c14n.ts";
import { findElements, parseXmlTree, XmlTreeError, type XmlTreeElement } from "./xml-tree.ts";

/**
 * xmllint --noout: true when libxml2 finds the document well-formed, namespaces included (it
 * reports namespace errors but still exits 0, so its messages count too).
 */
function xmllintWellFormed(xml: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), "colibri-xmllint-"));
  try {
    writeFileSync(join(dir, "doc.xml"), xml);
    const r = spawnSync("xmllint", ["--noout", "--nonet", join(dir, "doc.xml")], { encoding: "utf8" });
    if (r.error) throw new Error(`xmllint could not run (${r.error.message}). Install it: apt-get install -y libxml2-utils`);
    return r.status === 0 && !/error/i.test(`${r.stdout}${r.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("xml-tree judges well-formedness like libxml2", () => {
  const wellFormed = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<a xmlns="urn:a"><b c="1" d=\'2\'/>text &amp; &#233;&#x20AC; <![CDATA[<x>]]></a>',
    "<a><!-- c --><?pi data?></a>\n<!-- after -->\n",
    '<p:a xmlns:p="urn:p" p:x="1" x="2"><p:b xmlns:p="urn:q"/></p:a>',
    '<a xmlns="urn:a"><b xmlns=""/></a>',
    "<a\n  b = \"1\"\n></a >",
    "\uFEFF<a/>",
  ];
  const malformed = [
    "<a><b></a></b>",
    "<a>",
    "<a></a><b></b>",
    "text<a/>",
    '<a b="1" b="2"/>',
    '<a xmlns:p="urn:p" xmlns:q="urn:p" p:x="1" q:x="2"/>',
    "<p:a/>",
    "<a>&unknown;</a>",
    "<a>&#1;</a>",
    "<a>\u0001</a>",
    "<a>]]></a>",
    "<a><!-- a -- b --></a>",
    '<a b="<"/>',
    "<a b=1/>",
    "<a><?xml version='1.0'?></a>",
    '<a xmlns:p=""/>',
    "<a>&amp</a>",
    "<1a/>",
  ];
  it.each(wellFormed)("accepts %j", (xml) => {
    expect(xmllintWellFormed(xml)).toBe(true);
    expect(() => parseXmlTree(xml)).not.toThrow();
  });
  it.each(malformed)("refuses %j", (xml) => {
    expect(xmllintWellFormed(xml)).toBe(false);
    expect(() => parseXmlTree(xml)).toThrow(XmlTreeError);
  });

  it("normalizes line ends and attribute white space as XML 1.0 says, keeping character references", () => {
    const { root } = parseXmlTree('<a v="x\ty\r\nz&#10;"><b>1\r\n2\r3&#13;</b></a>');
    expect(root.attrs[0]!.value).toBe("x y z\n");
    expect((root.children[0] as XmlTreeElement).children[0]).toEqual({ type: 3, data: "1\n2\n3\r" });
  });

  it("bounds the nesting depth", () => {
    expect(() => parseXmlTree(`${"<a>".repeat(70)}${"</a>".repeat(70)}`, { maxDepth: 64 })).toThrow(/niveles de anidamiento/);
  });
});

/** xmllint's canonical form of a whole document (with comments): libxml2's C14N, independent of ours. */
function xmllintC14n(xml: string, flag: "--c14n" | "--c14n11" | "--exc-c14n"): string {
  const dir = mkdtempSync(join(tmpdir(), "colibri-xmllint-"));
  try {
    writeFileSync(join(dir, "doc.xml"), xml);
    const r = spawnSync("xmllint", [flag, "--nonet", join(dir, "doc.xml")], { encoding: "utf8" });
    if (r.error) throw new Error(`xmllint could not run (${r.error.message}). Install it: apt-get install -y libxml2-utils`);
    if (r.status !== 0) throw new Error(`xmllint ${flag} failed: ${r.stderr}`);
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const DOC = `<?xml version="1.0"?>
<?stylesheet href="x.xsl"?>
<!-- before the root -->
<r:root xmlns:r="urn:root" xmlns="urn:default" xmlns:unused="urn:unused" xml:lang="es" b="2" a="1">
  <!-- a comment -->
  <child b="2" r:c="3" xmlns:x="urn:x">
    <x:inner xmlns="" z="&quot;&lt;&amp;&#9;&#10;" y="1">t &amp; &lt; &gt; &#13; é<![CDATA[ <cdata> & ]]></x:inner>
    <empty/>
    <?pi some data?>
  </child>
  <other xmlns="urn:other"><deep xmlns="urn:default"/></other>
</r:root>
<!-- after the root -->
`;

describe("canonicalize equals libxml2's C14N on whole documents", () => {
  const cases: Array<["--c14n" | "--c14n11" | "--exc-c14n", string]> = [
    ["--c14n", C14N_10_COMMENTS],
    ["--c14n11", "http://www.w3.org/2006/12/xml-c14n11#WithComments"],
    ["--exc-c14n", EXC_C14N_COMMENTS],
  ];
  for (const [flag, alg] of cases) {
    it(`${flag}: prolog, epilog, comments, processing instructions, CDATA, escaping, namespace rendering`, () => {
      const tree = parseXmlTree(DOC);
      expect(canonicalize(tree.root, { ...c14nMethod(alg)!, document: tree })).toBe(xmllintC14n(DOC, flag));
    });
  }

  it("without comments, the comments are gone but processing instructions stay", () => {
    const tree = parseXmlTree(DOC);
    const ours = canonicalize(tree.root, { ...c14nMethod(C14N_10)!, document: tree });
    expect(ours).not.toContain("<!--");
    expect(ours.startsWith('<?stylesheet href="x.xsl"?>\n<r:root')).toBe(true);
    expect(ours).toContain("<?pi some data?>");
  });
});

describe("canonicalize equals xml-crypto's canonicalizers on subtrees", () => {
  // xml-crypto prints a processing instruction as its data only, so this document has none.
  const doc = DOC.replace(/<\?(stylesheet|pi)[^?]*\?>/g, "");
  const xmldomOf = (xml: string) => new DOMParser().parseFromString(xml, "text/xml");
  const oracle = (el: Element, alg: string) => {
    const inclusive = alg === C14N_10 || alg === C14N_10_COMMENTS;
    const c = inclusive ? new C14nCanonicalization() : new ExclusiveCanonicalization();
    if (alg.endsWith("#WithComments")) (c as unknown as { includeComments: boolean }).includeComments = true;
    // xml-crypto's inclusive canonicalizer needs the ancestors' namespaces handed to it.
    const ancestorNamespaces: Array<{ prefix: string; namespaceURI: string }> = [];
    if (inclusive) {
      const seen = new Set<string>();
      for (let n = el.parentNode as Element | null; n && n.nodeType === 1; n = n.parentNode as Element | null)
        for (const a of Array.from(n.attributes))
          if (a.name === "xmlns" || a.name.startsWith("xmlns:")) {
            const prefix = a.name === "xmlns" ? "" : a.name.slice(6);
            if (seen.has(prefix)) continue;
            seen.add(prefix);
            ancestorNamespaces.push({ prefix, namespaceURI: a.value });
          }
    }
    return c.process(el as never, { ancestorNamespaces } as never).toString();
  };

  const subsets: Array<[string, (e: XmlTreeElement) => boolean, (e: Element) => boolean]> = [
    ["root", (e) => e.parent === null, (e) => e.parentNode?.nodeType === 9],
    ["child", (e) => e.local === "child", (e) => e.localName === "child"],
    ["inner", (e) => e.local === "inner", (e) => e.localName === "inner"],
    ["deep", (e) => e.local === "deep", (e) => e.localName === "deep"],
  ];
  // Inclusive C14N of a subtree is left to the xmlsec1 corpus (SignedInfo and SignedProperties of
  // inclusive-style signatures): xml-crypto repeats an inherited default namespace and does not
  // inherit xml:* attributes (Canonical XML 1.0 §2.4), see the last test below.
  const runs: Array<[string, (typeof subsets)[number]]> = [
    ...[C14N_10, C14N_10_COMMENTS].map((alg) => [alg, subsets[0]!] as [string, (typeof subsets)[number]]),
    ...[EXC_C14N, EXC_C14N_COMMENTS].flatMap((alg) => subsets.map((sub) => [alg, sub] as [string, (typeof subsets)[number]])),
  ];
  for (const [alg, [name, ours, theirs]] of runs) {
    it(`${name} with ${alg.split("/").slice(-1)[0]}`, () => {
      const tree = parseXmlTree(doc);
      const apex = ours(tree.root) ? tree.root : findElements(tree.root, ours)[0]!;
      const el = (Array.from(xmldomOf(doc).getElementsByTagName("*")) as unknown as Element[]).find(theirs)!;
      expect(canonicalize(apex, c14nMethod(alg)!)).toBe(oracle(el, alg));
    });
  }
});

describe("C14N details", () => {
  it("renders the InclusiveNamespaces PrefixList as inclusive C14N would (xmlns:unused, and xmlns=\"\" for #default)", () => {
    const tree = parseXmlTree(DOC);
    const child = findElements(tree.root, (e) => e.local === "child")[0]!;
    const out = canonicalize(child, { ...c14nMethod(EXC_C14N)!, inclusivePrefixes: ["unused", "#default"] });
    expect(out.startsWith('<child xmlns="urn:default" xmlns:r="urn:root" xmlns:unused="urn:unused" b="2" r:c="3">')).toBe(true);
    expect(out).toContain('<x:inner xmlns="" xmlns:x="urn:x" y="1"');
  });

  it("inclusive C14N copies the ancestors' xml:* attributes onto the apex (Canonical XML 1.0 §2.4), exclusive does not", () => {
    const tree = parseXmlTree(DOC);
    const inner = findElements(tree.root, (e) => e.local === "inner")[0]!;
    expect(canonicalize(inner, c14nMethod(C14N_10)!)).toMatch(/^<x:inner xmlns:r="urn:root" xmlns:unused="urn:unused" xmlns:x="urn:x" y="1" z="&quot;&lt;&amp;&#x9;&#xA;" xml:lang="es">/);
    expect(canonicalize(inner, c14nMethod(EXC_C14N)!)).toMatch(/^<x:inner xmlns:x="urn:x" y="1" z="&quot;&lt;&amp;&#x9;&#xA;">/);
  });
});

describe("elements written canonically are copied from the text (decision 144)", () => {
  // [document, the elements the parser must find written as C14N writes them (below an apex), the others]
  const cases: Array<[string, string[], string[]]> = [
    ['<a xmlns="urn:a"><b>x &gt; y &amp; &lt; &#xD; é😀</b><c xmlns="urn:a">redundant</c></a>', ["b"], ["c"]],
    ["<a><b y=\"1\" x=\"2\">order</b><c x='1'>quote</c><d  x=\"1\">spaces</d><e x=\"1\" >space</e><f>t</f ><g/></a>", [], ["b", "c", "d", "e", "f", "g"]],
    ['<a><b x="1">gt > literal</b><c>&#233;</c><d><!--c--></d><e><![CDATA[x]]></e><f><?pi x?></f><g x="&#x9;&quot;&lt;&amp;&#xA;&#xD;">ok</g></a>', ["g"], ["b", "c", "d", "e", "f"]],
    ['<a><b x="tab\there">t</b><c x="&#9;">t</c><d xmlns="">t</d></a>', [], ["b", "c", "d"]],
    [
      '<a xmlns:p="urn:p"><b xmlns:q="urn:q" xmlns:p="urn:p2">t</b><c xmlns:p="urn:p2" xmlns:q="urn:q" q:y="1" x="0">t</c><d xmlns:p="urn:p2" xmlns:q="urn:q" x="0" q:y="1">t</d><e x="1" xmlns:r="urn:r">t</e></a>',
      ["d"],
      ["b", "c", "e"],
    ],
    ["<a>\n  <b>\n    <c>t</c>\n    <d/>\n  </b>\n  <e>u</e>\n</a>", ["c", "e"], ["b", "d"]],
  ];

  it.each(cases)("%j", (xml, verbatim, rebuilt) => {
    const tree = parseXmlTree(xml);
    const flag = (name: string) => findElements(tree.root, (e) => e.local === name)[0]!.verbatim;
    for (const name of verbatim) expect(flag(name), name).toBe(true);
    for (const name of rebuilt) expect(flag(name), name).toBe(false);
    // Copying gives what rebuilding gives, and what libxml2 gives.
    const copied = canonicalize(tree.root, { ...c14nMethod(C14N_10)!, source: tree.source });
    expect(copied).toBe(canonicalize(tree.root, c14nMethod(C14N_10)!));
    expect(canonicalize(tree.root, { ...c14nMethod(C14N_10_COMMENTS)!, document: tree })).toBe(xmllintC14n(xml, "--c14n"));
  });

  it("a document Colibrí signs is copied whole below the root", () => {
    const xml = `<r xmlns="urn:r"><Clave>1</Clave><Linea><Detalle>Horas &amp; soporte &lt;remoto&gt;</Detalle><Monto>1.00000</Monto></Linea></r>`;
    const tree = parseXmlTree(xml);
    expect(tree.root.children.every((c) => c.type === 1 && c.verbatim)).toBe(true);
  });

  it("canonicalHash digests exactly the canonical form, without splitting a surrogate pair between pieces", () => {
    for (let k = 16376; k <= 16384; k++) {
      const xml = `<a xmlns="urn:a"><b>${"x".repeat(k)}${"😀é".repeat(9000)}${"&amp;&lt;&gt;".repeat(20000)}</b><c x='1'>${"y".repeat(k)}😀</c><!--n--><?p d?></a>`;
      const tree = parseXmlTree(xml);
      for (const alg of [C14N_10, EXC_C14N]) {
        const digest = createHash("sha256");
        canonicalHash(tree.root, { ...c14nMethod(alg)!, document: tree }, digest);
        expect(digest.digest("hex"), `${k} ${alg}`).toBe(createHash("sha256").update(canonicalize(tree.root, { ...c14nMethod(alg)!, document: tree }), "utf8").digest("hex"));
      }
    }
  });

  it("leaves excluded elements out when copying, even deep inside an element written canonically", () => {
    const xml = '<a xmlns="urn:a"><b><c><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#">s</ds:Signature></c><d>t</d></b></a>';
    const tree = parseXmlTree(xml);
    const sig = findElements(tree.root, (e) => e.local === "Signature")[0]!;
    expect(findElements(tree.root, (e) => e.local === "b")[0]!.verbatim).toBe(true);
    const out = canonicalize(tree.root, { ...c14nMethod(C14N_10)!, document: tree, excluded: [sig] });
    expect(out).toBe('<a xmlns="urn:a"><b><c></c><d>t</d></b></a>');
  });
});
