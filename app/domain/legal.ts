// Legal notices printed on every document representation (PDF, public page). One place only.
// Which text and why: docs/decisions/080-legal-notice-v44.md.

/**
 * The resolution in force for comprobantes electrónicos v4.4: MH-DGT-RES-0027-2024 of the
 * Dirección General de Tributación, published in La Gaceta No. 217, Alcance 186, 19 November 2024.
 */
export const LEGAL_NOTICE_V44 =
  "Autorizada mediante resolución No MH-DGT-RES-0027-2024, publicada en el Alcance No. 186 de La Gaceta No. 217 del 19 de noviembre de 2024.";

/** The notice of the product spec (v4.1–4.3 era). Kept only for reference; not printed. */
export const LEGAL_NOTICE_LEGACY = "Autorizada mediante resolución No DGT-R-48-2016 del 7 de octubre de 2016.";

/** The notice to print on documents issued by Colibrí (all v4.4). */
export const LEGAL_NOTICE = LEGAL_NOTICE_V44;
