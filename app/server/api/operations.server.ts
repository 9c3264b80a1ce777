// Every call of the integrator API, once: method, path, the zod schemas of its query, body and
// answers, and the use-case it runs. The dispatcher (router.server.ts) serves this table and the
// OpenAPI document (openapi.server.ts) is generated from it — no second, hand-written copy.
import type { z } from "zod";
import * as S from "../../domain/api/schemas.ts";
import { BODY_LIMITS } from "./config.server.ts";
import { createDocument, createNote, downloadDocument, emailDocument, getDocument, listDocuments, listTaxTypes, paymentOffDocument, paymentOnDocument, replayDocument, type ApiCall } from "./documents.server.ts";
import { decideReceived, downloadReceived, getReceived, listExpenseCategories, listReceived, replayReceived, uploadReceived } from "./receptions.server.ts";
import { cursorOf, idParam, json, notFound, pageLimit, readCursor } from "./http.server.ts";
import { onceInTransaction } from "./idempotency.server.ts";
import { createClientCall, createItemCall, getClientCall, getItemCall, listClientsCall, listItemsCall, updateClientCall, updateItemCall } from "./master-data.server.ts";
import { issueToken, refreshToken, revokeSession } from "./tokens.server.ts";
import { createWebhook, deleteWebhook, deliveriesOf, resendDelivery, webhooksOf, webhookNotFound } from "./webhooks.server.ts";

export interface CallContext extends ApiCall {
  request: Request;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
  ip: string;
}

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** A file instead of JSON: its media type. */
  file?: string;
}

export interface Operation {
  id: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** OpenAPI style, below /api/v1: /documents/{id}. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Needs a bearer token (all but the authentication calls and the OpenAPI document). */
  auth: boolean;
  query?: z.ZodObject;
  body?: z.ZodType;
  bodyLimit?: number;
  /** A POST that takes an Idempotency-Key. */
  idempotent?: boolean;
  /** How a stored answer of the key is answered again (documents: the document as it is now). */
  replay?: (call: CallContext, stored: Response) => Promise<Response>;
  responses: Record<number, ResponseDoc>;
  handle: (call: CallContext) => Promise<Response>;
}

const documentCreated = { description: "El documento emitido (firmado y en cola para Hacienda).", schema: S.Document };

