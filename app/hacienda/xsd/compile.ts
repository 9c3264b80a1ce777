/**
 * Compiles W3C XML Schema 1.0 files (the subset used by Hacienda's v4.4 schemas and the W3C xmldsig
 * schema) into an in-memory content model that `validate.ts` checks documents against quickly.
 *
 * Supported: global/local elements, element refs, named and anonymous complex and simple types,
 * xs:sequence / xs:choice / xs:all with minOccurs/maxOccurs (nested groups too), xs:any with
 * namespace ##any/##other/##targetNamespace/list and processContents strict|lax|skip, mixed content,
 * simpleContent extension/restriction, attributes (use required/optional, types), nillable, and
 * simple-type restrictions with enumeration, pattern, length/minLength/maxLength,
 * totalDigits/fractionDigits, min/max Inclusive/Exclusive over the builtins the schemas use.
 * Anything else in a schema makes compilation fail loudly rather than validate loosely.
 */
import { DOMParser } from "@xmldom/xmldom";
import { translateXsdPattern } from "./regex.ts";
import { intern } from "./parse.ts";

export const XS = "http://www.w3.org/2001/XMLSchema";

export type Builtin =
  | "anySimpleType"
  | "string"
  | "normalizedString"
  | "token"
  | "decimal"
  | "integer"
  | "positiveInteger"
  | "nonNegativeInteger"
  | "long"
  | "int"
  | "boolean"
  | "dateTime"
  | "date"
  | "base64Binary"
  | "anyURI"
  | "ID"
  | "IDREF"
  | "NCName"
  | "QName";

const BUILTINS = new Set<Builtin>([
  "anySimpleType",
  "string",
  "normalizedString",
  "token",
  "decimal",
  "integer",
  "positiveInteger",
  "nonNegativeInteger",
  "long",
  "int",
  "boolean",
  "dateTime",
  "date",
  "base64Binary",
  "anyURI",
  "ID",
  "IDREF",
  "NCName",
  "QName",
]);

export interface SimpleType {
  kind: "simple";
  name?: string;
  builtin: Builtin;
  enumeration?: string[];
  enumSet?: Set<string>;
  /** AND over derivation steps, OR within a step. */
  patterns: Array<{ source: string[]; res: RegExp[] }>;
  length?: number;
  minLength?: number;
  maxLength?: number;
  totalDigits?: number;
  fractionDigits?: number;
  /** Lexical decimal bound (trimmed). */
  minInclusive?: string;
  /** Lexical decimal bound (trimmed). */
  maxInclusive?: string;
  /** Lexical decimal bound (trimmed). */
  minExclusive?: string;
  /** Lexical decimal bound (trimmed). */
  maxExclusive?: string;
}

export interface AttributeDecl {
  name: string;
  ns: string;
  type: SimpleType;
  required: boolean;
}

export interface ComplexType {
  kind: "complex";
  name?: string;
  /** null = empty content (or simple content when simpleContent is set). */
  content: Particle | null;
  mixed: boolean;
  simpleContent?: SimpleType;
  attributes: AttributeDecl[];
  anyAttribute: boolean;
}

export interface ElementDecl {
  name: string;
  ns: string;
  type: SimpleType | ComplexType;
  nillable: boolean;
}

export type Particle =
  | { kind: "element"; decl: ElementDecl; min: number; max: number }
  | { kind: "sequence" | "choice" | "all"; items: Particle[]; min: number; max: number }
  | { kind: "any"; min: number; max: number; nsOk: (ns: string) => boolean; process: "strict" | "lax" | "skip" };

export interface CompiledSchemaSet {
  /**
   * Global elements by "{ns}name". A schema file is parsed and compiled the first time one of its
   * elements is asked for, and its DOM is then dropped (docs/decisions/143): a process that only
   * issues invoices never holds the other eight schemas, and the peak memory of the start-up falls.
   */
  elements: { get(key: string): ElementDecl | undefined };
  /** Target namespaces of every file in the set. */
  namespaces: Set<string>;
  /** Compiles every file now: throws when the set is incomplete or inconsistent. */
  compileAll(): void;
}

const ANY_TYPE: ComplexType = { kind: "complex", name: "anyType", content: null, mixed: true, attributes: [], anyAttribute: true };

function builtinType(name: Builtin): SimpleType {
  return { kind: "simple", name, builtin: name, patterns: [] };
}

type El = Element;

function kids(el: El): El[] {
  const out: El[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) {
      const e = n as El;
      if (e.namespaceURI === XS && e.localName === "annotation") continue;
      if (e.namespaceURI !== XS) throw new Error(`XSD: unexpected element ${e.nodeName}`);
      out.push(e);
    }
  }
  return out;
}

