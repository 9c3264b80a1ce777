// /api/docs — the integrator API's reference for people: a static page (no JavaScript) rendered from
// the same OpenAPI document that /api/v1/openapi.json serves, plus how to authenticate, retry safely
// and verify webhooks.
import type { Route } from "./+types/docs";
import { openApiDocument } from "../../server/api/openapi.server.ts";

export const handle = { hydrate: false };

type Json = Record<string, any>;

export function loader() {
  const doc = openApiDocument() as Json;
  const operations: Array<{ method: string; path: string; tag: string; summary: string; description?: string; auth: boolean; idempotent: boolean; query: Json[]; body: string | null; responses: Array<{ status: string; description: string; schema: string | null }> }> = [];
  for (const [path, entry] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(entry as Json)) {
      const o = op as Json;
      operations.push({
        method: method.toUpperCase(),
        path,
        tag: o.tags?.[0] ?? "",
        summary: o.summary,
        description: o.description,
        auth: (o.security ?? []).length > 0,
        idempotent: (o.parameters ?? []).some((p: Json) => p.$ref === "#/components/parameters/IdempotencyKey"),
        query: (o.parameters ?? []).filter((p: Json) => p.in === "query").map((p: Json) => ({ name: p.name, required: p.required, description: p.description ?? "", type: typeOf(p.schema) })),
        body: o.requestBody?.content?.["application/json"]?.schema?.$ref?.split("/").pop() ?? null,
        responses: Object.entries(o.responses as Json)
          .filter(([status]) => Number(status) < 400 || status === "502")
          .map(([status, r]) => {
            const content = (r as Json).content ?? {};
            const first = Object.entries(content)[0] as [string, Json] | undefined;
            return { status, description: (r as Json).description, schema: first ? (first[1].schema?.$ref?.split("/").pop() ?? first[0]) : null };
          }),
      });
    }
  }
  const schemas = Object.entries(doc.components.schemas as Json).map(([name, s]) => ({
    name,
    description: (s as Json).description ?? "",
    fields: Object.entries(((s as Json).properties ?? {}) as Json).map(([field, f]) => ({ field, type: typeOf(f), required: ((s as Json).required ?? []).includes(field), description: (f as Json).description ?? "" })),
  }));
  return { title: doc.info.title as string, description: doc.info.description as string, operations, schemas };
}

function typeOf(s: Json | undefined): string {
  if (!s) return "";
  if (s.$ref) return String(s.$ref).split("/").pop()!;
  if (s.enum) return s.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  if (s.anyOf) return s.anyOf.map(typeOf).join(" | ");
  if (s.type === "array") return `${typeOf(s.items)}[]`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  return Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "");
}

export function meta() {
  return [{ title: "API de Colibrí · Referencia" }];
}

const CURL = `# 1. Token (usuario y contraseña API de la compañía: Configuraciones › API)
curl -s -X POST https://colibri.example/api/v1/auth/token \\
  -H 'Content-Type: application/json' \\
  -d '{"username":"mi-pos","password":"…"}'

# 2. Emitir un tiquete (la misma Idempotency-Key en cada reintento)
curl -s -X POST https://colibri.example/api/v1/documents \\
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -H 'Idempotency-Key: caja-3-venta-000123' \\
  -d '{"kind":"te","controlNumber":"CAJA3-000123",
       "lines":[{"cabys":"4523000000100","description":"Café","quantity":1,
                 "unitPrice":"1500","tax":{"code":"01","tarifaCode":"08"}}]}'

# 3. Consultar su estado (por enviar → procesando → aceptado | rechazado)
curl -s https://colibri.example/api/v1/documents/123 -H "Authorization: Bearer $TOKEN"`;

const VERIFY = `import { createHmac, timingSafeEqual } from "node:crypto";

// header: "t=1764000000,v1=5f2b…"; body: el texto exacto recibido.
export function verify(secret, header, body, now = Date.now() / 1000) {
  const { t, v1 } = Object.fromEntries(header.split(",").map((p) => p.split("=")));
  if (!t || !v1 || Math.abs(now - Number(t)) > 300) return false; // ventana de 5 minutos
  const expected = createHmac("sha256", secret).update(\`\${t}.\${body}\`).digest("hex");
  return expected.length === v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
}`;

