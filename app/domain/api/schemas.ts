/**
 * The integrator API's bodies (issue 15, docs/decisions/181): ONE zod schema per request and
 * answer, which both validates and produces the OpenAPI 3.1 document (app/server/api/openapi.server.ts,
 * `z.toJSONSchema`). Field names are those of the screen each call stands for — a document is the
 * form's draft (camelCase: `lines[0].unitPrice`), a client or an item the form's fields
 * (snake_case: `identification_type`) — so a refused field has the same Spanish message and, as a
 * JSON pointer, the same path as on the screen. Pure: no I/O.
 */
import { z } from "zod";
import { DRAFT_MESSAGES } from "../document-draft.ts";
import { FORM_MESSAGES, MAX_LINES, MAX_NOTIFY_EMAILS, MAX_PAYMENTS } from "../document-form.ts";

/** Components of the OpenAPI document: a schema registered here appears once, by its id. */
export const apiRegistry = z.registry<{ id: string; description?: string }>();
const named = <T extends z.ZodType>(id: string, schema: T, description?: string): T => {
  apiRegistry.add(schema, { id, ...(description ? { description } : {}) });
  return schema;
};

export const API_MESSAGES = {
  invalidJson: "El cuerpo de la solicitud no es un JSON válido.",
  invalidBody: "La solicitud tiene datos inválidos: revise los errores de cada campo.",
  unauthorized: "Falta el token de acceso o no es válido: obtenga uno en /api/v1/auth/token.",
  expired: "El token de acceso venció: renuévelo con /api/v1/auth/refresh.",
  badCredentials: "Usuario o contraseña de la API incorrectos.",
  badRefresh: "El token de renovación no es válido, venció o fue revocado.",
  planOnly: "La API está disponible solo para compañías del plan 5 (API).",
  inactive: "La compañía está inactiva.",
  companyRequired: "Su usuario trabaja en varias compañías: indique una en el encabezado x-Company.",
  companyUnknown: "La compañía indicada en x-Company no existe o no tiene acceso a ella.",
  notFound: "No encontrado",
  routeNotFound: "La ruta no existe en la API.",
  methodNotAllowed: "El método no está permitido en esta ruta.",
  tooLarge: (limit: string) => `La solicitud es demasiado grande (máximo ${limit}).`,
  contentType: "Envíe el cuerpo como JSON (Content-Type: application/json).",
  rateLimited: (seconds: number) => `Demasiadas solicitudes: espere ${seconds} ${seconds === 1 ? "segundo" : "segundos"}.`,
  idempotencyKey: "La Idempotency-Key debe tener entre 1 y 255 caracteres visibles.",
  idempotencyMismatch: "Esta Idempotency-Key ya se usó con otra solicitud: use una clave nueva para una solicitud distinta.",
  idempotencyInProgress: "Otra solicitud con esta Idempotency-Key está en curso: repítala en unos segundos.",
  internal: "Ocurrió un error inesperado; la solicitud no se completó. Inténtelo de nuevo.",
  consecutiveRequired: "La compañía usa el consecutivo del integrador: indique `consecutive`.",
  consecutiveNotUsed: "La compañía no usa el consecutivo del integrador: no envíe `consecutive`.",
  kindNotIssued: "Este tipo de documento no se emite por esta ruta.",
  fileUnavailable: "Este archivo no esta disponible para su descarga",
  webhookUrl: "Indique una URL http(s) completa, sin usuario ni contraseña.",
  webhookPrivate: "La URL apunta a una dirección interna; use una dirección pública.",
  emailFailed: (why: string) => `No se pudo enviar el correo: ${why}`,
} as const;

// ---- Shared pieces ----------------------------------------------------------------------------------

/** A decimal as a string ("12500.50"); numbers are accepted and read as their decimal text. */
export const Decimal = named(
  "Decimal",
  z.union([z.string().trim().regex(/^-?\d{1,15}(\.\d{1,5})?$/, "Debe ser un número (punto decimal, hasta 5 decimales)."), z.number()]),
  "Un número decimal, de preferencia como texto (\"12500.50\"), para no perder precisión.",
);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use el formato AAAA-MM-DD.");
const Id = z.number().int().positive().max(2 ** 31 - 1);

