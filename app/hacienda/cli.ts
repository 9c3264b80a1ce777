/**
 * `npm run hacienda -- <command>`: the Hacienda library from the command line.
 * Each command loads only the modules it needs. Output to stdout, errors (Spanish) to stderr,
 * exit 0 on success, 1 on failure/invalid, 2 on wrong usage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";

export const USAGE = `Uso: npm run hacienda -- <comando> [opciones]

  example <fe|te|nc|nd|fec|fee|rep|mr>     Imprime un modelo de documento de ejemplo (JSON)
  build <modelo.json>                      Imprime el XML sin firmar del modelo
  sign --p12 ARCHIVO --pin PIN [--now ISO] Firma el XML de la entrada estándar
  verify                                   Verifica la firma del XML de la entrada estándar
  validate [--xsd CARPETA] [ARCHIVO]       Valida el XML (ARCHIVO o entrada estándar) que Colibrí emite: esquema XSD v4.4 y reglas de negocio exactas
  validate --received ARCHIVO [--xsd CARPETA] [--xsd43 CARPETA]
                                           Juzga un comprobante recibido como Hacienda: firma, esquema (4.4 o 4.3) y reglas con
                                           su tolerancia (montos redondeados a 2 decimales, códigos de actividad anteriores)
  parse                                    Resume el XML de la entrada estándar (JSON)
  clave build --fecha ISO --cedula N [--tipo-id 01] [--sucursal 1] [--terminal 1]
              --tipo fe|te|nc|nd|fec|fee|rep|01..10 --numero N [--situacion 1] [--codigo 8 dígitos]
  clave parse <clave>
  cert --cedula N --pin PIN --out ARCHIVO [--tipo-id 01|02] [--nombre NOMBRE] [--dias 730]
  send [--env staging|production|sandbox] [--user U] [--password P] --file firmado.xml [--callback URL]
       [--tipo-emisor 01..06] [--tipo-receptor 01..06]   (solo si el XML no trae Identificacion/Tipo, p. ej. un MensajeReceptor)
  status <clave> [--consecutivo-receptor N] [--env …] [--user U] [--password P]
  faults [--url URL] [--delay-ms N] [--5xx P] [--429 P] [--drop P] [--token-failure P] [--retry-after S]

Variables: HACIENDA_ENV, HACIENDA_USER, HACIENDA_PASSWORD, HACIENDA_BASE_URL, HACIENDA_TOKEN_URL,
HACIENDA_XSD_DIR (esquemas; por omisión ../shared/hacienda/xsd/v4.4-2026), HACIENDA_XSD43_DIR (esquemas v4.3
para comprobantes recibidos; por omisión ../shared/hacienda/xsd/v4.3).`;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");

export interface CliIo {
  stdin: () => Promise<string>;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** JSON reviver for document models: `issuedAt` (and any `…At`) ISO strings become Dates. */
export function reviveModel(key: string, value: unknown): unknown {
  if (typeof value === "string" && /At$/.test(key) && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    return new Date(value);
  }
  return value;
}

function need(v: string | undefined, flag: string): string {
  if (v === undefined || v === "") throw new CliError(`Falta la opción --${flag}.\n\n${USAGE}`, 2);
  return v;
}

function num(v: string | undefined, flag: string, def?: number): number {
  if (v === undefined) {
    if (def === undefined) throw new CliError(`Falta la opción --${flag}.`, 2);
    return def;
  }
  const n = Number(v);
  if (!Number.isFinite(n)) throw new CliError(`La opción --${flag} debe ser un número: ${v}`, 2);
  return n;
}

function xsdDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag) return resolve(flag);
  if (env.HACIENDA_XSD_DIR) return resolve(env.HACIENDA_XSD_DIR);
  return resolve(repoRoot, "..", "shared", "hacienda", "xsd", "v4.4-2026");
}

function xsd43Dir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag) return resolve(flag);
  if (env.HACIENDA_XSD43_DIR) return resolve(env.HACIENDA_XSD43_DIR);
  return resolve(repoRoot, "..", "shared", "hacienda", "xsd", "v4.3");
}

const ID_TYPES = new Set(["01", "02", "03", "04", "05", "06"]);

/**
 * The tipoIdentificacion sent for a party: the one the XML states (Identificacion/Tipo), else the
 * flag — never guessed from the number's length (a NITE and a cédula jurídica both have 10
 * digits, a DIMEX 11 or 12). A flag that disagrees with the XML is refused.
 */
