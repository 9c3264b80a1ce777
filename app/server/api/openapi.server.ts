// The OpenAPI 3.1 document of the integrator API (GET /api/v1/openapi.json), generated from the
// operations table and the zod schemas the API validates with (z.toJSONSchema over the schema
// registry): nothing here describes a field by hand.
import { z } from "zod";
import { apiRegistry, API_MESSAGES, Problem } from "../../domain/api/schemas.ts";
import { OPERATIONS, type Operation } from "./operations.server.ts";

const REF = (id: string) => `#/components/schemas/${id}`;

/** A schema as JSON Schema 2020-12: a registered one (every body) by $ref, another (a query parameter) inline. */
function schemaOf(schema: z.ZodType): Record<string, unknown> {
  const id = apiRegistry.get(schema)?.id;
  if (id) return { $ref: REF(id) };
  const out = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

function components(): Record<string, unknown> {
  const all = z.toJSONSchema(apiRegistry, { target: "draft-2020-12", io: "input", uri: REF, unrepresentable: "any" }) as { schemas: Record<string, Record<string, unknown>> };
  for (const s of Object.values(all.schemas)) {
    delete s.$schema;
    delete s.$id;
    delete s.id;
  }
  return all.schemas;
}

const RATE_HEADERS = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimit-Limit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimit-Remaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimit-Reset" },
};

const problemResponse = (description: string) => ({ description, headers: RATE_HEADERS, content: { "application/problem+json": { schema: { $ref: REF("Problem") } } } });

function responsesOf(op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    const content = r.file ? { [r.file]: { schema: { type: "string", contentMediaType: r.file } } } : r.schema ? { [r.schema === Problem ? "application/problem+json" : "application/json"]: { schema: schemaOf(r.schema) } } : undefined;
    out[status] = { description: r.description, headers: RATE_HEADERS, ...(content ? { content } : {}) };
  }
  if (op.body || op.query) out["400"] ??= problemResponse("Datos inválidos: `errors` lista cada campo con su mensaje.");
  if (op.auth) {
    out["401"] ??= problemResponse("Falta el token, no es válido o venció.");
    out["403"] ??= problemResponse("La compañía no es del plan 5, está inactiva o no es una de las suyas (x-Company).");
  }
  if (op.path.includes("{")) out["404"] ??= problemResponse("No existe en su compañía.");
  if (op.idempotent) out["409"] ??= problemResponse("La Idempotency-Key ya se usó con otra solicitud, o la primera sigue en curso.");
  if (op.body) {
    out["413"] ??= problemResponse("El cuerpo supera el límite de la ruta.");
    out["415"] ??= problemResponse(API_MESSAGES.contentType);
  }
  out["429"] ??= problemResponse("Demasiadas solicitudes (o demasiados intentos fallidos de credenciales): vea Retry-After.");
  out["500"] ??= problemResponse("Error inesperado.");
  return out;
}

function parametersOf(op: Operation): unknown[] {
  const params: unknown[] = [];
  for (const m of op.path.matchAll(/\{(\w+)\}/g)) params.push({ name: m[1], in: "path", required: true, schema: { type: "string", pattern: "^[0-9]{1,9}$" } });
  if (op.query) {
    for (const [name, field] of Object.entries(op.query.shape as Record<string, z.ZodType>)) {
      const schema = schemaOf(field);
      const description = typeof schema.description === "string" ? schema.description : undefined;
      delete schema.description;
      params.push({ name, in: "query", required: !field.safeParse(undefined).success, schema, ...(description ? { description } : {}) });
    }
  }
  if (op.auth) params.push({ $ref: "#/components/parameters/XCompany" });
  if (op.idempotent) params.push({ $ref: "#/components/parameters/IdempotencyKey" });
  return params;
}

let cached: Record<string, unknown> | undefined;

export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const entry = (paths[op.path] ??= {});
    entry[op.method.toLowerCase()] = {
      operationId: op.id,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      security: op.auth ? [{ bearer: [] }] : [],
      parameters: parametersOf(op),
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: schemaOf(op.body) } } } } : {}),
      responses: responsesOf(op),
    };
  }
  paths["/openapi.json"] = {
    get: { operationId: "openApi", tags: ["Referencia"], summary: "Este documento (OpenAPI 3.1)", security: [], responses: { "200": { description: "El documento OpenAPI.", headers: RATE_HEADERS, content: { "application/json": { schema: { type: "object" } } } } } },
  };
  cached = {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "API de Colibrí",
      version: "1.0.0",
      description:
        "Emisión de comprobantes electrónicos (Hacienda v4.4) para integradores (plan 5). Autenticación con token Bearer (POST /auth/token); x-Company para usuarios de varias compañías; Idempotency-Key en los POST; errores application/problem+json con `detail` en español; webhooks firmados con HMAC-SHA256. Referencia legible: /api/docs.",
    },
    servers: [{ url: "/api/v1" }],
    tags: ["Autenticación", "Documentos", "Documentos recibidos", "Clientes", "Artículos", "Webhooks", "Referencia"].map((name) => ({ name })),
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "El access_token de POST /auth/token." } },
      parameters: {
        XCompany: { name: "x-Company", in: "header", required: false, description: "Id de la compañía, para el token de un usuario que trabaja en varias.", schema: { type: "string", pattern: "^[0-9]{1,9}$" } },
        IdempotencyKey: { name: "Idempotency-Key", in: "header", required: false, description: "La misma clave con la misma solicitud devuelve la primera respuesta (24 horas como mínimo); con otra solicitud, 409.", schema: { type: "string", minLength: 1, maxLength: 255 } },
      },
      headers: {
        "RateLimit-Limit": { description: "Solicitudes permitidas por ventana (60 s).", schema: { type: "string" } },
        "RateLimit-Remaining": { description: "Solicitudes que quedan en la ventana.", schema: { type: "string" } },
        "RateLimit-Reset": { description: "Segundos hasta que la ventana se renueva.", schema: { type: "string" } },
      },
      schemas: components(),
    },
    paths,
    webhooks: {
      documentEvent: {
        post: {
          summary: "Evento de un documento (aceptado o rechazado por Hacienda) o de un documento recibido procesado",
          description:
            "Encabezados: Colibri-Event-Id, Colibri-Event-Type, Colibri-Signature: t=<segundos>,v1=<hex HMAC-SHA256(clave, \"<t>.<cuerpo>\")>. Rechace firmas que no coincidan o con t a más de 5 minutos. Responda 2xx; si no, se reintenta con espera creciente por más de 24 horas.",
          requestBody: { content: { "application/json": { schema: { $ref: REF("WebhookEvent") } } } },
          responses: { "200": { description: "Recibido." } },
        },
      },
    },
  };
  return cached;
}