const ERRORS: Array<[string[], string]> = [
  [["validacion", "json", "idempotencia"], "400: datos inválidos; `errors` trae cada campo (JSON pointer) con el mismo mensaje que la pantalla. También un JSON mal formado o una Idempotency-Key inválida."],
  [["compania-requerida"], "400: su usuario trabaja en varias compañías: indique x-Company."],
  [["no-autorizado", "token-vencido", "credenciales", "renovacion"], "401: falta el token, no es válido o venció (renuévelo); usuario o contraseña incorrectos; token de renovación inválido."],
  [["plan", "inactiva", "compania"], "403: la compañía no es del plan 5, está inactiva o no es una de las suyas (x-Company)."],
  [["no-encontrado", "archivo", "ruta"], "404: no existe en su compañía (o el archivo aún no está); la ruta no existe."],
  [["metodo"], "405: método no permitido en la ruta (vea Allow)."],
  [["idempotencia-en-curso"], "409: la clave se usó con otra solicitud (idempotencia), o la primera sigue en curso: reintente."],
  [["ya-recibido"], "409: ese comprobante ya fue recibido (Location lo nombra)."],
  [["pago-con-rep"], "409: el pago tiene un recibo electrónico de pago emitido a Hacienda: no se puede eliminar."],
  [["demasiado-grande"], "413: el cuerpo supera el límite de la ruta."],
  [["tipo-de-contenido"], "415: falta Content-Type: application/json."],
  [["demasiadas-solicitudes", "demasiados-intentos"], "429: espere los segundos de Retry-After."],
  [["error-interno"], "500: error inesperado; la solicitud no se completó."],
  [["correo"], "502: el servidor de correo no aceptó el envío."],
];

