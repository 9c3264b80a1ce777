/**
 * Validates a parsed document (see parse.ts) against a compiled schema set (see compile.ts).
 * Every error is `{ path, message }` with a plain-Spanish message that names the field.
 */
import type { CompiledSchemaSet, ComplexType, ElementDecl, Particle, SimpleType } from "./compile.ts";
import type { XNode } from "./parse.ts";

export const XSI = "http://www.w3.org/2001/XMLSchema-instance";
export const DS = "http://www.w3.org/2000/09/xmldsig#";
const XSI_NIL = `{${XSI}}nil`;

export interface SchemaError {
  path: string;
  message: string;
}

export interface ValidateOptions {
  /**
   * Accept a document whose root lacks its required ds:Signature (the unsigned document built
   * before signing). Everything else is validated as usual.
   */
  unsigned?: boolean;
}

interface Ctx {
  errors: SchemaError[];
  set: CompiledSchemaSet;
  unsigned: boolean;
  max: number;
  ids: Set<string>;
}

const DECIMAL_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const INTEGER_RE = /^[+-]?\d+$/;
const DATETIME_RE = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))?$/;
const DATE_RE = /^(-?\d{4,})-(\d{2})-(\d{2})(Z|[+-](\d{2}):(\d{2}))?$/;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const NCNAME_RE = /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*$/;

const WS_RE = /[\t\n\r ]/;
function collapse(s: string): string {
  return WS_RE.test(s) ? s.replace(/[\t\n\r ]+/g, " ").trim() : s;
}