export const FieldError = named(
  "FieldError",
  z.object({
    pointer: z.string().describe("JSON pointer (RFC 6901) del campo en el cuerpo de la solicitud; vacío para la solicitud entera."),
    detail: z.string().describe("El mensaje en español, el mismo que muestra la pantalla."),
  }),
);

export const Problem = named(
  "Problem",
  z.object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().describe("Qué pasó y qué hacer, en español."),
    errors: z.array(FieldError).optional(),
  }),
  "Un error (RFC 9457, application/problem+json).",
);

// ---- Authentication ---------------------------------------------------------------------------------

export const TokenRequest = named(
  "TokenRequest",
  z.object({
    username: z.string({ error: API_MESSAGES.badCredentials }).trim().min(1, API_MESSAGES.badCredentials).max(160),
    password: z.string({ error: API_MESSAGES.badCredentials }).min(1, API_MESSAGES.badCredentials).max(200),
  }),
  "El usuario API de la compañía (o el correo de un usuario) y su contraseña.",
);

export const RefreshRequest = named("RefreshRequest", z.object({ refresh_token: z.string({ error: API_MESSAGES.badRefresh }).min(1, API_MESSAGES.badRefresh).max(200) }));

export const TokenResponse = named(
  "TokenResponse",
  z.object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().describe("Segundos de validez del token de acceso."),
    refresh_token: z.string().describe("Sirve una sola vez: cada renovación entrega uno nuevo."),
    refresh_expires_in: z.number().int(),
    company: z.object({ id: z.number().int(), name: z.string() }).nullable().describe("La compañía del token; null para el token de un usuario (indique x-Company)."),
  }),
);

// ---- Documents --------------------------------------------------------------------------------------

export const API_DOCUMENT_KINDS = ["fe", "te", "fec"] as const;
export const DOCUMENT_KINDS = ["fe", "te", "nc", "nd", "fec", "rep"] as const;
export const DOCUMENT_STATUSES = ["por enviar", "procesando", "aceptado", "rechazado", "no aplica"] as const;

const Exoneration = z.object({
  docType: z.string().max(2).describe("TipoDocumentoEX1 (Nota 10.1)."),
  docTypeOther: z.string().max(100).optional(),
  number: z.string().max(40),
  article: z.string().max(6).optional(),
  inciso: z.string().max(6).optional(),
  institution: z.string().max(2).describe("NombreInstitucion (Nota 23)."),
  institutionOther: z.string().max(100).optional(),
  issuedAt: Day,
  percentage: Decimal.describe("Puntos de la tarifa exonerados (0 … la tarifa)."),
});

export const DocumentLineInput = named(
  "DocumentLineInput",
  z.object({
    itemId: Id.optional().describe("Un artículo de la compañía: llena código, CABYS, descripción, unidad, precio e impuesto (lo indicado aquí prevalece)."),
    code: z.string().max(20).optional(),
    cabys: z.string().regex(/^\d{13}$/, "El código CABYS debe tener 13 dígitos").optional(),
    description: z.string().max(200).optional(),
    quantity: Decimal,
    unit: z.string().max(20).optional().describe("Unidad de medida de Hacienda (Unid por omisión)."),
    unitPrice: Decimal.optional(),
    discountPercent: Decimal.optional(),
    taxTypeId: Id.optional().describe("Un impuesto de la Lista de IVA de la compañía (GET /tax-types)."),
    tax: z
      .object({ code: z.string().regex(/^\d{2}$/), tarifaCode: z.string().regex(/^\d{2}$/).optional(), rate: Decimal.optional() })
      .optional()
      .describe("O el impuesto por sus códigos de Hacienda; debe existir en la Lista de IVA de la compañía."),
    exoneration: Exoneration.optional(),
  }),
);

const Payment = z.object({ code: z.string().max(2).describe("MedioPago (Nota 6)."), amount: Decimal.optional(), other: z.string().max(100).optional() });

const ReferenceInput = z.object({
  docType: z.string().max(2).describe("TipoDocIR (Nota 10)."),
  number: z.string().max(50),
  date: Day,
  code: z.string().max(2).describe("Codigo (Nota 9)."),
  reason: z.string().max(180),
});

