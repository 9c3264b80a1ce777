/**
 * Sandbox protocol tests with simple injected fakes for schema validation, signing,
 * verification and rules (the real library is exercised in real.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createHaciendaClient, sandboxEnvironment, type Credentials, type HaciendaClient } from "../client.ts";
import { DEFAULT_SANDBOX_USER, startSandbox, type Sandbox, type SandboxOptions } from "./server.ts";
import type { SandboxFaults } from "./faults.ts";

const EMISOR = "012304560";

/** The sandbox's clock in these tests: the fake documents are issued five minutes before. */
const NOW = Date.parse("2026-01-01T16:05:00Z");

function clave(n: number, securityCode = "12345678"): string {
  const k = `506010126${EMISOR.padStart(12, "0")}0010000101${String(n).padStart(10, "0")}1${securityCode}`;
  if (k.length !== 50) throw new Error("clave de prueba mal formada");
  return k;
}

/** A tiny stand-in for a signed comprobante: `<Fake>` = signature marker the fake verifier checks. */
function fakeDoc(c: string, opts: { nombre?: string; signature?: string; emisor?: string; fecha?: string } = {}): string {
  return `<?xml version="1.0" encoding="utf-8"?><FacturaElectronica xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica"><Clave>${c}</Clave><NumeroConsecutivo>${c.slice(21, 41)}</NumeroConsecutivo><FechaEmision>${opts.fecha ?? "2026-01-01T10:00:00-06:00"}</FechaEmision><Emisor><Nombre>${opts.nombre ?? "Colibrí S.A."}</Nombre><Identificacion><Tipo>01</Tipo><Numero>${opts.emisor ?? EMISOR}</Numero></Identificacion></Emisor><ResumenFactura><TotalImpuesto>13.00000</TotalImpuesto><TotalComprobante>113.00000</TotalComprobante></ResumenFactura><Fake>${opts.signature ?? "firma-ok"}</Fake></FacturaElectronica>`;
}

const fakeDeps: Pick<SandboxOptions<string>, "validate" | "verify" | "sign" | "signingKey"> = {
  signingKey: "clave-del-simulador",
  validate: (xml) => (xml.includes("<Nombre></Nombre>") ? [{ path: "/FacturaElectronica/Emisor/Nombre", message: "minLength 1" }] : []),
  verify: (xml) => (xml.includes("<Fake>firma-ok</Fake>") ? { valid: true } : { valid: false, errors: ["digest mismatch"] }),
  sign: (xml, key) => xml.replace("</MensajeHacienda>", `<Fake>${key}</Fake></MensajeHacienda>`),
};

const creds: Credentials = { username: DEFAULT_SANDBOX_USER.username, password: DEFAULT_SANDBOX_USER.password };

/** Small seeded PRNG (mulberry32) so fault sequences are reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(extra: Partial<SandboxOptions<string>> = {}) {
  sandbox = await startSandbox({ ...fakeDeps, processingDelayMs: 0, now: () => NOW, ...extra });
  return sandbox;
}

function clientFor(sb: Sandbox, extra: Parameters<typeof createHaciendaClient>[0] = {}): HaciendaClient {
  return createHaciendaClient({
    ...sandboxEnvironment(sb.url),
    backoffBaseMs: 5,
    backoffMaxMs: 50,
    timeoutMs: 5000,
    maxRetries: 12,
    rateLimitPerSecond: 0,
    ...extra,
  });
}

function request(c: string, xml: string, extra: Record<string, unknown> = {}) {
  return {
    clave: c,
    fecha: "2026-11-05T10:00:00-06:00",
    emisor: { tipoIdentificacion: "01", numeroIdentificacion: EMISOR },
    comprobanteXml: xml,
    ...extra,
  };
}

async function pollUntilFinal(client: HaciendaClient, c: string) {
  for (let i = 0; i < 200; i++) {
    const st = await client.status(creds, c);
    if (st.estado !== "procesando" && st.estado !== "recibido") return st;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`sin respuesta final para ${c}`);
}

/** A bearer token from the sandbox's IdP, for raw requests. */
async function tokenOf(sb: { tokenUrl: string }): Promise<string> {
  const raw = await fetch(sb.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", client_id: "api-stag", ...creds }).toString(),
  });
  return ((await raw.json()) as { access_token: string }).access_token;
}