export function partyIdType(who: "emisor" | "receptor", fromXml: string | undefined, flag: string | undefined): string {
  if (flag !== undefined && !ID_TYPES.has(flag)) throw new CliError(`--tipo-${who} debe ser 01, 02, 03, 04, 05 o 06 (recibido: ${flag}).`, 2);
  if (fromXml) {
    if (flag !== undefined && flag !== fromXml) throw new CliError(`--tipo-${who} ${flag} no coincide con el tipo de identificación del ${who} en el XML (${fromXml}).`, 2);
    return fromXml;
  }
  if (flag) return flag;
  throw new CliError(`El XML no indica el tipo de identificación del ${who}: indíquelo con --tipo-${who} (01 física, 02 jurídica, 03 DIMEX, 04 NITE, 05 extranjero, 06 no contribuyente).`, 2);
}

const KIND_TO_TYPE: Record<string, string> = { fe: "01", nd: "02", nc: "03", te: "04", fec: "08", fee: "09", rep: "10" };

/** Connection settings from flags and env (HACIENDA_*). */
export async function connectionFrom(values: Record<string, string | undefined>, env: NodeJS.ProcessEnv) {
  const { ENVIRONMENTS, sandboxEnvironment } = await import("./client.ts");
  const envName = String(values.env ?? env.HACIENDA_ENV ?? "staging");
  const user = (values.user as string | undefined) ?? env.HACIENDA_USER;
  const password = (values.password as string | undefined) ?? env.HACIENDA_PASSWORD;
  if (!user || !password) {
    throw new CliError("Faltan el usuario y la contraseña de Hacienda (--user/--password o HACIENDA_USER/HACIENDA_PASSWORD).", 2);
  }
  let config: { tokenUrl: string; clientId: string; recepcionUrl: string };
  if (envName === "sandbox") {
    const base = env.HACIENDA_BASE_URL ?? `http://127.0.0.1:${env.HACIENDA_SANDBOX_PORT ?? 8089}`;
    config = sandboxEnvironment(base.replace(/\/recepcion\/v1\/?$/, ""));
  } else if (envName === "staging" || envName === "production") {
    config = { ...ENVIRONMENTS[envName] };
    if (env.HACIENDA_BASE_URL) config.recepcionUrl = env.HACIENDA_BASE_URL;
  } else {
    throw new CliError(`Ambiente desconocido: ${envName}. Use staging, production o sandbox.`, 2);
  }
  if (env.HACIENDA_TOKEN_URL) config.tokenUrl = env.HACIENDA_TOKEN_URL;
  return { envName, config, credentials: { username: user, password } };
}