const commonDocumentFields = {
  controlNumber: z.string().trim().min(1).max(50).optional().describe("La referencia del integrador; se muestra en la columna 'N° de control'."),
  consecutive: z.number().int().min(1).max(9_999_999_999).optional().describe("Solo con modo_consecutive_api: el número que sigue en la numeración de la compañía (de su sucursal y terminal)."),
  branch: z.number().int().min(1).max(999).optional().describe("Sucursal que numera el documento (1–999); la de Configuración › Hacienda por omisión."),
  terminal: z.number().int().min(1).max(99_999).optional().describe("Terminal o punto de venta que numera el documento (1–99999): cada caja con su propia numeración consecutiva; la de Configuración › Hacienda por omisión."),
  saleCondition: z.string().max(2).optional().describe("CondicionVenta (Nota 5); 01 contado por omisión."),
  saleConditionOther: z.string().max(100).optional(),
  creditDays: z.number().int().optional(),
  payments: z.array(Payment).min(1, FORM_MESSAGES.paymentMethodRequired).max(MAX_PAYMENTS).optional().describe("MedioPago; efectivo por omisión."),
  emails: z.array(z.string().max(200)).max(MAX_NOTIFY_EMAILS).optional().describe("Correos a notificar además del cliente."),
};

export const DocumentCreate = named(
  "DocumentCreate",
  z.object({
    kind: z.enum(API_DOCUMENT_KINDS, { error: API_MESSAGES.kindNotIssued }).describe("fe factura, te tiquete, fec factura de compra."),
    clientId: Id.nullable().optional().describe("El cliente (fe, te) o el proveedor (fec); un tiquete sin cliente va al cliente genérico."),
    ...commonDocumentFields,
    currency: z.enum(["CRC", "USD"]).optional(),
    exchangeRate: Decimal.optional().describe("Colones por dólar; sin él se usa el tipo de cambio del día."),
    lines: z.array(DocumentLineInput).min(1, DRAFT_MESSAGES.noItems).max(MAX_LINES),
    note: z.string().max(1000).optional(),
    termId: Id.optional().describe("Términos y condiciones de la compañía que se imprimen."),
    remindPayment: z.boolean().optional(),
    internationalClient: z.object({ name: z.string().max(100), cedula: z.string().max(20) }).optional(),
    contingency: z.object({ number: z.string().max(50), date: Day }).optional().describe("Sustituye un comprobante provisional de contingencia."),
    references: z.array(ReferenceInput).max(1).optional().describe("La referencia a otro documento (fe, te) o la que exige la factura de compra (fec)."),
  }),
);

export const NoteCreate = named(
  "NoteCreate",
  z.object({
    reason: z.string().max(180).describe("Razón de la referencia (obligatoria)."),
    note: z.string().max(1000).optional().describe("La nota del documento; la razón por omisión."),
    ...commonDocumentFields,
    lines: z.array(DocumentLineInput).min(1, DRAFT_MESSAGES.noItems).max(MAX_LINES).optional().describe("Las líneas de la nota; las del documento por omisión (nota por el total)."),
  }),
);

const Totals = z.object({ subtotal: z.string(), discount: z.string(), tax: z.string(), exonerated: z.string(), ivaDevuelto: z.string(), otherCharges: z.string(), total: z.string() });

export const DocumentSummary = named(
  "DocumentSummary",
  z.object({
    id: z.number().int(),
    kind: z.enum(DOCUMENT_KINDS),
    status: z.enum(DOCUMENT_STATUSES),
    clave: z.string().nullable(),
    consecutive: z.string().nullable(),
    number: z.number().int().nullable(),
    controlNumber: z.string().nullable(),
    issuedAt: z.string(),
    currency: z.enum(["CRC", "USD"]),
    exchangeRate: z.string(),
    client: z.object({ id: z.number().int().nullable(), name: z.string(), identificationType: z.string().nullable(), identification: z.string().nullable(), email: z.string().nullable() }).nullable(),
    totals: Totals,
    paidAmount: z.string().describe("La suma de los pagos registrados."),
    due: z.string().nullable().describe("El saldo pendiente: total − pagos − notas de crédito aceptadas + notas de débito aceptadas (nunca negativo); null en un REP, que no recibe pagos."),
    hacienda: z.object({
      message: z.string().nullable(),
      reasons: z.array(z.string()).describe("Si fue rechazado: las razones de Hacienda en español."),
      submittedAt: z.string().nullable(),
      answeredAt: z.string().nullable(),
      lastError: z.string().nullable(),
    }),
    email: z.object({ sentAt: z.string().nullable(), sentTo: z.string().nullable(), error: z.string().nullable() }),
    links: z.object({ self: z.string(), xml: z.string(), response: z.string(), pdf: z.string() }),
  }),
);