function occurs(el: El): { min: number; max: number } {
  const mi = el.getAttribute("minOccurs");
  const ma = el.getAttribute("maxOccurs");
  return {
    min: mi ? Number(mi) : 1,
    max: ma === "unbounded" ? Infinity : ma ? Number(ma) : 1,
  };
}

interface SchemaDoc {
  root: El | null;
  tns: string;
  elementFormQualified: boolean;
  types: Map<string, El>;
  elements: Map<string, El>;
}

/**
 * Compiles schema texts keyed by file name. `files` must contain every schema reachable by
 * xs:import (matched by the imported namespace, or by the basename of schemaLocation).
 */
const TARGET_NS = /<(?:[\w.-]+:)?schema\b[^>]*?\btargetNamespace\s*=\s*["']([^"']*)["']/;
const IMPORTED_NS = /<(?:[\w.-]+:)?import\b[^>]*?\bnamespace\s*=\s*["']([^"']*)["']/g;

function parseSchemaDoc(fileName: string, text: string): SchemaDoc {
  const errors: string[] = [];
  const dom = new DOMParser({
    onError: (level: string, msg: string) => {
      if (level !== "warning") errors.push(msg);
    },
  }).parseFromString(text, "text/xml");
  if (errors.length) throw new Error(`XSD ${fileName}: ${errors.join("; ")}`);
  const root = dom.documentElement as unknown as El;
  if (!root || root.namespaceURI !== XS || root.localName !== "schema") throw new Error(`XSD ${fileName}: not a schema`);
  const sd: SchemaDoc = {
    root,
    tns: intern(root.getAttribute("targetNamespace") ?? ""),
    elementFormQualified: root.getAttribute("elementFormDefault") === "qualified",
    types: new Map(),
    elements: new Map(),
  };
  for (const k of kids(root)) {
    const ln = k.localName;
    if (ln === "import" || ln === "include") {
      if (ln === "include") throw new Error(`XSD ${fileName}: xs:include not supported`);
      continue;
    }
    const name = k.getAttribute("name");
    if (!name) throw new Error(`XSD ${fileName}: global ${ln} without name`);
    if (ln === "simpleType" || ln === "complexType") sd.types.set(name, k);
    else if (ln === "element") sd.elements.set(name, k);
    else throw new Error(`XSD ${fileName}: unsupported global xs:${ln}`);
  }
  return sd;
}

/**
 * Compiles schema texts keyed by file name. `files` must contain every schema reachable by
 * xs:import (matched by the imported namespace, or by the basename of schemaLocation).
 * Each file is parsed and compiled when first needed (see CompiledSchemaSet.elements).
 */