function daysIn(y: number, m: number): number {
  return [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

function checkDateParts(y: string, mo: string, d: string): boolean {
  const Y = Number(y);
  const M = Number(mo);
  const D = Number(d);
  return M >= 1 && M <= 12 && D >= 1 && D <= daysIn(Y, M);
}

/** Splits a lexically valid decimal into sign, integer digits (no leading zeros) and fraction digits (no trailing zeros). */
function normDecimal(v: string): { neg: boolean; ip: string; fp: string } {
  let i = 0;
  let neg = false;
  if (v[0] === "-" || v[0] === "+") {
    neg = v[0] === "-";
    i = 1;
  }
  const dot = v.indexOf(".");
  let ip = dot < 0 ? v.slice(i) : v.slice(i, dot);
  let fp = dot < 0 ? "" : v.slice(dot + 1);
  let a = 0;
  while (a < ip.length && ip.charCodeAt(a) === 48) a++;
  ip = ip.slice(a);
  let b = fp.length;
  while (b > 0 && fp.charCodeAt(b - 1) === 48) b--;
  fp = fp.slice(0, b);
  if (ip === "" && fp === "") neg = false;
  return { neg, ip, fp };
}

/** Compares two lexically valid decimals exactly (−1, 0, 1) without a big-number library. */
const normCache = new Map<string, { neg: boolean; ip: string; fp: string }>();
function normCached(v: string) {
  let n = normCache.get(v);
  if (!n) {
    n = normDecimal(v);
    if (normCache.size < 1000) normCache.set(v, n);
  }
  return n;
}

/** Compares a value with a (facet) bound; the bound's normal form is cached. */
function compareToBound(v: { neg: boolean; ip: string; fp: string }, bound: string): number {
  return compareNorm(v, normCached(bound));
}

export function compareDecimal(a: string, b: string): number {
  return compareNorm(normDecimal(a), normDecimal(b));
}

function compareNorm(x: { neg: boolean; ip: string; fp: string }, y: { neg: boolean; ip: string; fp: string }): number {
  if (x.neg !== y.neg) return x.neg ? -1 : 1;
  const sign = x.neg ? -1 : 1;
  if (x.ip.length !== y.ip.length) return (x.ip.length < y.ip.length ? -1 : 1) * sign;
  if (x.ip !== y.ip) return (x.ip < y.ip ? -1 : 1) * sign;
  const n = Math.max(x.fp.length, y.fp.length);
  const fa = x.fp.padEnd(n, "0");
  const fb = y.fp.padEnd(n, "0");
  if (fa === fb) return 0;
  return (fa < fb ? -1 : 1) * sign;
}

function shortList(values: string[]): string {
  return values.length <= 12 ? values.join(", ") : `${values.slice(0, 12).join(", ")}, …`;
}

/** Returns null when `raw` is a valid value of `t`, or a Spanish explanation. */
export function checkSimpleValue(t: SimpleType, raw: string): string | null {
  const isString = t.builtin === "string" || t.builtin === "anySimpleType";
  const v = isString ? raw : t.builtin === "normalizedString" ? raw.replace(/[\t\n\r]/g, " ") : collapse(raw);
  switch (t.builtin) {
    case "decimal":
      if (!DECIMAL_RE.test(v)) return `"${raw}" no es un número válido; use dígitos y punto decimal, sin comas ni espacios`;
      break;
    case "integer":
    case "long":
    case "int":
    case "positiveInteger":
    case "nonNegativeInteger":
      if (!INTEGER_RE.test(v)) return `"${raw}" no es un número entero válido; use solo dígitos`;
      if (t.builtin === "positiveInteger" && compareDecimal(v, "0") <= 0) return `"${raw}" debe ser un entero mayor que cero`;
      if (t.builtin === "nonNegativeInteger" && compareDecimal(v, "0") < 0) return `"${raw}" no puede ser negativo`;
      if (t.builtin === "int" && (compareDecimal(v, "2147483647") > 0 || compareDecimal(v, "-2147483648") < 0)) return `"${raw}" está fuera de rango`;
      if (t.builtin === "long" && (compareDecimal(v, "9223372036854775807") > 0 || compareDecimal(v, "-9223372036854775808") < 0))
        return `"${raw}" está fuera de rango`;
      break;
    case "boolean":
      if (!/^(true|false|1|0)$/.test(v)) return `"${raw}" debe ser true o false`;
      break;
    case "dateTime": {
      const m = DATETIME_RE.exec(v);
      const ok =
        m &&
        checkDateParts(m[1], m[2], m[3]) &&
        ((Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59) || (m[4] === "24" && m[5] === "00" && m[6] === "00" && !/[1-9]/.test(m[7] ?? ""))) &&
        (!m[9] || (Number(m[9]) <= 14 && Number(m[10]) <= 59));
      if (!ok) return `"${raw}" no es una fecha y hora válida; use el formato AAAA-MM-DDThh:mm:ss-06:00`;
      break;
    }
    case "date": {
      const m = DATE_RE.exec(v);
      if (!m || !checkDateParts(m[1], m[2], m[3])) return `"${raw}" no es una fecha válida; use el formato AAAA-MM-DD`;
      break;
    }
    case "base64Binary":
      if (!BASE64_RE.test(v.replace(/[\t\n\r ]/g, ""))) return `"${raw.slice(0, 40)}" no es un valor Base64 válido`;
      break;
    case "ID":
    case "IDREF":
    case "NCName":
      if (!NCNAME_RE.test(v)) return `"${raw}" no es un identificador XML válido`;
      break;
    case "QName":
    case "anyURI":
    case "string":
    case "normalizedString":
    case "token":
    case "anySimpleType":
      break;
  }
  if (t.enumSet && !t.enumSet.has(v))
    return `el valor "${raw}" no está permitido; use uno de los códigos del catálogo de Hacienda (${shortList(t.enumeration!)})`;
  for (const step of t.patterns) {
    let ok = false;
    for (const re of step.res)
      if (re.test(v)) {
        ok = true;
        break;
      }
    if (!ok) return `el valor "${raw}" no tiene el formato requerido (${step.source.join(" o ")})`;
  }
  if (t.length !== undefined || t.minLength !== undefined || t.maxLength !== undefined) {
    const n = t.builtin === "base64Binary" ? Math.floor((v.replace(/[\s=]/g, "").length * 3) / 4) : /[\uD800-\uDFFF]/.test(v) ? [...v].length : v.length;
    if (t.length !== undefined && n !== t.length) return `debe tener exactamente ${t.length} caracteres (tiene ${n})`;
    if (t.minLength !== undefined && n < t.minLength) return `debe tener al menos ${t.minLength} caracteres (tiene ${n})`;
    if (t.maxLength !== undefined && n > t.maxLength) return `admite como máximo ${t.maxLength} caracteres (tiene ${n}); acórtelo`;
  }
  const hasDigits = t.totalDigits !== undefined || t.fractionDigits !== undefined;
  const hasBounds = !!(t.minInclusive || t.maxInclusive || t.minExclusive || t.maxExclusive);
  const norm = hasDigits || hasBounds ? normDecimal(v) : undefined;
  if (hasDigits) {
    const total = Math.max(norm!.ip.length + norm!.fp.length, 1);
    const fraction = norm!.fp.length;
    if (t.fractionDigits !== undefined && fraction > t.fractionDigits)
      return `"${raw}" tiene ${fraction} decimales y se admiten como máximo ${t.fractionDigits}; redondee el valor`;
    if (t.totalDigits !== undefined && total > t.totalDigits) return `"${raw}" tiene demasiados dígitos (máximo ${t.totalDigits} en total)`;
  }
  if (hasBounds) {
    if (t.minInclusive && compareToBound(norm!, t.minInclusive) < 0) return `"${raw}" es menor que el mínimo permitido (${t.minInclusive})`;
    if (t.maxInclusive && compareToBound(norm!, t.maxInclusive) > 0) return `"${raw}" es mayor que el máximo permitido (${t.maxInclusive})`;
    if (t.minExclusive && compareToBound(norm!, t.minExclusive) <= 0) return `"${raw}" debe ser mayor que ${t.minExclusive}`;
    if (t.maxExclusive && compareToBound(norm!, t.maxExclusive) >= 0) return `"${raw}" debe ser menor que ${t.maxExclusive}`;
  }
  return null;
}

function push(ctx: Ctx, path: string, message: string) {
  if (ctx.errors.length < ctx.max) ctx.errors.push({ path, message });
}

const nullableMemo = new WeakMap<Particle, boolean>();
function nullable(p: Particle): boolean {
  let v = nullableMemo.get(p);
  if (v === undefined) nullableMemo.set(p, (v = nullableRaw(p)));
  return v;
}

function nullableRaw(p: Particle): boolean {
  if (p.min === 0) return true;
  if (p.kind === "sequence" || p.kind === "all") return p.items.every(nullable);
  if (p.kind === "choice") return p.items.some(nullable);
  return false;
}

interface FirstSet {
  /** namespace → local names that can start the particle (no string building per check). */
  names: Map<string, Set<string>>;
  wildcards: Array<(ns: string) => boolean>;
}
const firstMemo = new WeakMap<Particle, FirstSet>();

function firstSet(p: Particle): FirstSet {
  let f = firstMemo.get(p);
  if (f) return f;
  f = { names: new Map(), wildcards: [] };
  const add = (q: Particle) => {
    switch (q.kind) {
      case "element": {
        let set = f!.names.get(q.decl.ns);
        if (!set) f!.names.set(q.decl.ns, (set = new Set()));
        set.add(q.decl.name);
        break;
      }
      case "any":
        f!.wildcards.push(q.nsOk);
        break;
      case "sequence":
        for (const it of q.items) {
          add(it);
          if (!nullable(it)) break;
        }
        break;
      default:
        for (const it of q.items) add(it);
    }
  };
  add(p);
  firstMemo.set(p, f);
  return f;
}

function canStart(p: Particle, n: XNode): boolean {
  if (p.kind === "element") return n.name === p.decl.name && n.ns === p.decl.ns;
  const f = firstSet(p);
  if (f.names.get(n.ns)?.has(n.name)) return true;
  for (const w of f.wildcards) if (w(n.ns)) return true;
  return false;
}

export function canStartSlow(p: Particle, n: XNode): boolean {
  switch (p.kind) {
    case "element":
      return n.name === p.decl.name && n.ns === p.decl.ns;
    case "any":
      return p.nsOk(n.ns);
    case "sequence":
      for (const it of p.items) {
        if (canStartSlow(it, n)) return true;
        if (!nullable(it)) return false;
      }
      return false;
    case "choice":
    case "all":
      return p.items.some((it) => canStartSlow(it, n));
  }
}

function firstNames(p: Particle): string[] {
  switch (p.kind) {
    case "element":
      return [p.decl.name];
    case "any":
      return ["(cualquier elemento)"];
    case "sequence": {
      const out: string[] = [];
      for (const it of p.items) {
        out.push(...firstNames(it));
        if (!nullable(it)) break;
      }
      return out;
    }
    default:
      return p.items.flatMap(firstNames);
  }
}

/** Path of a node for messages: element names from the root, with [n] on repeated siblings. */
export function nodePath(n: XNode): string {
  const parts: string[] = [];
  for (let e: XNode | null = n; e; e = e.parent) {
    let name = e.name;
    if (e.parent) {
      let k = 0;
      let total = 0;
      for (const s of e.parent.children) {
        if (s.name === e.name) {
          total++;
          if (s === e) k = total;
        }
      }
      if (k > 1) name += `[${k}]`;
    }
    parts.push(name);
  }
  return parts.reverse().join("/");
}

class Content {
  kids: XNode[];
  failed = false;
  constructor(
    public owner: XNode,
    public isRoot: boolean,
  ) {
    this.kids = owner.children;
  }
  get path(): string {
    return nodePath(this.owner);
  }
}

function matchParticle(p: Particle, c: Content, i: number, ctx: Ctx): number {
  if (p.kind === "element") {
    let count = 0;
    const d = p.decl;
    while (count < p.max && i < c.kids.length && c.kids[i].name === d.name && c.kids[i].ns === d.ns) {
      count++;
      validateElement(c.kids[i], d, ctx);
      i++;
    }
    if (count < p.min && !c.failed) {
      if (ctx.unsigned && c.isRoot && d.ns === DS && d.name === "Signature" && count === 0) return i;
      c.failed = true;
      const before = i < c.kids.length ? ` (antes de ${c.kids[i].name})` : "";
      push(
        ctx,
        `${c.path}/${d.name}`,
        count === 0
          ? `El campo ${c.path}/${d.name} es obligatorio y falta${before}: agréguelo.`
          : `El campo ${c.path}/${d.name} debe aparecer al menos ${p.min} veces (aparece ${count}): agregue los que faltan.`,
      );
    }
    return i;
  }
  if (p.kind === "any") {
    let count = 0;
    while (count < p.max && i < c.kids.length && p.nsOk(c.kids[i].ns)) {
      const n = c.kids[i];
      const decl = p.process === "skip" ? undefined : ctx.set.elements.get(`{${n.ns}}${n.name}`);
      if (decl) validateElement(n, decl, ctx);
      else if (p.process === "strict" && !c.failed) {
        c.failed = true;
        push(ctx, `${c.path}/${n.name}`, `El campo ${c.path}/${n.name} no está definido en ningún esquema conocido: elimínelo.`);
      }
      count++;
      i++;
    }
    if (count < p.min && !c.failed) {
      c.failed = true;
      push(ctx, c.path, `El campo ${c.path} debe contener al menos ${p.min} elemento(s): agréguelos.`);
    }
    return i;
  }
  let count = 0;
  while (count < p.max && i < c.kids.length && canStart(p, c.kids[i])) {
    const j = matchOnce(p, c, i, ctx);
    if (j === i) break;
    i = j;
    count++;
  }
  if (count < p.min && !(count === 0 ? nullable({ ...p, min: 1 }) : true) && !c.failed) {
    c.failed = true;
    const names = firstNames(p);
    push(ctx, `${c.path}/${names[0]}`, `El campo ${c.path}/${names.join(" o ")} es obligatorio y falta: agréguelo.`);
  }
  return i;
}

function matchOnce(p: Particle & { items: Particle[] }, c: Content, i: number, ctx: Ctx): number {
  if (p.kind === "sequence") {
    for (const it of p.items) i = matchParticle(it, c, i, ctx);
    return i;
  }
  if (p.kind === "choice") {
    const it = i < c.kids.length ? p.items.find((x) => canStart(x, c.kids[i])) : undefined;
    if (it) return matchParticle(it, c, i, ctx);
    if (!p.items.some(nullable) && !c.failed) {
      c.failed = true;
      push(ctx, c.path, `El campo ${c.path} debe contener uno de: ${p.items.flatMap(firstNames).join(", ")}.`);
    }
    return i;
  }
  // xs:all
  const seen = new Set<Particle>();
  while (i < c.kids.length) {
    const it = p.items.find((x) => !seen.has(x) && canStart(x, c.kids[i]));
    if (!it) break;
    seen.add(it);
    i = matchParticle(it, c, i, ctx);
  }
  for (const it of p.items) {
    if (!seen.has(it) && !nullable(it) && !c.failed) {
      c.failed = true;
      const n = firstNames(it)[0];
      push(ctx, `${c.path}/${n}`, `El campo ${c.path}/${n} es obligatorio y falta: agréguelo.`);
    }
  }
  return i;
}

function validateAttributes(n: XNode, t: SimpleType | ComplexType, path: string, ctx: Ctx) {
  const decls = t.kind === "complex" ? t.attributes : [];
  for (const [key, value] of n.attrs) {
    if (key.startsWith(`{${XSI}}`)) continue;
    let ns = "";
    let local = key;
    if (key[0] === "{") {
      const e = key.indexOf("}");
      ns = key.slice(1, e);
      local = key.slice(e + 1);
    }
    const d = decls.find((a) => a.name === local && a.ns === ns);
    if (!d) {
      if (t.kind === "complex" && t.anyAttribute) continue;
      push(ctx, `${path}/@${local}`, `El atributo ${local} de ${path} no está permitido: elimínelo.`);
      continue;
    }
    const err = checkSimpleValue(d.type, value);
    if (err) push(ctx, `${path}/@${local}`, `El atributo ${local} de ${path}: ${err}.`);
    else if (d.type.builtin === "ID") {
      if (ctx.ids.has(value)) push(ctx, `${path}/@${local}`, `El atributo ${local}="${value}" de ${path} está repetido en el documento: cada Id debe ser único.`);
      ctx.ids.add(value);
    }
  }
  for (const d of decls) {
    if (d.required && !n.attrs.has(d.ns ? `{${d.ns}}${d.name}` : d.name))
      push(ctx, `${path}/@${d.name}`, `El atributo ${d.name} de ${path} es obligatorio y falta: agréguelo.`);
  }
}

const requiredAttrsMemo = new WeakMap<ComplexType, boolean>();
function hasRequiredAttributes(t: ComplexType): boolean {
  let v = requiredAttrsMemo.get(t);
  if (v === undefined) requiredAttrsMemo.set(t, (v = t.attributes.some((a) => a.required)));
  return v;
}

function validateElement(n: XNode, decl: ElementDecl, ctx: Ctx, isRoot = false) {
  const t = decl.type;
  if (n.attrs.size || (t.kind === "complex" && hasRequiredAttributes(t))) validateAttributes(n, t, nodePath(n), ctx);
  const nil = n.attrs.size ? n.attrs.get(XSI_NIL) : undefined;
  if (nil === "true" || nil === "1") {
    const path = nodePath(n);
    if (!decl.nillable) push(ctx, path, `El campo ${path} no puede ser nulo (xsi:nil): indique un valor.`);
    else if (n.children.length || n.text.length) push(ctx, path, `El campo ${path} está marcado como nulo y no puede tener contenido.`);
    return;
  }
  const simple = t.kind === "simple" ? t : t.simpleContent;
  if (simple) {
    if (n.children.length) {
      push(ctx, nodePath(n), `El campo ${nodePath(n)} debe contener solo un valor, no otros campos: elimine ${n.children[0].name}.`);
      return;
    }
    const err = checkSimpleValue(simple, n.text);
    if (err) push(ctx, nodePath(n), `El campo ${nodePath(n)}: ${err}.`);
    return;
  }
  if (t.kind !== "complex") return;
  if (!t.mixed && n.text.length && /[^ \t\r\n]/.test(n.text)) {
    const path = nodePath(n);
    push(ctx, path, `El campo ${path} no admite texto directo, solo otros campos: elimine el texto "${n.text.trim().slice(0, 30)}".`);
  }
  const c = new Content(n, isRoot);
  let i = 0;
  if (t.content) i = matchParticle(t.content, c, 0, ctx);
  if (i < n.children.length && !c.failed) {
    const k = n.children[i];
    const path = nodePath(n);
    push(
      ctx,
      `${path}/${k.name}`,
      `El campo ${path}/${k.name} no se esperaba en esta posición: revise que corresponda a este comprobante y que siga el orden del esquema de Hacienda.`,
    );
  }
}

/** Validates a parsed document tree. Returns [] when valid. */
export function validateTree(root: XNode, set: CompiledSchemaSet, opts: ValidateOptions = {}): SchemaError[] {
  const ctx: Ctx = { errors: [], set, unsigned: !!opts.unsigned, max: 50, ids: new Set() };
  const decl = set.elements.get(`{${root.ns}}${root.name}`);
  if (!decl) {
    return [
      {
        path: root.name,
        message: `El documento <${root.name}> (espacio de nombres "${root.ns}") no corresponde a ningún esquema cargado: revise el tipo de comprobante y su xmlns.`,
      },
    ];
  }
  validateElement(root, decl, ctx, true);
  return ctx.errors;
}