const RepSummary = z
  .object({
    documentId: z.number().int().nullable().describe("El REP (GET /documents/{id}); null si no se emitió."),
    consecutive: z.string().nullable(),
    clave: z.string().nullable(),
    status: z.enum(DOCUMENT_STATUSES).nullable(),
    reasons: z.array(z.string()).describe("Si Hacienda lo rechazó: sus razones en español."),
    note: z.string().nullable().describe("Por qué no se emitió el REP que la condición de venta pide."),
  })
  .nullable()
  .describe("El recibo electrónico de pago del pago; null si la condición de venta no lo pide.");

const Payment_ = named(
  "Payment",
  z.object({
    id: z.number().int(),
    documentId: z.number().int(),
    date: z.string(),
    amount: z.string(),
    currency: z.enum(["CRC", "USD"]),
    payment_form: z.string().describe("MedioPago (Nota 6)."),
    description: z.string(),
    reference: z.string().nullable(),
    bank_id: z.number().int().nullable(),
    rep: RepSummary,
  }),
);

export const PaymentInput = named(
  "PaymentInput",
  z.object({
    amount: Decimal.describe("En la moneda del documento; como máximo el saldo pendiente."),
    payment_form: z.string().max(2).describe("MedioPago (Nota 6): 01 efectivo, 02 tarjeta, 04 transferencia …"),
    currency_id: z.number().int().min(1).max(2).optional().describe("1 dólares, 2 colones; la del documento por omisión (debe ser la del documento)."),
    date: z.string().max(10).optional().describe("AAAA-MM-DD; hoy (Costa Rica) por omisión."),
    description: z.string().max(250).optional().describe("'Pago factura Nº …' por omisión."),
    reference: z.string().max(100).optional(),
    bank_id: z.number().int().positive().optional(),
  }),
);

export const PaymentCreated = named(
  "PaymentCreated",
  z.object({
    payment: Payment_,
    paidAmount: z.string().describe("Lo pagado del documento, con este pago."),
    due: z.string().describe("El saldo pendiente del documento."),
  }),
);

export const Document = named(
  "Document",
  DocumentSummary.extend({
    lines: z.array(
      z.object({
        position: z.number().int(),
        itemId: z.number().int().nullable(),
        code: z.string().nullable(),
        cabys: z.string().nullable(),
        description: z.string(),
        quantity: z.string(),
        unit: z.string(),
        unitPrice: z.string(),
        discountPercent: z.string(),
        taxCode: z.string().nullable(),
        tarifaCode: z.string().nullable(),
        taxRate: z.string(),
        subtotal: z.string(),
        discount: z.string(),
        tax: z.string(),
        exonerated: z.string(),
        total: z.string(),
      }),
    ),
    references: z.array(z.object({ documentId: z.number().int().nullable(), docType: z.string(), number: z.string().nullable(), issuedAt: z.string(), code: z.string().nullable(), reason: z.string().nullable() })),
    payments: z.array(Payment_).describe("Los pagos registrados, con su recibo electrónico de pago (REP) cuando la condición de venta lo exige (08, 10)."),
  }),
);

const Page = <T extends z.ZodType>(id: string, item: T) =>
  named(id, z.object({ data: z.array(item), nextCursor: z.string().nullable().describe("Para la página siguiente: ?cursor=…; null en la última.") }));

export const DocumentList = Page("DocumentList", DocumentSummary);

export const DocumentQuery = z.object({
  kind: z.enum(DOCUMENT_KINDS).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  from: Day.optional().describe("Desde este día (Costa Rica), inclusive."),
  to: Day.optional().describe("Hasta este día (Costa Rica), inclusive."),
  clientId: z.string().regex(/^\d{1,9}$/).optional(),
  controlNumber: z.string().max(50).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.string().regex(/^\d{1,3}$/).optional().describe("Documentos por página (1–200, 50 por omisión)."),
});

