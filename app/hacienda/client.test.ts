import { describe, expect, it } from "vitest";
import {
  ENVIRONMENTS,
  HaciendaClientError,
  TokenBucket,
  backoffDelay,
  createHaciendaClient,
  fitsApi,
  formatFechaCR,
  isAlreadyReceivedCause,
  parseCallback,
  parseRetryAfter,
  sandboxEnvironment,
  type ClientOptions,
} from "./client.ts";

const CLAVE = "50601012600010123045600100001010000000001100000001";

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** A fake world: virtual clock, recorded sleeps and requests, scripted responses. */
function world(handler: Handler, extra: Partial<ClientOptions> = {}) {
  let clock = Date.parse("2026-11-05T16:00:00Z");
  const sleeps: number[] = [];
  const calls: { url: string; init: RequestInit; at: number }[] = [];
  const fetchFake = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init, at: clock });
    return handler(url, init);
  }) as typeof fetch;
  const client = createHaciendaClient({
    environment: "staging",
    fetch: fetchFake,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    random: () => 0.5,
    ...extra,
  });
  return {
    client,
    calls,
    sleeps,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const tokenJson = (access: string, expiresIn = 300, refresh = "r-" + access, refreshIn = 1800) =>
  new Response(
    JSON.stringify({
      access_token: access,
      expires_in: expiresIn,
      refresh_expires_in: refreshIn,
      refresh_token: refresh,
      token_type: "bearer",
    }),
    { status: 200, headers: { "content-type": "application/json" } },
  );

const creds = { username: "cpf-01-0123-0456@stag.comprobanteselectronicos.go.cr", password: "secreto", companyKey: "c1" };

const submitReq = {
  clave: CLAVE,
  fecha: "2026-11-05T10:00:00-06:00",
  emisor: { tipoIdentificacion: "01", numeroIdentificacion: "012304560" },
  comprobanteXml: "<FacturaElectronica>ñ</FacturaElectronica>",
};

function formOf(init: RequestInit): URLSearchParams {
  return new URLSearchParams(String(init.body));
}

describe("environments", () => {
  it("uses the documented IdP realms, client ids and recepción URLs", () => {
    expect(ENVIRONMENTS.production.tokenUrl).toBe(
      "https://idp.comprobanteselectronicos.go.cr/auth/realms/rut/protocol/openid-connect/token",
    );
    expect(ENVIRONMENTS.production.clientId).toBe("api-prod");
    expect(ENVIRONMENTS.production.recepcionUrl).toBe("https://api.comprobanteselectronicos.go.cr/recepcion/v1/");
    expect(ENVIRONMENTS.staging.tokenUrl).toContain("/realms/rut-stag/");
    expect(ENVIRONMENTS.staging.clientId).toBe("api-stag");
    expect(sandboxEnvironment("http://127.0.0.1:8089/")).toEqual({
      tokenUrl: "http://127.0.0.1:8089/auth/realms/rut-stag/protocol/openid-connect/token",
      clientId: "api-stag",
      recepcionUrl: "http://127.0.0.1:8089/recepcion/v1/",
    });
  });

  it("refuses plain http except on loopback (TLS is never optional)", () => {
    expect(() => createHaciendaClient({ recepcionUrl: "http://api.example.com/recepcion/v1/" })).toThrow(/HTTPS/);
    expect(() => createHaciendaClient({ tokenUrl: "http://idp.example.com/token" })).toThrow(HaciendaClientError);
    expect(createHaciendaClient({ ...sandboxEnvironment("http://127.0.0.1:1") }).config.recepcionUrl).toBe(
      "http://127.0.0.1:1/recepcion/v1/",
    );
  });
});

describe("tokens", () => {
  it("uses the password grant, caches per company and refreshes near expiry", async () => {
    let n = 0;
    const w = world((url) => {
      if (url.includes("/token")) return tokenJson(`t${++n}`);
      return new Response(null, { status: 202 });
    });
    expect(await w.client.getToken(creds)).toBe("t1");
    const first = formOf(w.calls[0].init);
    expect(first.get("grant_type")).toBe("password");
    expect(first.get("client_id")).toBe("api-stag");
    expect(first.get("username")).toBe(creds.username);
    expect(first.get("client_secret")).toBe("");
    expect(w.calls[0].url).toBe(ENVIRONMENTS.staging.tokenUrl);

    w.advance(200_000);
    expect(await w.client.getToken(creds)).toBe("t1"); // cached
    expect(w.calls).toHaveLength(1);

    w.advance(95_000); // 295 s: inside the 10 s skew
    expect(await w.client.getToken(creds)).toBe("t2");
    const second = formOf(w.calls[1].init);
    expect(second.get("grant_type")).toBe("refresh_token");
    expect(second.get("refresh_token")).toBe("r-t1");

    // another company has its own token
    expect(await w.client.getToken({ ...creds, companyKey: "c2" })).toBe("t3");
  });

  it("falls back to the password grant when the refresh token expired", async () => {
    let n = 0;
    const w = world((url) => (url.includes("/token") ? tokenJson(`t${++n}`, 300, "r", 60) : new Response(null)));
    await w.client.getToken(creds);
    w.advance(400_000);
    expect(await w.client.getToken(creds)).toBe("t2");
    expect(formOf(w.calls[1].init).get("grant_type")).toBe("password");
  });

  it("falls back to the password grant when the refresh is refused", async () => {
    let n = 0;
    const w = world((url, init) => {
      if (formOf(init).get("grant_type") === "refresh_token") {
        return new Response(JSON.stringify({ error: "invalid_grant" }), { status: 400 });
      }
      return tokenJson(`t${++n}`);
    });
    await w.client.getToken(creds);
    w.advance(299_000);
    expect(await w.client.getToken(creds)).toBe("t2");
    expect(w.calls.map((c) => formOf(c.init).get("grant_type"))).toEqual(["password", "refresh_token", "password"]);
  });

  it("reports bad credentials in Spanish with a code and does not retry them", async () => {
    const w = world(() => new Response(JSON.stringify({ error: "invalid_grant", error_description: "Invalid user credentials" }), { status: 401 }));
    const err = await w.client.getToken(creds).catch((e) => e);
    expect(err).toBeInstanceOf(HaciendaClientError);
    expect(err.code).toBe("CREDENCIALES_INVALIDAS");
    expect(err.message).toMatch(/usuario o la contraseña/);
    expect(w.calls).toHaveLength(1);
  });

  it("shares one token request between concurrent callers", async () => {
    let n = 0;
    const w = world(async (url) => {
      await new Promise((r) => setTimeout(r, 5));
      return url.includes("/token") ? tokenJson(`t${++n}`) : new Response(null);
    });
    const all = await Promise.all([w.client.getToken(creds), w.client.getToken(creds), w.client.getToken(creds)]);
    expect(all).toEqual(["t1", "t1", "t1"]);
    expect(w.calls).toHaveLength(1);
  });
});

describe("submit", () => {
  it("posts the NOTES §3 JSON with a bearer token and returns sent on 202", async () => {
    const w = world((url) =>
      url.includes("/token")
        ? tokenJson("tok")
        : new Response(null, { status: 202, headers: { location: `https://x/recepcion/${CLAVE}` } }),
    );
    const res = await w.client.submit(creds, {
      ...submitReq,
      receptor: { tipoIdentificacion: "02", numeroIdentificacion: "3101123456" },
      callbackUrl: "https://colibri.example/api/hacienda/callback",
    });
    expect(res).toEqual({ sent: true, duplicate: false, httpStatus: 202, location: `https://x/recepcion/${CLAVE}` });
    const post = w.calls[1];
    expect(post.url).toBe("https://api.comprobanteselectronicos.go.cr/recepcion-sandbox/v1/recepcion");
    expect(post.init.method).toBe("POST");
    expect((post.init.headers as Record<string, string>).authorization).toBe("Bearer tok");
    const body = JSON.parse(String(post.init.body));
    expect(Object.keys(body)).toEqual(["clave", "fecha", "emisor", "receptor", "callbackUrl", "comprobanteXml"]);
    expect(body.emisor).toEqual({ tipoIdentificacion: "01", numeroIdentificacion: "012304560" });
    expect(Buffer.from(body.comprobanteXml, "base64").toString("utf8")).toBe(submitReq.comprobanteXml);
  });

  it("leaves out a receptor the API cannot take (a foreign identification over 12 characters): the XML carries it", async () => {
    const w = world((url) => (url.includes("/token") ? tokenJson("tok") : new Response(null, { status: 202 })));
    await w.client.submit(creds, { ...submitReq, receptor: { tipoIdentificacion: "05", numeroIdentificacion: "P12345678901234" } });
    expect(Object.keys(JSON.parse(String(w.calls[1].init.body)))).toEqual(["clave", "fecha", "emisor", "comprobanteXml"]);
    expect(fitsApi({ tipoIdentificacion: "05", numeroIdentificacion: "P1234567" })).toBe(true);
    expect(fitsApi({ tipoIdentificacion: "02", numeroIdentificacion: "3101123456" })).toBe(true);
    expect(fitsApi({ tipoIdentificacion: "05", numeroIdentificacion: "1234567890123" })).toBe(false);
  });

  it("formats a Date fecha as RFC 3339 in Costa Rica time", () => {
    expect(formatFechaCR(new Date("2026-11-05T16:30:05.123Z"))).toBe("2026-11-05T10:30:05-06:00");
  });

  it("treats 'already received' (400 X-Error-Cause) and 409 as sent", async () => {
    for (const [status, cause] of [
      [400, `El comprobante [${CLAVE}] ya fue recibido anteriormente.`],
      [409, undefined],
    ] as const) {
      const w = world((url) =>
        url.includes("/token")
          ? tokenJson("tok")
          : new Response(null, { status, headers: cause ? { "x-error-cause": cause } : {} }),
      );
      const res = await w.client.submit(creds, submitReq);
      expect(res.sent).toBe(true);
      expect(res.duplicate).toBe(true);
    }
  });

  it("turns other 4xx into a Spanish error carrying X-Error-Cause", async () => {
    const w = world((url) =>
      url.includes("/token")
        ? tokenJson("tok")
        : new Response(null, { status: 400, headers: { "x-error-cause": "La clave no coincide con la del XML" } }),
    );
    const err = await w.client.submit(creds, submitReq).catch((e) => e);
    expect(err.code).toBe("ENVIO_RECHAZADO");
    expect(err.errorCause).toBe("La clave no coincide con la del XML");
    expect(err.message).toContain("La clave no coincide con la del XML");
    expect(w.calls).toHaveLength(2); // not retried
  });

  it("retries 5xx and network errors with exponential backoff and jitter", async () => {
    let posts = 0;
    const w = world((url) => {
      if (url.includes("/token")) return tokenJson("tok");
      posts++;
      if (posts === 1) return new Response(null, { status: 503 });
      if (posts === 2) throw new TypeError("fetch failed");
      if (posts === 3) return new Response(null, { status: 500 });
      return new Response(null, { status: 202 });
    });
    const res = await w.client.submit(creds, submitReq);
    expect(res.duplicate).toBe(false);
    expect(posts).toBe(4);
    // random()=0.5 → 3/4 of the cap: 500·2^i
    expect(w.sleeps).toEqual([375, 750, 1500]);
    expect(backoffDelay(10, 500, 30_000, () => 0)).toBe(15_000);
    expect(backoffDelay(10, 500, 30_000, () => 1)).toBe(30_000);
  });

  it("honours Retry-After on 429", async () => {
    let posts = 0;
    const w = world((url) => {
      if (url.includes("/token")) return tokenJson("tok");
      posts++;
      return posts === 1 ? new Response(null, { status: 429, headers: { "retry-after": "7" } }) : new Response(null, { status: 202 });
    });
    await w.client.submit(creds, submitReq);
    expect(w.sleeps).toEqual([7000]);
    expect(parseRetryAfter("Thu, 05 Nov 2026 16:00:30 GMT", Date.parse("2026-11-05T16:00:00Z"))).toBe(30_000);
    expect(parseRetryAfter("nonsense", 0)).toBeUndefined();
  });

  it("gives up after maxRetries with the last error", async () => {
    const w = world((url) => (url.includes("/token") ? tokenJson("tok") : new Response(null, { status: 502 })), {
      maxRetries: 2,
    });
    const err = await w.client.submit(creds, submitReq).catch((e) => e);
    expect(err.code).toBe("SERVICIO_NO_DISPONIBLE");
    expect(err.retryable).toBe(true);
    expect(w.calls.filter((c) => c.url.endsWith("/recepcion"))).toHaveLength(3);
  });

  it("aborts a request that takes longer than the timeout and retries it", async () => {
    let posts = 0;
    const w = world(
      (url, init) => {
        if (url.includes("/token")) return tokenJson("tok");
        posts++;
        if (posts === 1) {
          return new Promise<Response>((_, reject) => {
            init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
          });
        }
        return new Response(null, { status: 202 });
      },
      { timeoutMs: 30 },
    );
    const res = await w.client.submit(creds, submitReq);
    expect(res.sent).toBe(true);
    expect(posts).toBe(2);
  });

  it("gets a new token once when the API answers 401", async () => {
    let n = 0;
    let posts = 0;
    const w = world((url) => {
      if (url.includes("/token")) return tokenJson(`t${++n}`);
      posts++;
      return posts === 1 ? new Response(null, { status: 401 }) : new Response(null, { status: 202 });
    });
    await w.client.submit(creds, submitReq);
    const auths = w.calls.filter((c) => c.url.endsWith("/recepcion")).map((c) => (c.init.headers as Record<string, string>).authorization);
    expect(auths).toEqual(["Bearer t1", "Bearer t2"]);
  });
});

describe("rate limit", () => {
  it("lets a burst through and then spaces requests at the configured rate", async () => {
    let clock = 0;
    const waits: number[] = [];
    const bucket = new TokenBucket(10, 10, () => clock, async (ms) => {
      waits.push(ms);
      clock += ms;
    });
    for (let i = 0; i < 10; i++) expect(await bucket.take()).toBe(0);
    expect(await bucket.take()).toBe(100);
    clock += 1000;
    expect(await bucket.take()).toBe(0);
  });

  it("limits each company separately at 10 req/s by default", async () => {
    const w = world((url) => (url.includes("/token") ? tokenJson("tok") : new Response(null, { status: 202 })));
    for (let i = 0; i < 25; i++) await w.client.submit(creds, submitReq);
    const posts = w.calls.filter((c) => c.url.endsWith("/recepcion"));
    const span = posts[posts.length - 1].at - posts[0].at;
    // 26 requests (1 token + 25 posts) with a burst of 10 at 10/s need ≥ 1.5 s
    expect(span).toBeGreaterThanOrEqual(1500);
    const before = w.calls.length;
    await w.client.submit({ ...creds, companyKey: "other" }, submitReq);
    expect(w.calls.length).toBe(before + 2);
    expect(w.calls[w.calls.length - 1].at).toBe(w.calls[before - 1].at); // no wait for another company
  });
});

describe("status and callback", () => {
  const mh = `<?xml version="1.0" encoding="UTF-8"?><MensajeHacienda xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeHacienda"><Clave>${CLAVE}</Clave><NombreEmisor>X</NombreEmisor><Mensaje>3</Mensaje><EstadoMensaje>Rechazado</EstadoMensaje><DetalleMensaje>Este comprobante fue procesado en el ambiente de pruebas.
-37, El documento no cumple el esquema: /FacturaElectronica/Emisor/Nombre, 1, 1
</DetalleMensaje><TotalFactura>1</TotalFactura></MensajeHacienda>`;

  it("GETs /recepcion/{clave} and decodes, verifies and parses respuesta-xml", async () => {
    const w = world(
      (url) =>
        url.includes("/token")
          ? tokenJson("tok")
          : Response.json({
              clave: CLAVE,
              fecha: "2026-11-05T10:00:00-06:00",
              "ind-estado": "rechazado",
              "respuesta-xml": Buffer.from(mh).toString("base64"),
            }),
      { verify: (xml) => ({ valid: xml.includes("Rechazado"), errors: [] }), parse: (xml) => ({ length: xml.length }) },
    );
    const st = await w.client.status(creds, CLAVE);
    expect(w.calls[1].url).toBe(`${ENVIRONMENTS.staging.recepcionUrl}recepcion/${CLAVE}`);
    expect(st.estado).toBe("rechazado");
    expect(st.respuesta?.mensaje).toBe("3");
    expect(st.respuesta?.estadoMensaje).toBe("Rechazado");
    expect(st.respuesta?.detalleLineas[1]).toContain("/FacturaElectronica/Emisor/Nombre");
    expect(st.respuesta?.verification?.valid).toBe(true);
    expect(st.respuesta?.summary).toEqual({ length: mh.length });
  });

  it("uses {clave}-{consecutivoReceptor} for receiver messages and reports procesando", async () => {
    const w = world((url) =>
      url.includes("/token") ? tokenJson("tok") : Response.json({ clave: CLAVE, "ind-estado": "procesando" }),
    );
    const st = await w.client.status(creds, CLAVE, "00100001050000000007");
    expect(w.calls[1].url.endsWith(`/recepcion/${CLAVE}-00100001050000000007`)).toBe(true);
    expect(st.estado).toBe("procesando");
    expect(st.respuesta).toBeUndefined();
  });

  it("reports an unknown clave as NO_ENCONTRADO", async () => {
    const w = world((url) => (url.includes("/token") ? tokenJson("tok") : new Response(null, { status: 404 })));
    await expect(w.client.status(creds, CLAVE)).rejects.toMatchObject({ code: "NO_ENCONTRADO" });
  });

  it("parseCallback accepts both key spellings and any state case", () => {
    const a = parseCallback(
      JSON.stringify({ clave: CLAVE, fecha: "f", "ind-estado": "aceptado", "respuesta-xml": Buffer.from("<a/>").toString("base64") }),
    );
    expect(a).toEqual({ clave: CLAVE, fecha: "f", estado: "aceptado", indEstado: "aceptado", respuestaXml: "<a/>" });
    const b = parseCallback({ Clave: CLAVE, IndEstado: "RECIBIDO", respuestaXml: "" });
    expect(b.estado).toBe("recibido");
    expect(b.respuestaXml).toBeUndefined();
    expect(parseCallback({ clave: CLAVE, indEstado: "Rechazado" }).estado).toBe("rechazado");
    expect(parseCallback({ clave: CLAVE, indEstado: "raro" }).estado).toBe("error");
    expect(() => parseCallback("{")).toThrow(/JSON/);
    expect(() => parseCallback({ "ind-estado": "aceptado" })).toThrow(/clave/);
  });

  it("recognises Hacienda's already-received wording", () => {
    expect(isAlreadyReceivedCause(`El comprobante [${CLAVE}] ya fue recibido anteriormente.`)).toBe(true);
    expect(isAlreadyReceivedCause("La firma no es válida")).toBe(false);
    expect(isAlreadyReceivedCause(undefined)).toBe(false);
  });
});
