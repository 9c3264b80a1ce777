/**
 * Sandbox protocol tests with simple injected fakes for schema validation, signing and
 * verification (the real library is exercised in e2e.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createHaciendaClient, sandboxEnvironment, type Credentials, type HaciendaClient } from "../client.ts";
import { DEFAULT_SANDBOX_USER, startSandbox, type Sandbox, type SandboxOptions } from "./server.ts";
import type { SandboxFaults } from "./faults.ts";

const EMISOR = "012304560";

function clave(n: number): string {
  const k = `506010126${EMISOR.padStart(12, "0")}0010000101${String(n).padStart(10, "0")}112345678`;
  if (k.length !== 50) throw new Error("clave de prueba mal formada");
  return k;
}

/** A tiny stand-in for a signed comprobante: `<Fake>` = signature marker the fake verifier checks. */
function fakeDoc(c: string, opts: { nombre?: string; signature?: string; emisor?: string } = {}): string {
  return `<?xml version="1.0" encoding="utf-8"?><FacturaElectronica xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica"><Clave>${c}</Clave><Emisor><Nombre>${opts.nombre ?? "Colibrí S.A."}</Nombre><Identificacion><Tipo>01</Tipo><Numero>${opts.emisor ?? EMISOR}</Numero></Identificacion></Emisor><ResumenFactura><TotalImpuesto>13.00000</TotalImpuesto><TotalComprobante>113.00000</TotalComprobante></ResumenFactura><Fake>${opts.signature ?? "firma-ok"}</Fake></FacturaElectronica>`;
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
  sandbox = await startSandbox({ ...fakeDeps, processingDelayMs: 0, ...extra });
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
  it("accepts a good document: 202 + Location, procesando first, then aceptado with a signed MensajeHacienda", async () => {
    const sb = await start({ processingPolls: 1 });
    const client = clientFor(sb, { verify: fakeDeps.verify as never });
    const c = clave(1);
    const sent = await client.submit(creds, request(c, fakeDoc(c)));
    expect(sent).toMatchObject({ sent: true, duplicate: false, httpStatus: 202 });
    expect(sent.location).toBe(`${sb.url}/recepcion/v1/recepcion/${c}`);
    const first = await client.status(creds, c);
    expect(first.estado).toBe("procesando");
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

  it("reveals the answer only after processingDelayMs", async () => {
    let clock = 1_000_000;
    const sb = await start({ processingDelayMs: 60_000, now: () => clock });
    const client = clientFor(sb);
    const c = clave(2);
    await client.submit(creds, request(c, fakeDoc(c)));
    expect((await client.status(creds, c)).estado).toBe("procesando");
    clock += 59_000;
    expect((await client.status(creds, c)).estado).toBe("procesando");
    clock += 1_000;
    expect((await client.status(creds, c)).estado).toBe("aceptado");
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
