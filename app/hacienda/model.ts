/**
 * Typed model of the v4.4 documents Colibrí issues. It carries inputs only (quantities, prices,
 * rates, discounts, exonerations…); every amount is computed by app/domain/totals.ts when building.
 * Amounts are decimal strings; instants are Date values (written in Costa Rica time, −06:00).
 */
import type { DiscountInput, PaymentInput, TarifaCode, TaxCode } from "../domain/totals.ts";
import type { IdType } from "./clave.ts";
import type { ComprobanteKind } from "./codes.ts";

export type { ComprobanteKind, DocumentKind } from "./codes.ts";

export interface Identification {
  /** 01 física, 02 jurídica, 03 DIMEX, 04 NITE, 05 extranjero no domiciliado, 06 no contribuyente. */
  type: IdType;
  number: string;
}

export interface Location {
  province: string; // 1 digit
  canton: string; // 2 digits
  district: string; // 2 digits
  barrio?: string;
  otherSigns: string; // OtrasSenas
}

export interface Phone {
  countryCode: string;
  number: string;
}

export interface Party {
  name: string;
  id: Identification;
  tradeName?: string;
  /** Emisor only (Ley 8707 alcoholic beverages register). */
  registroFiscal8707?: string;
  location?: Location;
  /** OtrasSenasExtranjero: address of a foreign party. */
  foreignAddress?: string;
  phone?: Phone;
  /** Emisor: 1–4; Receptor: 0–1. */
  emails: string[];
}

export interface Exoneration {
  /** TipoDocumentoEX1 (Nota 10.1). */
  docType: string;
  docTypeOther?: string;
  number: string;
  article?: string;
  inciso?: string;
  /** NombreInstitucion (Nota 23). */
  institution: string;
  institutionOther?: string;
  issuedAt: Date;
  /** Rate points exonerated (≤ the tax rate), e.g. "13" exonerates all of a 13 % IVA. */
  tarifaExonerada: string;
}

export interface LineTax {
  code: TaxCode;
  codeOther?: string;
  tarifaCode?: TarifaCode;
  rate?: string;
  amount?: string;
  exoneration?: Exoneration;
}

export interface LineDiscount extends DiscountInput {
  codeOther?: string;
  nature?: string;
}

export interface Line {
  /** 13-digit CABYS code (absent only in REP). */
  cabys?: string;
  /** PartidaArancelaria (FEE and NC/ND of exports), 12 digits. */
  tariffHeading?: string;
  commercialCodes?: Array<{ type: string; code: string }>;
  quantity: string;
  /** UnidadMedida (Nota 15), case-sensitive. */
  unit: string;
  commercialUnit?: string;
  /** TipoTransaccion (Nota 22). */
  transactionType?: string;
  description: string;
  serialNumbers?: string[];
  medicineRegistry?: string;
  pharmaceuticalForm?: string;
  unitPrice: string;
  discounts?: LineDiscount[];
  taxes: LineTax[];
  /** IVACobradoFabrica 01|02. */
  ivaCobradoFabrica?: string;
  impuestoAsumidoEmisorFabrica?: string;
  /** Private health service (IVA devuelto when paid by card). */
  healthService?: boolean;
  kind?: "goods" | "service";
}

export interface OtherCharge {
  /** TipoDocumentoOC (Nota 16); 06 = 10 % service charge. */
  code: string;
  codeOther?: string;
  thirdParty?: { id: Identification; name: string };
  detail: string;
  /** Percent of TotalVentaNeta (PorcentajeOC). */
  percent?: string;
  amount?: string;
}

export interface Reference {
  /** TipoDocIR (Nota 10). */
  docType: string;
  docTypeOther?: string;
  /** Clave of the referenced document (or its number). */
  number?: string;
  issuedAt: Date;
  /** Codigo (Nota 9). */
  code?: string;
  codeOther?: string;
  reason?: string;
}

export interface Comprobante {
  kind: ComprobanteKind;
  clave: string;
  consecutivo: string;
  issuedAt: Date;
  /** ProveedorSistemas: ID of the software provider (own development: the issuer's own ID). */
  providerId: string;
  activityCode?: string;
  receiverActivityCode?: string;
  issuer: Party;
  receiver?: Party;
  /** CondicionVenta (Nota 5). */
  saleCondition: string;
  saleConditionOther?: string;
  /** PlazoCredito in days. */
  creditDays?: number;
  lines: Line[];
  otherCharges?: OtherCharge[];
  currency: { code: string; rate: string };
  /** MedioPago, up to 4; a single method without amount is filled with TotalComprobante. */
  payments: PaymentInput[];
  references?: Reference[];
  others?: Array<{ text: string; code?: string }>;
}

export interface MensajeReceptor {
  kind: "mr";
  /** Clave of the received document. */
  clave: string;
  /** NumeroCedulaEmisor: the received document's issuer. */
  issuerId: string;
  /** FechaEmisionDoc: when this message is issued. */
  issuedAt: Date;
  /** 1 aceptado, 2 aceptado parcialmente, 3 rechazado. */
  message: 1 | 2 | 3;
  detail?: string;
  taxTotal?: string;
  activityCode?: string;
  /** CondicionImpuesto 01–05. */
  taxCondition?: string;
  creditableTax?: string;
  applicableExpense?: string;
  total: string;
  receiverId: string;
  /** 20-digit consecutivo of this message (type 05/06/07). */
  receiverConsecutivo: string;
}

export type HaciendaDocument = Comprobante | MensajeReceptor;