async function makeClient(values: Record<string, string | undefined>, env: NodeJS.ProcessEnv) {
  const { createHaciendaClient } = await import("./client.ts");
  const { verifyXml } = await import("./verify.ts");
  const { parseReceived } = await import("./parse.ts");
  const conn = await connectionFrom(values, env);
  const client = createHaciendaClient({ ...conn.config, verify: verifyXml, parse: parseReceived, maxRetries: 4, backoffBaseMs: 250 });
  return { client, credentials: conn.credentials };
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  /** All options of these commands are strings. */
  const parse = (options: NonNullable<ParseArgsConfig["options"]>) => {
    const r = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
    return { values: r.values as Record<string, string | undefined>, positionals: r.positionals };
  };

  switch (command) {
    case "example": {
      const kind = rest[0];
      const { exampleDocument } = await import("./examples.ts");
      if (!kind) throw new CliError(`Indique el tipo: fe, te, nc, nd, fec, fee, rep o mr.\n\n${USAGE}`, 2);
      const doc = (exampleDocument as (k: any) => unknown)(kind);
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
      return 0;
    }
    case "build": {
      const file = rest[0];
      if (!file) throw new CliError(`Indique el archivo del modelo: build <modelo.json>`, 2);
      const { buildXml } = await import("./build.ts");
      let model: unknown;
      try {
        model = JSON.parse(readFileSync(file, "utf8"), reviveModel);
      } catch (err) {
        throw new CliError(`No se pudo leer el modelo ${file}: ${(err as Error).message}`);
      }
      io.stdout((buildXml as (d: any) => string)(model));
      return 0;
    }
    case "sign": {
      const { values } = parse({ p12: { type: "string" }, pin: { type: "string" }, now: { type: "string" } });
      const [{ loadP12 }, { signXml }] = await Promise.all([import("./p12.ts"), import("./sign.ts")]);
      const now = values.now ? new Date(values.now) : new Date();
      const key = loadP12(readFileSync(need(values.p12, "p12")), need(values.pin, "pin"), { now });
      io.stdout(signXml(await io.stdin(), key, { now }));
      return 0;
    }
    case "verify": {
      const { verifyXml } = await import("./verify.ts");
      const r = verifyXml(await io.stdin());
      if (r.valid) {
        io.stdout(
          `Firma válida${r.certificate ? ` — firmante: ${JSON.stringify(r.certificate.subject ?? r.certificate)}` : ""}${r.signingTime ? `, firmado ${r.signingTime}` : ""}\n`,
        );
        return 0;
      }
      io.stderr(`Firma NO válida:\n${r.errors.map((e) => `  - ${e}`).join("\n")}\n`);
      return 1;
    }
    case "validate": {
      const { values, positionals } = parse({ xsd: { type: "string" }, xsd43: { type: "string" }, received: { type: "boolean" } });
      const received = (values as Record<string, unknown>).received === true;
      const file = positionals[0];
      if (received && !file) throw new CliError("Indique el archivo del comprobante recibido: validate --received ARCHIVO", 2);
      const input = file ? readFileSync(file) : Buffer.from(await io.stdin(), "utf8");
      if (received) return validateReceived(input, values, io);
      const xml = input.toString("utf8");
      const [{ validateSchema }, { loadSchemaSet }, { readModel }, { checkRules }] = await Promise.all([
        import("./xsd/index.ts"),
        import("./xsd/load.server.ts"),
        import("./read-model.ts"),
        import("./rules.ts"),
      ]);
      const set = loadSchemaSet(xsdDir(values.xsd as string | undefined, io.env));
      const unsigned = !/<(\w+:)?Signature[\s>]/.test(xml);
      const errors: { path: string; message: string; kind: string }[] = validateSchema(xml, set, { unsigned }).map((e) => ({
        ...e,
        kind: "esquema",
      }));
      // Business rules (rules.ts) on the model read back from the XML, with the math: every stated
      // amount is compared with what totals.ts computes from the lines.
      let model;
      try {
        model = readModel(xml);
      } catch (err) {
        // Unreadable as a model: the schema errors already say why; otherwise report it.
        if (errors.length === 0) errors.push({ path: "", message: (err as Error).message, kind: "reglas" });
      }
      if (model) {
        try {
          for (const e of checkRules(model, { math: true })) errors.push({ ...e, kind: "reglas" });
        } catch (err) {
          errors.push({ path: "", message: `No se pudieron revisar las reglas: ${(err as Error).message}`, kind: "reglas" });
        }
      }
      if (errors.length === 0) {
        io.stdout(`Documento válido${unsigned ? " (sin firma)" : ""}: esquema y reglas de negocio.\n`);
        return 0;
      }
      io.stdout(`${errors.map((e) => `[${e.kind}] ${e.path || "(documento)"}: ${e.message}`).join("\n")}\n`);
      io.stderr(`${errors.length} error(es).\n`);
      return 1;
    }
    case "parse": {
      const { parseReceived } = await import("./parse.ts");
      io.stdout(`${JSON.stringify((parseReceived as (x: string) => any)(await io.stdin()), null, 2)}\n`);
      return 0;
    }
    case "clave":
      return claveCommand(rest, io);
    case "cert": {
      const { values } = parse({
        cedula: { type: "string" },
        pin: { type: "string" },
        out: { type: "string" },
        "tipo-id": { type: "string" },
        nombre: { type: "string" },
        dias: { type: "string" },
      });
      const { makeTestP12 } = await import("./cert.ts");
      const cedula = need(values.cedula as string | undefined, "cedula").replace(/\D/g, "");
      const idType = (values["tipo-id"] as string | undefined) ?? (cedula.length === 10 ? "02" : "01");
      if (idType !== "01" && idType !== "02") throw new CliError("--tipo-id debe ser 01 (física) o 02 (jurídica).", 2);
      const now = new Date();
      const p12 = makeTestP12({
        cedula,
        idType,
        name: (values.nombre as string | undefined) ?? (idType === "02" ? "EMPRESA DE PRUEBAS S.A." : "PERSONA DE PRUEBAS"),
        pin: need(values.pin as string | undefined, "pin"),
        notBefore: new Date(now.getTime() - 86_400_000),
        notAfter: new Date(now.getTime() + num(values.dias as string | undefined, "dias", 730) * 86_400_000),
      });
      const out = need(values.out as string | undefined, "out");
      writeFileSync(out, p12, { mode: 0o600 });
      io.stdout(`Llave criptográfica de PRUEBA escrita en ${out} (cédula ${cedula}). No sirve ante Hacienda.\n`);
      return 0;
    }
    case "send": {
      const { values } = parse({
        env: { type: "string" },
        user: { type: "string" },
        password: { type: "string" },
        file: { type: "string" },
        callback: { type: "string" },
        "tipo-emisor": { type: "string" },
        "tipo-receptor": { type: "string" },
      });
      const xml = readFileSync(need(values.file as string | undefined, "file"), "utf8");
      const { readComprobante } = await import("./sandbox/mensaje.ts");
      let facts;
      try {
        facts = readComprobante(xml);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      if (!facts.clave) throw new CliError("El XML no tiene Clave.");
      const fecha = /<(?:\w+:)?FechaEmision(?:Doc)?>([^<]+)</.exec(xml)?.[1];
      if (!fecha) throw new CliError("El XML no tiene FechaEmision.");
      if (!facts.emisor.numero) throw new CliError("El XML no identifica al emisor.");
      const isMr = facts.root === "MensajeReceptor";
      // The identification types come from the XML (a MensajeReceptor carries none: then the flags).
      const emisorTipo = partyIdType("emisor", facts.emisor.tipo, values["tipo-emisor"]);
      const receptorTipo = facts.receptor.numero ? partyIdType("receptor", facts.receptor.tipo, values["tipo-receptor"]) : undefined;
      const { client, credentials } = await makeClient(values, io.env);
      const res = await client.submit(credentials, {
        clave: facts.clave,
        fecha,
        emisor: { tipoIdentificacion: emisorTipo, numeroIdentificacion: facts.emisor.numero },
        receptor: facts.receptor.numero && receptorTipo ? { tipoIdentificacion: receptorTipo, numeroIdentificacion: facts.receptor.numero } : undefined,
        consecutivoReceptor: isMr ? facts.numeroConsecutivoReceptor : undefined,
        callbackUrl: values.callback as string | undefined,
        comprobanteXml: xml,
      });
      io.stdout(
        `${JSON.stringify({ clave: facts.clave, enviado: res.sent, yaRecibido: res.duplicate, http: res.httpStatus, location: res.location }, null, 2)}\n`,
      );
      return 0;
    }
    case "status": {
      const { values, positionals } = parse({
        env: { type: "string" },
        user: { type: "string" },
        password: { type: "string" },
        "consecutivo-receptor": { type: "string" },
      });
      const clave = positionals[0];
      if (!clave) throw new CliError("Indique la clave: status <clave>", 2);
      const { client, credentials } = await makeClient(values, io.env);
      const st = await client.status(credentials, clave, values["consecutivo-receptor"] as string | undefined);
      io.stdout(
        `${JSON.stringify(
          {
            clave: st.clave,
            fecha: st.fecha,
            estado: st.estado,
            mensaje: st.respuesta?.mensaje,
            estadoMensaje: st.respuesta?.estadoMensaje,
            detalle: st.respuesta?.detalleLineas,
            firmaRespuestaValida: st.respuesta?.verification?.valid,
          },
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    case "faults": {
      const { values } = parse({
        url: { type: "string" },
        "delay-ms": { type: "string" },
        "5xx": { type: "string" },
        "429": { type: "string" },
        drop: { type: "string" },
        "token-failure": { type: "string" },
        "retry-after": { type: "string" },
      });
      const base = (values.url as string | undefined) ?? io.env.HACIENDA_BASE_URL ?? `http://127.0.0.1:${io.env.HACIENDA_SANDBOX_PORT ?? 8089}`;
      const patch: Record<string, number> = {};
      const map: [string, string][] = [
        ["delay-ms", "delayMs"],
        ["5xx", "error5xxShare"],
        ["429", "rateLimitShare"],
        ["drop", "dropShare"],
        ["token-failure", "tokenFailureShare"],
        ["retry-after", "retryAfterSeconds"],
      ];
      for (const [flag, key] of map) {
        const v = values[flag] as string | undefined;
        if (v !== undefined) patch[key] = num(v, flag);
      }
      const res = await fetch(`${base.replace(/\/+$/, "")}/__sandbox/faults`, { method: "POST", body: JSON.stringify(patch) });
      const body = await res.text();
      if (!res.ok) throw new CliError(`El simulador rechazó los fallos: ${body}`);
      io.stdout(`${body}\n`);
      return 0;
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      io.stdout(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      throw new CliError(`Comando desconocido: ${command}\n\n${USAGE}`, 2);
  }
}

/** `validate --received`: judgeReceivedDocument, printed for a person; exit 0 when there is no problem. */
async function validateReceived(input: Buffer, values: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const [{ judgeReceivedDocument }, { loadSchemaSet, loadSchemaFolder }] = await Promise.all([import("./received.ts"), import("./xsd/load.server.ts")]);
  const schemas44 = loadSchemaSet(xsdDir(values.xsd, io.env));
  const dir43 = xsd43Dir(values.xsd43, io.env);
  let schemas43;
  try {
    schemas43 = loadSchemaFolder(dir43);
  } catch {
    schemas43 = undefined; // judged without it: the judgement notes it
  }
  const j = judgeReceivedDocument(input, { schemas44, schemas43 });
  const s = j.summary;
  const lines: string[] = [];
  if (s) lines.push(`${s.rootName} v${s.version}${s.clave ? ` — clave ${s.clave}` : ""}${s.issuer?.id ? ` — emisor ${s.issuer.id}` : ""}`);
  for (const p of j.problems) lines.push(`[${p.kind}] ${p.path || "(documento)"}: ${p.message}`);
  for (const w of j.warnings) lines.push(`[aviso] ${w.path || "(documento)"}: ${w.message}`);
  for (const n of j.notes) lines.push(`[nota] ${n}`);
  lines.push(j.ok ? "Comprobante recibido aceptable: firma, esquema y reglas como las aplica Hacienda." : `${j.problems.length} problema(s).`);
  io.stdout(`${lines.join("\n")}\n`);
  if (!j.ok) io.stderr(`${j.problems.length} problema(s).\n`);
  return j.ok ? 0 : 1;
}

async function claveCommand(rest: string[], io: CliIo): Promise<number> {
  const [sub, ...args] = rest;
  const clave = await import("./clave.ts");
  if (sub === "parse") {
    if (!args[0]) throw new CliError("Indique la clave: clave parse <clave>", 2);
    const parts = clave.parseClave(args[0]);
    io.stdout(`${JSON.stringify(parts, null, 2)}\n`);
    return 0;
  }
  if (sub === "build") {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        fecha: { type: "string" },
        cedula: { type: "string" },
        "tipo-id": { type: "string" },
        sucursal: { type: "string" },
        terminal: { type: "string" },
        tipo: { type: "string" },
        numero: { type: "string" },
        situacion: { type: "string" },
        codigo: { type: "string" },
      },
    });
    const tipoRaw = need(values.tipo, "tipo").toLowerCase();
    const docType = KIND_TO_TYPE[tipoRaw] ?? tipoRaw;
    const consecutivo = clave.buildConsecutivo({
      branch: num(values.sucursal, "sucursal", 1),
      terminal: num(values.terminal, "terminal", 1),
      docType: docType as never,
      sequence: num(values.numero, "numero"),
    });
    const issuedAt = new Date(need(values.fecha, "fecha"));
    if (Number.isNaN(issuedAt.getTime())) throw new CliError(`Fecha inválida: ${values.fecha}`, 2);
    const code = values.codigo ?? clave.randomSecurityCode((n) => crypto.getRandomValues(new Uint8Array(n)));
    const k = clave.buildClave({
      issuedAt,
      issuerId: need(values.cedula, "cedula"),
      issuerIdType: values["tipo-id"] as never,
      consecutivo,
      situacion: num(values.situacion, "situacion", 1) as 1 | 2 | 3,
      securityCode: code,
    });
    io.stdout(`${JSON.stringify({ clave: k, consecutivo }, null, 2)}\n`);
    return 0;
  }
  throw new CliError("Use: clave build --… | clave parse <clave>", 2);
}

/** runCli with what a failure prints ("Error [code]: message" on stderr) and its exit code. */
export async function runMain(argv: string[], io: CliIo): Promise<number> {
  try {
    return await runCli(argv, io);
  } catch (err) {
    const e = err as Error & { code?: string; exitCode?: number };
    io.stderr(`Error${e.code ? ` [${e.code}]` : ""}: ${e.message}\n`);
    return e instanceof CliError ? e.exitCode : 1;
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  void runMain(process.argv.slice(2), {
    stdin: readStdin,
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
  }).then((code) => {
    process.exitCode = code;
  });
}