export const OPERATIONS: Operation[] = [
  // ---- Authentication
  {
    id: "createToken",
    method: "POST",
    path: "/auth/token",
    tag: "Autenticación",
    summary: "Obtener un token de acceso",
    description: "Con el usuario y la contraseña API de la compañía (Configuración › API) o con el correo y la contraseña de un usuario (que entonces indica la compañía con x-Company). Los intentos fallidos se limitan como el inicio de sesión.",
    auth: false,
    body: S.TokenRequest,
    responses: {
      200: { description: "El token de acceso y el de renovación.", schema: S.TokenResponse },
      401: { description: "Usuario o contraseña incorrectos.", schema: S.Problem },
      403: { description: "La compañía no es del plan 5 o está inactiva.", schema: S.Problem },
    },
    handle: async (c) => {
      const b = c.body as z.output<typeof S.TokenRequest>;
      return json(await issueToken(c.db, { username: b.username, password: b.password, ip: c.ip, userAgent: c.request.headers.get("user-agent"), now: c.now }));
    },
  },
  {
    id: "refreshToken",
    method: "POST",
    path: "/auth/refresh",
    tag: "Autenticación",
    summary: "Renovar el token de acceso",
    description: "Entrega un token de acceso y uno de renovación nuevos; el de renovación usado deja de servir.",
    auth: false,
    body: S.RefreshRequest,
    responses: { 200: { description: "Los tokens nuevos.", schema: S.TokenResponse }, 401: { description: "El token de renovación no es válido, venció o fue revocado.", schema: S.Problem } },
    handle: async (c) => json(await refreshToken(c.db, (c.body as z.output<typeof S.RefreshRequest>).refresh_token, c.now)),
  },
  {
    id: "revokeToken",
    method: "POST",
    path: "/auth/revoke",
    tag: "Autenticación",
    summary: "Revocar el token en uso",
    description: "Cierra la sesión del token (el de acceso y el de renovación).",
    auth: true,
    responses: { 204: { description: "Revocado." } },
    handle: async (c) => {
      await revokeSession(c.db, c.principal.sessionId, c.now);
      return json(null, 204);
    },
  },
  // ---- Documents
  {
    id: "createDocument",
    method: "POST",
    path: "/documents",
    tag: "Documentos",
    summary: "Emitir una factura, un tiquete o una factura de compra",
    description:
      "Las mismas reglas que el formulario de la aplicación: un campo rechazado trae el mismo mensaje, con su ruta como JSON pointer. Con modo_consecutive_api el integrador indica `consecutive`. Acepta Idempotency-Key.",
    auth: true,
    body: S.DocumentCreate,
    bodyLimit: BODY_LIMITS.document,
    idempotent: true,
    replay: replayDocument,
    responses: { 201: documentCreated },
    handle: (c) => createDocument(c, c.body as z.output<typeof S.DocumentCreate>),
  },
  {
    id: "listDocuments",
    method: "GET",
    path: "/documents",
    tag: "Documentos",
    summary: "Listar documentos",
    description: "Del más reciente al más antiguo, con filtros; la página siguiente con ?cursor=nextCursor.",
    auth: true,
    query: S.DocumentQuery,
    responses: { 200: { description: "Una página de documentos.", schema: S.DocumentList } },
    handle: (c) => listDocuments(c, c.query as z.output<typeof S.DocumentQuery>),
  },
  {
    id: "getDocument",
    method: "GET",
    path: "/documents/{id}",
    tag: "Documentos",
    summary: "Consultar un documento",
    description: "Estado ante Hacienda, clave, consecutivo, totales, líneas y los mensajes de Hacienda.",
    auth: true,
    responses: { 200: { description: "El documento.", schema: S.Document } },
    handle: (c) => getDocument(c, idParam(c.params.id)),
  },
  ...(
    [
      ["xml", "downloadXml", "Descargar el XML firmado", "application/xml", "xml"],
      ["response", "downloadResponse", "Descargar la respuesta de Hacienda", "application/xml", "respuesta"],
      ["pdf", "downloadPdf", "Descargar el PDF", "application/pdf", "pdf"],
    ] as const
  ).map(
    ([segment, id, summary, file, kind]): Operation => ({
      id,
      method: "GET",
      path: `/documents/{id}/${segment}`,
      tag: "Documentos",
      summary,
      auth: true,
      responses: { 200: { description: "El archivo.", file } },
      handle: (c) => downloadDocument(c, idParam(c.params.id), kind),
    }),
  ),
  {
    id: "emailDocument",
    method: "POST",
    path: "/documents/{id}/email",
    tag: "Documentos",
    summary: "Enviar el documento por correo otra vez",
    description: "Al cliente y los correos a notificar (o a los indicados), con la plantilla de la compañía salvo que indique asunto y mensaje.",
    auth: true,
    body: S.EmailRequest,
    idempotent: true,
    responses: { 200: { description: "Enviado.", schema: S.EmailSent }, 502: { description: "El servidor de correo no lo aceptó.", schema: S.Problem } },
    handle: (c) => emailDocument(c, idParam(c.params.id), c.body as z.output<typeof S.EmailRequest>),
  },
  ...(["credit", "debit"] as const).map(
    (k): Operation => ({
      id: k === "credit" ? "createCreditNote" : "createDebitNote",
      method: "POST",
      path: `/documents/{id}/${k}-note`,
      tag: "Documentos",
      summary: k === "credit" ? "Emitir una nota de crédito de un documento" : "Emitir una nota de débito de un documento",
      description: "De una factura, un tiquete o una factura de compra: cliente, moneda y referencia son los del documento; las líneas, las del documento salvo que indique otras. Acepta Idempotency-Key.",
      auth: true,
      body: S.NoteCreate,
      bodyLimit: BODY_LIMITS.document,
      idempotent: true,
      replay: replayDocument,
      responses: { 201: documentCreated },
      handle: (c) => createNote(c, k === "credit" ? "nc" : "nd", idParam(c.params.id), c.body as z.output<typeof S.NoteCreate>),
    }),
  ),
  {
    id: "createPayment",
    method: "POST",
    path: "/documents/{id}/payments",
    tag: "Documentos",
    summary: "Registrar un pago de un documento",
    description:
      "Las reglas del formulario de pago (mismos mensajes). En una factura con condición de venta 08 o 10 el pago emite en la misma transacción el Recibo Electrónico de Pago (REP), que viaja a Hacienda como cualquier documento: `payment.rep` lo nombra (GET /documents/{id} del REP). Si el REP no se puede emitir, no se guarda nada. Acepta Idempotency-Key.",
    auth: true,
    body: S.PaymentInput,
    idempotent: true,
    responses: { 201: { description: "El pago registrado, con su REP si corresponde.", schema: S.PaymentCreated } },
    handle: (c) => paymentOnDocument(c, idParam(c.params.id), c.body as z.output<typeof S.PaymentInput>),
  },
  {
    id: "deletePayment",
    method: "DELETE",
    path: "/documents/{id}/payments/{paymentId}",
    tag: "Documentos",
    summary: "Eliminar un pago de un documento",
    description:
      "Como 'Eliminar' en la lista de pagos: el pago deja de contar y el saldo del documento vuelve a subir. Un pago cuyo Recibo Electrónico de Pago ya se emitió a Hacienda no se puede eliminar (409). Sin Idempotency-Key: repetir la llamada responde 404.",
    auth: true,
    responses: {
      200: { description: "El documento sin el pago (sus `payments`, `paidAmount` y `due`).", schema: S.Document },
      409: { description: "El pago tiene un recibo electrónico de pago emitido a Hacienda: no se puede eliminar.", schema: S.Problem },
    },
    handle: (c) => paymentOffDocument(c, idParam(c.params.id), idParam(c.params.paymentId)),
  },
  {
    id: "listTaxTypes",
    method: "GET",
    path: "/tax-types",
    tag: "Artículos",
    summary: "La Lista de IVA de la compañía",
    auth: true,
    responses: { 200: { description: "Los impuestos (taxTypeId de las líneas).", schema: S.TaxTypeList } },
    handle: (c) => listTaxTypes(c),
  },
  // ---- Clients
  {
    id: "listClients",
    method: "GET",
    path: "/clients",
    tag: "Clientes",
    summary: "Buscar clientes",
    description: "Por identificación (exacta), por palabras del nombre o todos.",
    auth: true,
    query: S.ClientQuery,
    responses: { 200: { description: "Una página de clientes.", schema: S.ClientList } },
    handle: (c) => listClientsCall(c, c.query as z.output<typeof S.ClientQuery>),
  },
  {
    id: "createClient",
    method: "POST",
    path: "/clients",
    tag: "Clientes",
    summary: "Crear un cliente o proveedor",
    description: "Las reglas del formulario /new-client (mismos mensajes). Acepta Idempotency-Key.",
    auth: true,
    body: S.ClientInput,
    idempotent: true,
    responses: { 201: { description: "El cliente creado.", schema: S.Client } },
    handle: (c) => createClientCall(c, c.body as z.output<typeof S.ClientInput>),
  },
  {
    id: "getClient",
    method: "GET",
    path: "/clients/{id}",
    tag: "Clientes",
    summary: "Consultar un cliente",
    auth: true,
    responses: { 200: { description: "El cliente.", schema: S.Client } },
    handle: (c) => getClientCall(c, idParam(c.params.id)),
  },
  {
    id: "updateClient",
    method: "PUT",
    path: "/clients/{id}",
    tag: "Clientes",
    summary: "Actualizar un cliente",
    description: "Reemplaza sus datos, como guardar su formulario.",
    auth: true,
    body: S.ClientInput,
    responses: { 200: { description: "El cliente actualizado.", schema: S.Client } },
    handle: (c) => updateClientCall(c, idParam(c.params.id), c.body as z.output<typeof S.ClientInput>),
  },
  // ---- Items
  {
    id: "listItems",
    method: "GET",
    path: "/items",
    tag: "Artículos",
    summary: "Buscar artículos",
    description: "Por código (exacto), por palabras del nombre o todos.",
    auth: true,
    query: S.ItemQuery,
    responses: { 200: { description: "Una página de artículos.", schema: S.ItemList } },
    handle: (c) => listItemsCall(c, c.query as z.output<typeof S.ItemQuery>),
  },
  {
    id: "createItem",
    method: "POST",
    path: "/items",
    tag: "Artículos",
    summary: "Crear un artículo",
    description: "Las reglas del formulario /new-item (mismos mensajes). Acepta Idempotency-Key.",
    auth: true,
    body: S.ItemInput,
    idempotent: true,
    responses: { 201: { description: "El artículo creado.", schema: S.Item } },
    handle: (c) => createItemCall(c, c.body as z.output<typeof S.ItemInput>),
  },
  {
    id: "getItem",
    method: "GET",
    path: "/items/{id}",
    tag: "Artículos",
    summary: "Consultar un artículo",
    auth: true,
    responses: { 200: { description: "El artículo.", schema: S.Item } },
    handle: (c) => getItemCall(c, idParam(c.params.id)),
  },
  {
    id: "updateItem",
    method: "PUT",
    path: "/items/{id}",
    tag: "Artículos",
    summary: "Actualizar un artículo",
    auth: true,
    body: S.ItemInput,
    responses: { 200: { description: "El artículo actualizado.", schema: S.Item } },
    handle: (c) => updateItemCall(c, idParam(c.params.id), c.body as z.output<typeof S.ItemInput>),
  },
  // ---- Received documents
  {
    id: "uploadReceivedDocument",
    method: "POST",
    path: "/received-documents",
    tag: "Documentos recibidos",
    summary: "Subir un comprobante recibido de un proveedor",
    description:
      "El XML del comprobante (FE, NC o ND) en base64 y, si la tiene, la respuesta de Hacienda al proveedor. Se revisa como en 'Subir Nuevo XML' (firma, dirigido a su compañía, no recibido antes) y queda pendiente de aceptación; sin la respuesta de Hacienda se le consulta. Con `message` (y los demás campos de POST /received-documents/{id}/acceptance, con sus mismas reglas y mensajes) se acepta, acepta parcialmente o rechaza en la misma llamada: la decisión se revisa antes de guardar nada, y si se rechaza (400) no queda nada guardado. Acepta Idempotency-Key.",
    auth: true,
    body: S.ReceivedDocumentUpload,
    bodyLimit: BODY_LIMITS.receivedDocument,
    idempotent: true,
    replay: replayReceived,
    responses: { 201: { description: "El comprobante recibido: pendiente, o con su decisión si trae `message`.", schema: S.ReceivedDocument }, 409: { description: "Ya fue recibido (Location lo nombra), o la Idempotency-Key ya se usó con otra solicitud.", schema: S.Problem } },
    handle: (c) => uploadReceived(c, c.body as z.output<typeof S.ReceivedDocumentUpload>),
  },
  {
    id: "listReceivedDocuments",
    method: "GET",
    path: "/received-documents",
    tag: "Documentos recibidos",
    summary: "Listar los comprobantes recibidos",
    description: "Del más reciente al más antiguo (fecha de emisión), con filtros; la página siguiente con ?cursor=nextCursor.",
    auth: true,
    query: S.ReceivedDocumentQuery,
    responses: { 200: { description: "Una página de comprobantes recibidos.", schema: S.ReceivedDocumentList } },
    handle: (c) => listReceived(c, c.query as z.output<typeof S.ReceivedDocumentQuery>),
  },
  {
    id: "getReceivedDocument",
    method: "GET",
    path: "/received-documents/{id}",
    tag: "Documentos recibidos",
    summary: "Consultar un comprobante recibido",
    description: "Su aceptación, el estado de nuestro mensaje de receptor ante Hacienda y sus razones si lo rechazó.",
    auth: true,
    responses: { 200: { description: "El comprobante recibido.", schema: S.ReceivedDocument } },
    handle: (c) => getReceived(c, idParam(c.params.id)),
  },
  {
    id: "decideReceivedDocument",
    method: "POST",
    path: "/received-documents/{id}/acceptance",
    tag: "Documentos recibidos",
    summary: "Aceptar, aceptar parcialmente o rechazar un comprobante recibido",
    description:
      "Las reglas del formulario 'Actualizar aceptación' (mismos mensajes, mismos campos). Si Hacienda ya aceptó el comprobante del proveedor, el mensaje de receptor se numera, firma y envía; si no se sabe todavía, queda 'esperando' y se envía cuando Hacienda lo confirme. Cuando Hacienda responde el mensaje se envía el evento received_document.processed. Acepta Idempotency-Key.",
    auth: true,
    body: S.ReceivedDocumentDecision,
    idempotent: true,
    replay: replayReceived,
    responses: { 200: { description: "El comprobante con su decisión.", schema: S.ReceivedDocument } },
    handle: (c) => decideReceived(c, idParam(c.params.id), c.body as z.output<typeof S.ReceivedDocumentDecision>),
  },
  ...(
    [
      ["xml", "downloadReceivedXml", "Descargar el XML del proveedor", "xml"],
      ["message", "downloadReceivedMessage", "Descargar nuestro mensaje de receptor firmado", "mensaje"],
      ["response", "downloadReceivedResponse", "Descargar la respuesta de Hacienda a nuestro mensaje", "respuesta"],
      ["issuer-response", "downloadReceivedIssuerResponse", "Descargar la respuesta de Hacienda al proveedor", "hacienda-emisor"],
    ] as const
  ).map(
    ([segment, id, summary, file]): Operation => ({
      id,
      method: "GET",
      path: `/received-documents/{id}/${segment}`,
      tag: "Documentos recibidos",
      summary,
      auth: true,
      responses: { 200: { description: "El archivo.", file: "application/xml" } },
      handle: (c) => downloadReceived(c, idParam(c.params.id), file),
    }),
  ),
  {
    id: "listExpenseCategories",
    method: "GET",
    path: "/expense-categories",
    tag: "Documentos recibidos",
    summary: "Las categorías de gasto de la compañía",
    auth: true,
    responses: { 200: { description: "Las categorías (expense_category de una aceptación).", schema: S.ExpenseCategoryList } },
    handle: (c) => listExpenseCategories(c),
  },
  // ---- Webhooks
  {
    id: "listWebhooks",
    method: "GET",
    path: "/webhooks",
    tag: "Webhooks",
    summary: "Listar los webhooks",
    auth: true,
    responses: { 200: { description: "Los webhooks de la compañía.", schema: S.WebhookList } },
    handle: async (c) => json({ data: await webhooksOf(c.db, c.principal.companyId) }),
  },
  {
    id: "createWebhook",
    method: "POST",
    path: "/webhooks",
    tag: "Webhooks",
    summary: "Registrar un webhook",
    description: "La respuesta trae la clave de firma (secret) una sola vez. Acepta Idempotency-Key.",
    auth: true,
    body: S.WebhookInput,
    idempotent: true,
    responses: { 201: { description: "El webhook registrado, con su clave.", schema: S.Webhook } },
    handle: async (c) => {
      const b = c.body as z.output<typeof S.WebhookInput>;
      return onceInTransaction(c.db, c.idempotency, c.now, async (tx) => {
        const created = await createWebhook(tx, c.principal.companyId, b, c.now);
        return { status: 201, body: created, headers: { Location: `/api/v1/webhooks/${created.id}` } };
      });
    },
  },
  {
    id: "deleteWebhook",
    method: "DELETE",
    path: "/webhooks/{id}",
    tag: "Webhooks",
    summary: "Eliminar un webhook",
    auth: true,
    responses: { 204: { description: "Eliminado." } },
    handle: async (c) => {
      if (!(await deleteWebhook(c.db, c.principal.companyId, idParam(c.params.id), c.now))) throw webhookNotFound();
      return json(null, 204);
    },
  },
  {
    id: "listWebhookDeliveries",
    method: "GET",
    path: "/webhooks/{id}/deliveries",
    tag: "Webhooks",
    summary: "Entregas de un webhook",
    description: "El registro de entregas: intentos, última respuesta, entregada o no.",
    auth: true,
    query: S.PageQuery,
    responses: { 200: { description: "Una página de entregas.", schema: S.WebhookDeliveryList } },
    handle: async (c) => {
      const endpointId = idParam(c.params.id);
      if (!(await webhooksOf(c.db, c.principal.companyId)).some((w) => w.id === endpointId)) throw webhookNotFound();
      const q = c.query as z.output<typeof S.PageQuery>;
      const limit = pageLimit(q.limit);
      const cursor = readCursor(q.cursor, (v): v is { i: number } => !!v && typeof v === "object" && Number.isInteger((v as { i: number }).i));
      const rows = await deliveriesOf(c.db, c.principal.companyId, { endpointId, before: cursor?.i, limit: limit + 1 });
      const page = rows.slice(0, limit).map(({ url: _url, ...d }) => d);
      return json({ data: page, nextCursor: rows.length > limit ? cursorOf({ i: page[page.length - 1].id }) : null });
    },
  },
  {
    id: "resendWebhookDelivery",
    method: "POST",
    path: "/webhooks/deliveries/{id}/resend",
    tag: "Webhooks",
    summary: "Reenviar una entrega",
    auth: true,
    responses: { 202: { description: "En cola para enviarse ahora." } },
    handle: async (c) => {
      if (!(await resendDelivery(c.db, c.principal.companyId, idParam(c.params.id), c.now))) throw notFound();
      return json(null, 202);
    },
  },
];

/** The operation a method and path (below /api/v1) name, with the path's parameters. */
export function matchOperation(method: string, path: string): { op: Operation; params: Record<string, string> } | { allowed: string[] } | null {
  const allowed: string[] = [];
  for (const op of OPERATIONS) {
    const params = matchPath(op.path, path);
    if (!params) continue;
    if (op.method === method) return { op, params };
    allowed.push(op.method);
  }
  return allowed.length ? { allowed } : null;
}

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split("/").filter(Boolean);
  const b = path.split("/").filter(Boolean);
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    const m = /^\{(\w+)\}$/.exec(a[i]);
    if (m) params[m[1]] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return null;
  }
  return params;
}