export const EmailRequest = named(
  "EmailRequest",
  z.object({
    emails: z.array(z.string().max(200)).min(1).max(MAX_NOTIFY_EMAILS).optional().describe("Destinatarios; el cliente y los correos a notificar del documento por omisión."),
    subject: z.string().max(300).optional(),
    body: z.string().max(20_000).optional(),
  }),
);
export const EmailSent = named("EmailSent", z.object({ sentTo: z.array(z.string()) }));

// ---- Clients ----------------------------------------------------------------------------------------

const Contact = z.object({ name: z.string().max(160).optional(), email: z.string().max(160).optional(), workstation: z.string().max(160).optional(), send_copy: z.boolean().optional() });

export const ClientInput = named(
  "ClientInput",
  z.object({
    name: z.string().max(160),
    comercial_name: z.string().max(160).nullable().optional(),
    identification_type: z.number().int().min(1).max(4).describe("1 Cédula Física, 2 Cédula Jurídica, 3 DIMEX, 4 NITE."),
    identification: z.string().max(20),
    email: z.string().max(160),
    phone: z.string().max(20),
    address: z.string().max(250),
    country: z.number().int().positive().optional().describe("60 Costa Rica (por omisión)."),
    province: z.number().int().positive().nullable().optional(),
    canton: z.number().int().positive().nullable().optional(),
    district: z.number().int().positive().nullable().optional(),
    barrio: z.string().max(160).nullable().optional(),
    economic_activity_code: z.string().max(10).nullable().optional(),
    economic_activity_name: z.string().max(250).nullable().optional(),
    provider: z.boolean().optional().describe("Un proveedor (facturas de compra); solo al crear."),
    contacts: z.array(Contact).max(4).optional(),
  }),
);

export const Client = named(
  "Client",
  z.object({
    id: z.number().int(),
    name: z.string(),
    comercial_name: z.string().nullable(),
    identification_type: z.number().int(),
    identification: z.string(),
    email: z.string(),
    phone: z.string(),
    address: z.string(),
    country: z.number().int(),
    province: z.number().int().nullable(),
    canton: z.number().int().nullable(),
    district: z.number().int().nullable(),
    barrio: z.string().nullable(),
    economic_activity_code: z.string().nullable(),
    economic_activity_name: z.string().nullable(),
    provider: z.boolean(),
    generic: z.boolean(),
    active: z.boolean(),
    contacts: z.array(z.object({ name: z.string().nullable(), email: z.string().nullable(), workstation: z.string().nullable(), send_copy: z.boolean() })),
  }),
);
export const ClientList = Page("ClientList", Client);
export const ClientQuery = z.object({
  identification: z.string().max(20).optional(),
  search: z.string().max(100).optional(),
  provider: z.enum(["true", "false"]).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.string().regex(/^\d{1,3}$/).optional(),
});

// ---- Items ------------------------------------------------------------------------------------------

export const ItemInput = named(
  "ItemInput",
  z.object({
    code: z.string().max(20),
    cabys_code: z.string().max(13),
    name: z.string().max(200),
    description: z.string().max(500),
    category: z.number().int().positive(),
    unit: z.string().max(20),
    tax_type: z.number().int().positive().describe("Un impuesto de la Lista de IVA (GET /tax-types)."),
    currency: z.number().int().positive().describe("1 dólares, 2 colones."),
    price: Decimal,
  }),
);
export const Item = named(
  "Item",
  z.object({
    id: z.number().int(),
    code: z.string(),
    cabys_code: z.string().nullable(),
    name: z.string(),
    description: z.string(),
    category: z.number().int(),
    unit: z.string(),
    tax_type: z.number().int(),
    currency: z.number().int(),
    price: z.string(),
  }),
);
export const ItemList = Page("ItemList", Item);
export const ItemQuery = z.object({ code: z.string().max(20).optional(), search: z.string().max(100).optional(), cursor: z.string().max(200).optional(), limit: z.string().regex(/^\d{1,3}$/).optional() });

export const TaxTypeList = named(
  "TaxTypeList",
  z.object({ data: z.array(z.object({ id: z.number().int(), name: z.string(), rate: z.string(), taxCode: z.string(), vatCode: z.string() })) }),
);