describe("IdP", () => {
  it("issues 5-minute tokens for password and refresh grants at the real paths; 401 on bad credentials", async () => {
    const sb = await start();
    expect(sb.tokenUrl).toMatch(/\/auth\/realms\/rut-stag\/protocol\/openid-connect\/token$/);
    const form = (f: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(f).toString(),
    });
    const ok = await fetch(sb.tokenUrl, form({ grant_type: "password", client_id: "api-stag", username: creds.username, password: creds.password }));
    expect(ok.status).toBe(200);
    const tok = (await ok.json()) as Record<string, unknown>;
    expect(tok.expires_in).toBe(300);
    expect(typeof tok.refresh_token).toBe("string");
    const refreshed = await fetch(sb.tokenUrl, form({ grant_type: "refresh_token", client_id: "api-stag", refresh_token: String(tok.refresh_token) }));
    expect(refreshed.status).toBe(200);
    const bad = await fetch(sb.tokenUrl, form({ grant_type: "password", client_id: "api-stag", username: creds.username, password: "x" }));
    expect(bad.status).toBe(401);
    const wrongRealm = await fetch(sb.tokenUrlProduction, form({ grant_type: "password", client_id: "api-stag", username: creds.username, password: creds.password }));
    expect(wrongRealm.status).toBe(401);
    const prod = await fetch(sb.tokenUrlProduction, form({ grant_type: "password", client_id: "api-prod", username: creds.username, password: creds.password }));
    expect(prod.status).toBe(200);
  });

  it("refuses recepción calls without a valid bearer token", async () => {
    const sb = await start();
    const r = await fetch(`${sb.recepcionUrl}recepcion/${clave(1)}`);
    expect(r.status).toBe(401);
  });
});