export function compileSchemas(files: Record<string, string>): CompiledSchemaSet {
  // Target namespace → file, read from the text without parsing it. Several files may share a
  // namespace only if they are the same schema (e.g. two xmldsig copies): the first one counts.
  const sources = new Map<string, { fileName: string; text: string }>();
  const imported = new Set<string>();
  for (const [fileName, text] of Object.entries(files)) {
    const m = TARGET_NS.exec(text);
    const tns = intern(m ? m[1]! : "");
    if (!sources.has(tns)) sources.set(tns, { fileName, text });
    for (const i of text.matchAll(IMPORTED_NS)) imported.add(i[1]!);
  }
  const docs = new Map<string, SchemaDoc>(); // by tns, parsed on demand
  const done = new Set<string>(); // namespaces whose global elements are all compiled
  const docOf = (ns: string): SchemaDoc | undefined => {
    let sd = docs.get(ns);
    if (!sd) {
      const src = sources.get(ns);
      if (!src) return undefined;
      sd = parseSchemaDoc(src.fileName, src.text);
      if (sd.tns !== ns) throw new Error(`XSD ${src.fileName}: targetNamespace not readable`);
      docs.set(ns, sd);
    }
    return sd;
  };

  const typeCache = new Map<string, SimpleType | ComplexType>();
  const elemCache = new Map<string, ElementDecl>();

  function resolveQName(el: El, qn: string): { ns: string; local: string } {
    const c = qn.indexOf(":");
    const prefix = c < 0 ? null : qn.slice(0, c);
    const local = c < 0 ? qn : qn.slice(c + 1);
    const attr = prefix === null ? "xmlns" : `xmlns:${prefix}`;
    let ns: string | null = null;
    for (let e: Node | null = el; e && e.nodeType === 1; e = e.parentNode) {
      if ((e as El).hasAttribute(attr)) {
        ns = (e as El).getAttribute(attr);
        break;
      }
    }
    if (ns === null && prefix !== null) throw new Error(`XSD: undeclared prefix in ${qn}`);
    return { ns: ns ?? "", local };
  }

  function typeByQName(el: El, qn: string): SimpleType | ComplexType {
    const { ns, local } = resolveQName(el, qn);
    if (ns === XS) {
      if (local === "anyType") return ANY_TYPE;
      if (!BUILTINS.has(local as Builtin)) throw new Error(`XSD: unsupported builtin xs:${local}`);
      return builtinType(local as Builtin);
    }
    const key = `{${ns}}${local}`;
    const hit = typeCache.get(key);
    if (hit) return hit;
    const sd = docOf(ns);
    const def = sd?.types.get(local);
    if (!sd || !def) throw new Error(`XSD: type ${qn} not found (namespace ${ns})`);
    let t: SimpleType | ComplexType;
    if (def.localName === "simpleType") {
      t = compileSimple(def, sd);
      t.name = local;
      typeCache.set(key, t);
    } else {
      // Register a shell first so recursive types resolve.
      const shell: ComplexType = { kind: "complex", name: local, content: null, mixed: false, attributes: [], anyAttribute: false };
      typeCache.set(key, shell);
      try {
        Object.assign(shell, compileComplex(def, sd), { name: local });
      } catch (e) {
        typeCache.delete(key);
        throw e;
      }
      t = shell;
    }
    return t;
  }

  function simpleBase(el: El, sd: SchemaDoc, qn: string | null, inline: El | undefined): SimpleType {
    let base: SimpleType | ComplexType;
    if (qn) base = typeByQName(el, qn);
    else if (inline) base = compileSimple(inline, sd);
    else throw new Error("XSD: restriction without base");
    if (base.kind !== "simple") {
      if (base.simpleContent) return base.simpleContent;
      throw new Error(`XSD: simple restriction of complex type ${qn}`);
    }
    return base;
  }

  function applyFacets(base: SimpleType, restriction: El, sd: SchemaDoc): SimpleType {
    const t: SimpleType = { ...base, name: undefined, patterns: [...base.patterns] };
    const enums: string[] = [];
    const pats: string[] = [];
    for (const f of kids(restriction)) {
      const v = f.getAttribute("value") ?? "";
      switch (f.localName) {
        case "simpleType":
          break;
        case "enumeration":
          enums.push(v);
          break;
        case "pattern":
          pats.push(v);
          break;
        case "length":
          t.length = Number(v);
          break;
        case "minLength":
          t.minLength = Number(v);
          break;
        case "maxLength":
          t.maxLength = Number(v);
          break;
        case "totalDigits":
          t.totalDigits = Number(v);
          break;
        case "fractionDigits":
          t.fractionDigits = Number(v);
          break;
        case "minInclusive":
          t.minInclusive = v.trim();
          break;
        case "maxInclusive":
          t.maxInclusive = v.trim();
          break;
        case "minExclusive":
          t.minExclusive = v.trim();
          break;
        case "maxExclusive":
          t.maxExclusive = v.trim();
          break;
        case "whiteSpace":
          break;
        case "attribute":
        case "anyAttribute":
          break;
        default:
          throw new Error(`XSD (${sd.tns}): unsupported facet xs:${f.localName}`);
      }
    }
    if (enums.length) {
      t.enumeration = enums;
      t.enumSet = new Set(enums);
    }
    if (pats.length) t.patterns.push({ source: pats, res: pats.map(translateXsdPattern) });
    return t;
  }

  function compileSimple(def: El, sd: SchemaDoc): SimpleType {
    const [r] = kids(def);
    if (!r || r.localName !== "restriction") throw new Error(`XSD: simpleType must be a restriction (${r?.localName})`);
    const inline = kids(r).find((k) => k.localName === "simpleType");
    const base = simpleBase(r, sd, r.getAttribute("base"), inline);
    return applyFacets(base, r, sd);
  }

  function compileAttributes(host: El, sd: SchemaDoc, into: ComplexType) {
    for (const a of kids(host)) {
      if (a.localName === "anyAttribute") {
        into.anyAttribute = true;
        continue;
      }
      if (a.localName !== "attribute") continue;
      if (a.getAttribute("ref")) throw new Error("XSD: attribute ref not supported");
      const tn = a.getAttribute("type");
      const inline = kids(a).find((k) => k.localName === "simpleType");
      let type: SimpleType;
      if (tn) {
        const t = typeByQName(a, tn);
        if (t.kind !== "simple") throw new Error("XSD: complex attribute type");
        type = t;
      } else if (inline) type = compileSimple(inline, sd);
      else type = builtinType("anySimpleType");
      const form = a.getAttribute("form");
      into.attributes.push({
        name: a.getAttribute("name") ?? "",
        ns: form === "qualified" ? sd.tns : "",
        type,
        required: a.getAttribute("use") === "required",
      });
    }
  }

  function compileParticle(p: El, sd: SchemaDoc): Particle {
    const { min, max } = occurs(p);
    switch (p.localName) {
      case "element":
        return { kind: "element", decl: compileElement(p, sd, false), min, max };
      case "sequence":
      case "choice":
      case "all":
        return { kind: p.localName, items: kids(p).map((k) => compileParticle(k, sd)), min, max };
      case "any": {
        const nsAttr = p.getAttribute("namespace") || "##any";
        const process = (p.getAttribute("processContents") || "strict") as "strict" | "lax" | "skip";
        let nsOk: (ns: string) => boolean;
        if (nsAttr === "##any") nsOk = () => true;
        else if (nsAttr === "##other") nsOk = (ns) => ns !== sd.tns && ns !== "";
        else {
          const list = nsAttr.split(/\s+/).map((x) => (x === "##targetNamespace" ? sd.tns : x === "##local" ? "" : x));
          nsOk = (ns) => list.includes(ns);
        }
        return { kind: "any", min, max, nsOk, process };
      }
      default:
        throw new Error(`XSD: unsupported particle xs:${p.localName}`);
    }
  }

  function compileComplex(def: El, sd: SchemaDoc): ComplexType {
    const ct: ComplexType = { kind: "complex", content: null, mixed: def.getAttribute("mixed") === "true", attributes: [], anyAttribute: false };
    for (const k of kids(def)) {
      switch (k.localName) {
        case "sequence":
        case "choice":
        case "all":
          ct.content = compileParticle(k, sd);
          break;
        case "attribute":
        case "anyAttribute":
          break;
        case "simpleContent": {
          const [d] = kids(k);
          if (!d) throw new Error("XSD: empty simpleContent");
          const inline = kids(d).find((x) => x.localName === "simpleType");
          const base = simpleBase(d, sd, d.getAttribute("base"), inline);
          ct.simpleContent = d.localName === "restriction" ? applyFacets(base, d, sd) : base;
          compileAttributes(d, sd, ct);
          break;
        }
        case "complexContent":
          throw new Error("XSD: complexContent not supported");
        default:
          throw new Error(`XSD: unsupported xs:${k.localName} in complexType`);
      }
    }
    compileAttributes(def, sd, ct);
    return ct;
  }

  function compileElement(el: El, sd: SchemaDoc, global: boolean): ElementDecl {
    const ref = el.getAttribute("ref");
    if (ref) {
      const { ns, local } = resolveQName(el, ref);
      return globalElement(ns, local);
    }
    const name = intern(el.getAttribute("name") ?? "");
    const ns = global || sd.elementFormQualified || el.getAttribute("form") === "qualified" ? sd.tns : "";
    const decl: ElementDecl = { name, ns, type: ANY_TYPE, nillable: el.getAttribute("nillable") === "true" };
    const tn = el.getAttribute("type");
    if (tn) decl.type = typeByQName(el, tn);
    else {
      const inline = kids(el).find((k) => k.localName === "complexType" || k.localName === "simpleType");
      if (inline) decl.type = inline.localName === "simpleType" ? compileSimple(inline, sd) : compileComplex(inline, sd);
    }
    return decl;
  }

  function globalElement(ns: string, local: string): ElementDecl {
    const key = `{${ns}}${local}`;
    const hit = elemCache.get(key);
    if (hit) return hit;
    const sd = docOf(ns);
    const def = sd?.elements.get(local);
    if (!sd || !def) throw new Error(`XSD: element ${key} not found`);
    const shell: ElementDecl = { name: local, ns, type: ANY_TYPE, nillable: false };
    elemCache.set(key, shell);
    try {
      Object.assign(shell, compileElement(def, sd, true));
    } catch (e) {
      elemCache.delete(key); // never leave a half-compiled element that would accept anything
      throw e;
    }
    return shell;
  }

  /** Compiles every global element of `ns`; a file no other file imports then lets go of its DOM. */
  function compileNamespace(ns: string) {
    if (done.has(ns)) return;
    const sd = docOf(ns);
    if (!sd) return;
    for (const name of sd.elements.keys()) globalElement(ns, name);
    done.add(ns);
    if (!imported.has(ns)) {
      sd.root = null;
      sd.types.clear();
      sd.elements.clear();
    }
  }

  return {
    elements: {
      get(key: string) {
        const close = key.indexOf("}");
        const ns = key.slice(1, close);
        compileNamespace(ns);
        return elemCache.get(key);
      },
    },
    namespaces: new Set(sources.keys()),
    compileAll() {
      for (const ns of sources.keys()) compileNamespace(ns);
    },
  };
}