export default function ApiDocs({ loaderData }: Route.ComponentProps) {
  const { title, description, operations, schemas } = loaderData;
  const tags = [...new Set(operations.map((o) => o.tag))];
  return (
    <main className="mx-auto max-w-5xl space-y-6 p-6 text-sm">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p>{description}</p>
        <p>
          Documento OpenAPI 3.1 (para generar clientes): <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>
        </p>
      </header>

      <section className="card space-y-2" id="credenciales">
        <h2 className="text-lg font-semibold">Credenciales y tokens</h2>
        <p>
          Un administrador define el usuario y la contraseña API de la compañía (plan 5) en Configuraciones › API, donde también ve y revoca los tokens y registra los webhooks. Con ellos,
          <code> POST /api/v1/auth/token</code> entrega un token de acceso (15 minutos) y uno de renovación (30 días, de un solo uso: <code>POST /api/v1/auth/refresh</code> entrega un par nuevo).
          Envíe <code>Authorization: Bearer …</code> en cada llamada. El token de un usuario que trabaja en varias compañías indica la compañía con <code>x-Company: &lt;id&gt;</code>.
        </p>
        <pre className="overflow-x-auto rounded bg-slate-100 p-3">{CURL}</pre>
      </section>

      <section className="card space-y-2" id="idempotencia">
        <h2 className="text-lg font-semibold">Reintentos seguros (Idempotency-Key)</h2>
        <p>
          Todo POST acepta <code>Idempotency-Key</code>. La misma clave con la misma solicitud devuelve la primera respuesta (el mismo documento, el mismo código) durante 24 horas como mínimo,
          con el encabezado <code>Idempotent-Replayed: true</code>; con otra solicitud, 409. Dos solicitudes simultáneas con la misma clave emiten un solo documento. Una solicitud rechazada (400) no
          consume la clave.
        </p>
      </section>

      <section className="card space-y-2" id="consecutivo">
        <h2 className="text-lg font-semibold">Número de control y consecutivo del integrador</h2>
        <p>
          <code>controlNumber</code> guarda su referencia (se muestra en la columna «N° de control» y filtra <code>GET /documents</code>). Si la compañía tiene modo_consecutive_api, cada documento
          indica <code>consecutive</code>: debe ser exactamente el siguiente de su tipo; uno ya usado o uno que deja un hueco se rechaza.
        </p>
      </section>

      <section className="card space-y-2" id="errores">
        <h2 className="text-lg font-semibold">Errores</h2>
        <p>
          Siempre <code>application/problem+json</code>: <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> (en español) y, si aplica, <code>errors</code>.
        </p>
        <table className="table">
          <tbody>
            {ERRORS.map(([codes, text]) => (
              <tr key={codes[0]}>
                <td>
                  {codes.map((code) => (
                    <code key={code} id={code} className="mr-2 inline-block">
                      {code}
                    </code>
                  ))}
                </td>
                <td>{text}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          Cada respuesta trae <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> y <code>RateLimit-Reset</code> (ventana de 60 s por compañía).
        </p>
      </section>

      <section className="card space-y-2" id="webhooks">
        <h2 className="text-lg font-semibold">Webhooks</h2>
        <p>
          Colibrí envía un POST JSON (<code>WebhookEvent</code>) cuando Hacienda acepta o rechaza un documento y cuando se procesa un documento recibido. Encabezados:
          <code> Colibri-Event-Id</code>, <code>Colibri-Event-Type</code> y <code>Colibri-Signature: t=&lt;segundos&gt;,v1=&lt;HMAC-SHA256&gt;</code> sobre <code>&quot;t.cuerpo&quot;</code> con la
          clave del webhook. Rechace firmas que no coinciden y las de más de 5 minutos. Responda 2xx: si no, se reintenta (30 s, 2 min, 8 min, 32 min y luego cada hora, más de 24 horas); el
          registro de entregas y «reenviar» están en Configuraciones › API.
        </p>
        <pre className="overflow-x-auto rounded bg-slate-100 p-3">{VERIFY}</pre>
      </section>

      {tags.map((tag) => (
        <section key={tag} className="card space-y-3">
          <h2 className="text-lg font-semibold">{tag}</h2>
          {operations
            .filter((o) => o.tag === tag)
            .map((o) => (
              <article key={`${o.method} ${o.path}`} className="space-y-1 border-t pt-2" id={`${o.method}-${o.path}`}>
                <h3 className="font-semibold">
                  <code>
                    {o.method} /api/v1{o.path}
                  </code>{" "}
                  — {o.summary}
                </h3>
                {o.description && <p>{o.description}</p>}
                <p className="text-slate-600">
                  {o.auth ? "Requiere token." : "Sin token."}
                  {o.idempotent ? " Acepta Idempotency-Key." : ""}
                  {o.body ? (
                    <>
                      {" "}
                      Cuerpo: <a href={`#schema-${o.body}`}>{o.body}</a>.
                    </>
                  ) : null}
                </p>
                {o.query.length > 0 && (
                  <ul className="list-disc pl-6">
                    {o.query.map((q) => (
                      <li key={q.name}>
                        <code>{q.name}</code> ({q.type}){q.description ? ` — ${q.description}` : ""}
                      </li>
                    ))}
                  </ul>
                )}
                <ul className="list-disc pl-6">
                  {o.responses.map((r) => (
                    <li key={r.status}>
                      {r.status}: {r.description}
                      {r.schema && r.schema.includes("/") ? ` (${r.schema})` : null}
                      {r.schema && !r.schema.includes("/") ? (
                        <>
                          {" "}
                          (<a href={`#schema-${r.schema}`}>{r.schema}</a>)
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </article>
            ))}
        </section>
      ))}

      <section className="card space-y-3">
        <h2 className="text-lg font-semibold">Esquemas</h2>
        {schemas.map((s) => (
          <article key={s.name} id={`schema-${s.name}`} className="space-y-1 border-t pt-2">
            <h3 className="font-semibold">{s.name}</h3>
            {s.description && <p>{s.description}</p>}
            {s.fields.length > 0 && (
              <table className="table">
                <tbody>
                  {s.fields.map((f) => (
                    <tr key={f.field}>
                      <td>
                        <code>{f.field}</code>
                        {f.required ? " *" : ""}
                      </td>
                      <td>{f.type}</td>
                      <td>{f.description}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </article>
        ))}
      </section>
    </main>
  );
}