describe("recepción", () => {
  it("accepts a good document: 202 + Location, recibido first, then aceptado with a signed MensajeHacienda", async () => {
    const sb = await start({ processingPolls: 1 });
    const client = clientFor(sb, { verify: fakeDeps.verify as never });
    const c = clave(1);
    const sent = await client.submit(creds, request(c, fakeDoc(c)));
    expect(sent).toMatchObject({ sent: true, duplicate: false, httpStatus: 202 });
    expect(sent.location).toBe(`${sb.url}/recepcion/v1/recepcion/${c}`);
    const first = await client.status(creds, c);
    expect(first.estado).toBe("recibido");
    expect(first.respuesta).toBeUndefined();
    const second = await client.status(creds, c);
    expect(second.estado).toBe("aceptado");
    expect(second.respuesta?.mensaje).toBe("1");
    expect(second.respuesta?.estadoMensaje).toBe("Aceptado");
    expect(second.respuesta?.detalleMensaje).toMatch(/^Este comprobante fue aceptado en el ambiente de pruebas/);
    expect(second.respuesta?.xml).toContain("<Fake>clave-del-simulador</Fake>");
    expect(second.respuesta?.xml).toContain("<TotalFactura>113.00000</TotalFactura>");
    expect(second.respuesta?.verification?.valid).toBe(false); // the fake verifier only trusts comprobante markers
  });

  it("reveals the answer only after processingDelayMs: recibido, then procesando, then the final state", async () => {
    let clock = NOW;
    const sb = await start({ processingDelayMs: 60_000, now: () => clock });
    const client = clientFor(sb);
    const c = clave(2);
    await client.submit(creds, request(c, fakeDoc(c)));
    expect((await client.status(creds, c)).estado).toBe("recibido");
    clock += 20_000;
    expect((await client.status(creds, c)).estado).toBe("recibido");
    clock += 10_000;
    expect((await client.status(creds, c)).estado).toBe("procesando");
    clock += 29_000;
    expect((await client.status(creds, c)).estado).toBe("procesando");
    clock += 1_000;
    expect((await client.status(creds, c)).estado).toBe("aceptado");
  });

  it("with processingPolls, answers recibido to the first poll and procesando to the next ones", async () => {
    const sb = await start({ processingPolls: 3 });
    const client = clientFor(sb);
    const c = clave(12);
    await client.submit(creds, request(c, fakeDoc(c)));
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await client.status(creds, c)).estado);
    expect(seen).toEqual(["recibido", "procesando", "procesando", "aceptado"]);
  });

  it("checks the fecha format (RFC 3339) with 400 + X-Error-Cause and stores nothing", async () => {
    const sb = await start();
    const client = clientFor(sb);
    for (const fecha of ["2026-11-05 10:00:00", "05/11/2026", "2026-11-05T10:00", "2026-13-05T10:00:00-06:00", "2026-11-05T10:00:00"]) {
      const err = await client.submit(creds, request(clave(13), fakeDoc(clave(13)), { fecha })).catch((e) => e);
      expect(err.code, fecha).toBe("ENVIO_RECHAZADO");
      expect(err.errorCause, fecha).toMatch(/formato RFC 3339/);
    }
    for (const [n, fecha] of [[14, "2026-01-01T10:00:00-06:00"], [15, "2026-01-01T16:00:00Z"], [16, "2026-01-01T10:00:00.123-0600"]] as const)
      expect((await client.submit(creds, request(clave(n), fakeDoc(clave(n)), { fecha }))).sent, fecha).toBe(true);
    expect(sb.state.registrations.get(clave(13))).toBeUndefined();
  });

  it("receives an unprocessable document and answers 'error' (no MensajeHacienda)", async () => {
    const sb = await start();
    const client = clientFor(sb);
    const broken = clave(17);
    expect((await client.submit(creds, request(broken, `<FacturaElectronica><Clave>${broken}</Clave>`))).httpStatus).toBe(202);
    const foreign = clave(18);
    expect((await client.submit(creds, request(foreign, `<Factura xmlns="urn:otra"><Clave>${foreign}</Clave></Factura>`))).httpStatus).toBe(202);
    for (const c of [broken, foreign]) {
      const st = await pollUntilFinal(client, c);
      expect(st.estado).toBe("error");
      expect(st.respuesta).toBeUndefined();
    }
    expect(sb.state.errorKeys().sort()).toEqual([broken, foreign].sort());
  });

  it("rejects a duplicated consecutive number with -99, even when both arrive at once", async () => {
    const sb = await start();
    const client = clientFor(sb);
    const a = clave(19, "11111111");
    const b = clave(19, "22222222");
    await Promise.all([client.submit(creds, request(a, fakeDoc(a))), client.submit(creds, request(b, fakeDoc(b)))]);
    const answers = [await pollUntilFinal(client, a), await pollUntilFinal(client, b)];
    expect(answers.map((x) => x.estado).sort()).toEqual(["aceptado", "rechazado"]);
    const rejected = answers.find((x) => x.estado === "rechazado")!;
    expect(rejected.respuesta?.detalleLineas).toContain(
      `-99, "La numeración consecutiva 00100001010000000019 de la identificación ${EMISOR} ya fue utilizada por el comprobante ${rejected.clave === a ? b : a}.", 0, 0`,
    );
  });

  it("lists rule warnings (-37) inside an accepted answer; rule errors (-45) reject", async () => {
    const sb = await start({
      rules: (xml) =>
        xml.includes("<Nombre>Con aviso</Nombre>")
          ? [{ path: "DetalleServicio/LineaDetalle[1]/CodigoCABYS", message: "La línea 1 no trae código CABYS: se clasificó por su unidad de medida.", warning: true }]
          : xml.includes("<Nombre>Con error</Nombre>")
            ? [{ path: "ResumenFactura/TotalComprobante", message: "ResumenFactura/TotalComprobante dice 1.00000 pero las líneas suman 1000.00000: corrija el monto o las líneas." }]
            : [],
    });
    const client = clientFor(sb);
    const warned = clave(20);
    await client.submit(creds, request(warned, fakeDoc(warned, { nombre: "Con aviso" })));
    const ok = await pollUntilFinal(client, warned);
    expect(ok.estado).toBe("aceptado");
    expect(ok.respuesta?.mensaje).toBe("1");
    expect(ok.respuesta?.detalleMensaje).toBe(
      [
        "Este comprobante fue aceptado en el ambiente de pruebas, por lo cual no tiene validez para fines tributarios",
        "",
        "codigo, mensaje, fila, columna",
        '-37, "DetalleServicio/LineaDetalle[1]/CodigoCABYS: La línea 1 no trae código CABYS: se clasificó por su unidad de medida.", 0, 0',
      ].join("\n"),
    );
    const wrong = clave(21);
    await client.submit(creds, request(wrong, fakeDoc(wrong, { nombre: "Con error" })));
    const no = await pollUntilFinal(client, wrong);
    expect(no.estado).toBe("rechazado");
    expect(no.respuesta?.detalleLineas).toContain('-45, "ResumenFactura/TotalComprobante dice 1.00000 pero las líneas suman 1000.00000: corrija el monto o las líneas.", 0, 0');
  });

  it("rules are not run on a document the schema already rejects (Hacienda's validation levels)", async () => {
    let ran = 0;
    const sb = await start({ rules: () => (ran++, []) });
    const client = clientFor(sb);
    const c = clave(22);
    await client.submit(creds, request(c, fakeDoc(c, { nombre: "" })));
    expect((await pollUntilFinal(client, c)).estado).toBe("rechazado");
    expect(ran).toBe(0);
  });

  it("lists the user's documents at /comprobantes, newest first, with paging and filters, and shows one at /comprobantes/{clave}", async () => {
    let clock = NOW;
    const second = { username: "cpj-3-101-123456@stag.comprobanteselectronicos.go.cr", password: "otra" };
    const sb = await start({ users: [DEFAULT_SANDBOX_USER, second], now: () => clock });
    const client = clientFor(sb);
    const mine = [clave(30), clave(31), clave(32)];
    for (const c of mine) {
      await client.submit(creds, request(c, fakeDoc(c)));
      clock += 1000;
    }
    const theirs = `506010126${"3101123456".padStart(12, "0")}00100001010000000033112345678`;
    await client.submit(second, request(theirs, fakeDoc(theirs, { emisor: "3101123456" }), { emisor: { tipoIdentificacion: "01", numeroIdentificacion: "3101123456" } }));
    const token = await tokenOf(sb);
    const get = async (path: string) => {
      const r = await fetch(`${sb.recepcionUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: r.status, body: r.status === 200 ? ((await r.json()) as Record<string, any>) : null, cause: r.headers.get("x-error-cause") };
    };
    const all = await get("comprobantes");
    expect(all.body).toMatchObject({ totalRegistros: 3, offset: 0 });
    expect(all.body!.comprobantes.map((x: { clave: string }) => x.clave)).toEqual([...mine].reverse());
    expect(all.body!.comprobantes[0]).toEqual({
      clave: mine[2],
      fecha: "2026-11-05T10:00:00-06:00",
      fechaEmision: "2026-01-01T10:00:00-06:00",
      emisor: { tipoIdentificacion: "01", numeroIdentificacion: EMISOR },
      estado: "aceptado",
    });
    const page = await get("comprobantes?offset=1&limit=1");
    expect(page.body).toMatchObject({ totalRegistros: 3, offset: 1 });
    expect(page.body!.comprobantes.map((x: { clave: string }) => x.clave)).toEqual([mine[1]]);
    expect((await get(`comprobantes?emisor=999999999`)).body).toMatchObject({ totalRegistros: 0, comprobantes: [] });
    expect((await get(`comprobantes?fechaEmisionDesde=2026-01-02`)).body).toMatchObject({ totalRegistros: 0 });
    expect((await get(`comprobantes?fechaEmisionDesde=2026-01-01&fechaEmisionHasta=2026-01-01`)).body).toMatchObject({ totalRegistros: 3 });
    expect((await get("comprobantes?limit=muchos")).status).toBe(400);

    const one = await get(`comprobantes/${mine[0]}`);
    expect(one.body).toMatchObject({ clave: mine[0], estado: "aceptado" });
    expect(Buffer.from(one.body!.comprobanteXml, "base64").toString("utf8")).toBe(fakeDoc(mine[0]!));
    expect(Buffer.from(one.body!.respuestaXml, "base64").toString("utf8")).toContain("<MensajeHacienda");
    // Another taxpayer's document is not found for this user.
    const foreign = await get(`comprobantes/${theirs}`);
    expect(foreign.status).toBe(404);
    expect(foreign.cause).toMatch(/no ha sido recibido/);
    expect((await fetch(`${sb.recepcionUrl}comprobantes`)).status).toBe(401);
  });

  it("rejects a schema error naming the failing field", async () => {
    const sb = await start();
    const client = clientFor(sb);
    const c = clave(3);
    await client.submit(creds, request(c, fakeDoc(c, { nombre: "" })));
    const st = await pollUntilFinal(client, c);
    expect(st.estado).toBe("rechazado");
    expect(st.respuesta?.mensaje).toBe("3");
    expect(st.respuesta?.detalleLineas).toContain("codigo, mensaje, fila, columna");
    expect(st.respuesta?.detalleMensaje).toContain("/FacturaElectronica/Emisor/Nombre");
    expect(st.respuesta?.detalleMensaje).toContain("minLength 1");
  });

  it("rejects a broken signature", async () => {
    const sb = await start();
    const client = clientFor(sb);
    const c = clave(4);
    await client.submit(creds, request(c, fakeDoc(c, { signature: "alterada" })));
    const st = await pollUntilFinal(client, c);
    expect(st.estado).toBe("rechazado");
    expect(st.respuesta?.detalleMensaje).toContain("La firma del comprobante electrónico no es válida");
    expect(st.respuesta?.detalleMensaje).toContain("digest mismatch");
  });

  it("refuses a clave that differs from the XML, or a different emisor, with X-Error-Cause", async () => {
    const sb = await start();
    const client = clientFor(sb);
    const err = await client.submit(creds, request(clave(5), fakeDoc(clave(6)))).catch((e) => e);
    expect(err.code).toBe("ENVIO_RECHAZADO");
    expect(err.errorCause).toMatch(/no coincide con la clave del comprobante XML/);
    const err2 = await client.submit(creds, request(clave(7), fakeDoc(clave(7), { emisor: "999999999" }))).catch((e) => e);
    expect(err2.errorCause).toMatch(/emisor/);
    expect(sb.state.documents.size).toBe(0);
    expect(sb.state.counters.rejectedPosts).toBe(2);
  });

  it("answers a duplicate POST like Hacienda (400 'ya fue recibido'), which the client counts as sent", async () => {
    const sb = await start();
    const client = clientFor(sb);
    const c = clave(8);
    const access_token = await tokenOf(sb);
    const post = () =>
      fetch(`${sb.recepcionUrl}recepcion`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
        body: JSON.stringify({ ...request(c, ""), comprobanteXml: Buffer.from(fakeDoc(c)).toString("base64") }),
      });
    expect((await post()).status).toBe(202);
    const dup = await post();
    expect(dup.status).toBe(400);
    expect(dup.headers.get("x-error-cause")).toBe(`El comprobante [${c}] ya fue recibido anteriormente.`);
    expect((await client.submit(creds, request(c, fakeDoc(c)))).duplicate).toBe(true);
    expect(sb.state.registrations.get(c)).toBe(1);
  });

  it("answers 404 with X-Error-Cause for an unknown clave", async () => {
    const sb = await start();
    await expect(clientFor(sb).status(creds, clave(9))).rejects.toMatchObject({ code: "NO_ENCONTRADO" });
  });

  it("POSTs the result to callbackUrl, retrying up to 3 times", async () => {
    const received: unknown[] = [];
    let calls = 0;
    const sb = await start({
      callbackRetryDelayMs: 5,
      fetch: (async (_url: string, init: RequestInit) => {
        calls++;
        received.push(JSON.parse(String(init.body)));
        return new Response(null, { status: calls < 3 ? 500 : 200 });
      }) as typeof fetch,
    });
    const client = clientFor(sb);
    const c = clave(10);
    await client.submit(creds, request(c, fakeDoc(c), { callbackUrl: "https://colibri.example/hacienda/callback" }));
    await sb.settled();
    expect(calls).toBe(3);
    expect(sb.state.documents.get(c)?.callback.delivered).toBe(true);
    expect(received[2]).toMatchObject({ clave: c, "ind-estado": "aceptado" });

    let calls2 = 0;
    const sb2 = await startSandbox({
      ...fakeDeps,
      processingDelayMs: 0,
      callbackRetryDelayMs: 5,
      fetch: (async () => {
        calls2++;
        throw new Error("connection refused");
      }) as unknown as typeof fetch,
    });
    try {
      const c2 = clave(11);
      await clientFor(sb2).submit(creds, request(c2, fakeDoc(c2), { callbackUrl: "https://colibri.example/cb" }));
      await sb2.settled();
      expect(calls2).toBe(4); // first try + 3 retries, then it gives up
      expect(sb2.state.documents.get(c2)?.callback.delivered).toBe(false);
    } finally {
      await sb2.close();
    }
  });

  it("refuses an identification longer than the API documents (numeroIdentificacion ≤ 12)", async () => {
    const sb = await start();
    const c = clave(9);
    const access_token = await tokenOf(sb);
    const res = await fetch(`${sb.recepcionUrl}recepcion`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ ...request(c, ""), receptor: { tipoIdentificacion: "05", numeroIdentificacion: "P12345678901234" }, comprobanteXml: Buffer.from(fakeDoc(c)).toString("base64") }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("x-error-cause")).toMatch(/hasta 12 caracteres/);
    expect(sb.state.registrations.get(c)).toBeUndefined();
  });

  it("changes faults through the admin endpoint and rejects nonsense", async () => {
    const sb = await start();
    const r = await fetch(`${sb.url}/__sandbox/faults`, { method: "POST", body: JSON.stringify({ error5xxShare: 0.5, delayMs: 3 }) });
    expect(r.status).toBe(200);
    expect(sb.faults()).toMatchObject({ error5xxShare: 0.5, delayMs: 3 });
    const bad = await fetch(`${sb.url}/__sandbox/faults`, { method: "POST", body: JSON.stringify({ dropShare: 2 }) });
    expect(bad.status).toBe(400);
    const unknown = await fetch(`${sb.url}/__sandbox/faults`, { method: "POST", body: JSON.stringify({ explode: 1 }) });
    expect(unknown.status).toBe(400);
    expect(sb.faults().dropShare).toBe(0);
  });
});

describe("under faults, every document is accepted exactly once and none is lost", () => {
  const N = 12;
  const cases: [string, Partial<SandboxFaults>][] = [
    ["delay", { delayMs: 40 }],
    ["5xx", { error5xxShare: 0.4 }],
    ["429", { rateLimitShare: 0.3, retryAfterSeconds: 0 }],
    ["dropped answers", { dropShare: 0.35 }],
    ["token failure", { tokenFailureShare: 0.5 }],
    ["everything at once", { delayMs: 5, error5xxShare: 0.2, rateLimitShare: 0.15, retryAfterSeconds: 0, dropShare: 0.2, tokenFailureShare: 0.3 }],
  ];
  for (const [name, faults] of cases) {
    it(name, async () => {
      // A seeded generator so a failure can be reproduced.
      const random = mulberry32(20261105);
      // Token lifetime below the client's renewal margin: every call fetches a token, so token faults bite.
      const sb = await start({ faults, random, processingPolls: 1, tokenLifetimeSeconds: faults.tokenFailureShare ? 1 : 300 });
      const client = clientFor(sb, { timeoutMs: faults.delayMs ? 2000 : 1000 });
      const claves = Array.from({ length: N }, (_, i) => clave(100 + i));
      const results = await Promise.all(
        claves.map(async (c) => {
          await client.submit(creds, request(c, fakeDoc(c)));
          return pollUntilFinal(client, c);
        }),
      );
      expect(results.map((r) => r.estado)).toEqual(claves.map(() => "aceptado"));
      expect(new Set(sb.state.acceptedKeys())).toEqual(new Set(claves));
      expect(sb.state.acceptedKeys()).toHaveLength(N);
      expect(sb.state.doubleRegistrations()).toEqual([]);
      for (const c of claves) expect(sb.state.registrations.get(c)).toBe(1);
      const injected =
        sb.state.counters.injected5xx + sb.state.counters.injected429 + sb.state.counters.droppedAnswers + sb.state.counters.tokenFailures;
      if (process.env.DEBUG_SANDBOX) console.log(name, sb.state.counters);
      if (name !== "delay") expect(injected).toBeGreaterThan(0); // the faults really fired
      if (faults.tokenFailureShare) expect(sb.state.counters.tokenFailures).toBeGreaterThan(0);
      // A dropped 202 makes the client resend; the sandbox must answer "ya fue recibido", not register again.
      if (faults.dropShare) expect(sb.state.counters.duplicatePosts).toBeGreaterThan(0);
    });
  }
});