// ---- Webhooks ---------------------------------------------------------------------------------------

import { WEBHOOK_EVENTS } from "./webhook-events.ts";
export { WEBHOOK_EVENTS };

export const WebhookInput = named(
  "WebhookInput",
  z.object({
    url: z.string().max(500),
    description: z.string().max(200).optional(),
    events: z.array(z.enum(WEBHOOK_EVENTS)).max(WEBHOOK_EVENTS.length).optional().describe("Eventos que recibe; todos por omisión."),
  }),
);
export const Webhook = named(
  "Webhook",
  z.object({
    id: z.number().int(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    active: z.boolean(),
    createdAt: z.string(),
    secret: z.string().optional().describe("Solo al crearlo: la clave para verificar la firma (no se vuelve a mostrar)."),
  }),
);
export const WebhookList = named("WebhookList", z.object({ data: z.array(Webhook) }));
export const WebhookDelivery = named(
  "WebhookDelivery",
  z.object({
    id: z.number().int(),
    eventId: z.string(),
    eventType: z.enum(WEBHOOK_EVENTS),
    documentId: z.number().int().nullable(),
    status: z.enum(["pendiente", "entregado", "fallido"]),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
  }),
);
export const WebhookDeliveryList = Page("WebhookDeliveryList", WebhookDelivery);
export const PageQuery = z.object({ cursor: z.string().max(200).optional(), limit: z.string().regex(/^\d{1,3}$/).optional() });

/** What a webhook posts (the body signed with HMAC-SHA256). */
export const WebhookEvent = named(
  "WebhookEvent",
  z.object({
    id: z.string().describe("Id del evento: el mismo en cada reintento (para descartar repetidos)."),
    type: z.enum(WEBHOOK_EVENTS),
    createdAt: z.string(),
    data: z.object({
      document: z
        .object({
          id: z.number().int(),
          kind: z.string(),
          status: z.string(),
          clave: z.string().nullable(),
          consecutive: z.string().nullable(),
          controlNumber: z.string().nullable(),
          total: z.string(),
          reasons: z.array(z.string()),
        })
        .optional(),
      receivedDocument: z
        .object({
          id: z.number().int(),
          clave: z.string(),
          issuerName: z.string(),
          issuerId: z.string(),
          message: z.number().int().describe("1 aceptado, 2 aceptado parcialmente, 3 rechazado."),
          status: z.string().describe("El estado de nuestro mensaje de receptor: aceptado, rechazado o no enviado."),
          messageConsecutive: z.string().nullable(),
          reasons: z.array(z.string()),
        })
        .optional(),
    }),
  }),
);

// ---- Received documents -------------------------------------------------------------------------------

export const RECEIVED_STATUSES = ["pendiente", "esperando", "por enviar", "procesando", "aceptado", "rechazado", "no enviado"] as const;

export const ReceivedDocumentUpload = named(
  "ReceivedDocumentUpload",
  z.object({
    xml: z.string().min(1).max(7_100_000).describe("El XML del comprobante del proveedor (FE, NC o ND, v4.2–4.4), en base64, tal como lo recibió."),
    response: z.string().min(1).max(1_000_000).optional().describe("La respuesta de Hacienda al proveedor (MensajeHacienda) en base64, si la tiene. Se comprueba que sea un XML firmado, pero no decide el estado: Colibrí se lo consulta siempre a Hacienda."),
    filename: z.string().max(120).optional(),
    message: z.number().int().optional().describe("Para decidir en la misma llamada: 1 Aceptado, 2 Aceptado Parcialmente, 3 Rechazado (las reglas de POST /received-documents/{id}/acceptance). Sin él queda pendiente."),
    message_detail: z.string().max(500).optional().describe("Con message 2 o 3, obligatorio (máximo 160 caracteres)."),
    expense_category: z.number().int().positive().optional().describe("Categoría de gasto (GET /expense-categories); la de Configuración recepción por omisión."),
    tax_condition: z.string().max(2).optional().describe("Condición de impuesto (Nota 18): 01 … 05; la de Configuración recepción por omisión."),
    tax_credit: Decimal.optional().describe("Con message: impuesto acreditable; sin él se deriva de la condición de impuesto."),
    applicable_expense: Decimal.optional().describe("Con message: gasto aplicable; sin él se deriva de la condición de impuesto."),
  }),
  "Un comprobante recibido de un proveedor: queda pendiente hasta aceptarlo, aceptarlo parcialmente o rechazarlo, o se decide en la misma llamada con `message` (y los demás campos de la aceptación).",
);

export const ReceivedDocumentDecision = named(
  "ReceivedDocumentDecision",
  z.object({
    message: z.number().int().describe("1 Aceptado, 2 Aceptado Parcialmente, 3 Rechazado."),
    message_detail: z.string().max(500).optional().describe("Obligatorio para 2 y 3 (máximo 160 caracteres)."),
    expense_category: z.number().int().positive().describe("Categoría de gasto (GET /expense-categories)."),
    tax_condition: z.string().max(2).describe("Condición de impuesto (Nota 18): 01 … 05."),
    tax_credit: Decimal.optional().describe("Impuesto acreditable; sin él se deriva de la condición de impuesto."),
    applicable_expense: Decimal.optional().describe("Gasto aplicable; sin él se deriva de la condición de impuesto."),
  }),
  "La decisión sobre un comprobante recibido (los campos del formulario 'Actualizar aceptación').",
);

export const ReceivedDocument = named(
  "ReceivedDocument",
  z.object({
    id: z.number().int(),
    clave: z.string(),
    kind: z.string().describe("FE, NC o ND."),
    version: z.string(),
    consecutive: z.string().nullable(),
    issuedAt: z.string(),
    issuer: z.object({ name: z.string(), identificationType: z.string().nullable(), identification: z.string() }),
    currency: z.string(),
    exchangeRate: z.string(),
    totals: z.object({ subtotal: z.string(), discount: z.string(), tax: z.string(), exonerated: z.string(), ivaDevuelto: z.string(), otherCharges: z.string(), total: z.string() }),
    issuerStatus: z.enum(["aceptado", "rechazado"]).nullable().describe("El veredicto de Hacienda sobre el comprobante del proveedor; null mientras no se sabe."),
    acceptance: z.object({
      message: z.number().int().describe("4 pendiente, 1 aceptado, 2 aceptado parcialmente, 3 rechazado."),
      label: z.string(),
      detail: z.string().nullable(),
      expenseCategory: z.number().int().nullable(),
      taxCondition: z.string().nullable(),
      creditableTax: z.string().nullable(),
      applicableExpense: z.string().nullable(),
      rejectDeadline: z.string().describe("Último día (Costa Rica) para rechazarlo."),
      processedAt: z.string().nullable(),
    }),
    status: z.enum(RECEIVED_STATUSES).describe("Nuestro mensaje de receptor."),
    message: z.object({
      consecutive: z.string().nullable(),
      issuedAt: z.string().nullable(),
      haciendaMessage: z.string().nullable(),
      reasons: z.array(z.string()).describe("Si Hacienda lo rechazó: sus razones en español."),
      submittedAt: z.string().nullable(),
      answeredAt: z.string().nullable(),
      lastError: z.string().nullable(),
    }),
    links: z.object({ self: z.string(), xml: z.string(), message: z.string(), response: z.string(), issuerResponse: z.string() }),
  }),
);
export const ReceivedDocumentList = named("ReceivedDocumentList", z.object({ data: z.array(ReceivedDocument), nextCursor: z.string().nullable() }));
export const ReceivedDocumentQuery = z.object({
  acceptance: z.enum(["aceptado", "rechazado", "pendiente"]).optional().describe("aceptado incluye aceptado parcialmente."),
  status: z.enum(RECEIVED_STATUSES).optional(),
  from: Day.optional().describe("Emitidos desde este día (Costa Rica), inclusive."),
  to: Day.optional().describe("Hasta este día (Costa Rica), inclusive."),
  clave: z.string().regex(/^\d{50}$/).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.string().regex(/^\d{1,3}$/).optional(),
});
export const ExpenseCategoryList = named("ExpenseCategoryList", z.object({ data: z.array(z.object({ id: z.number().int(), name: z.string() })) }));

/** "lines.0.unitPrice" (a form or use-case field) → "/lines/0/unitPrice" (RFC 6901). */
export function pointerOf(field: string): string {
  if (!field || field === "form" || field === "_form") return "";
  return "/" + field.split(".").map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
}
